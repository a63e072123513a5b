package io.turndiff.boundary;

import io.turndiff.model.Reason;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The one read pipeline, whichever handle opened the file: the opened inode is checked before a
 * byte is read ({@link OpenedInode}: a regular file with one link on the root's device), read whole
 * up to the size limit or as {@link OverLimit} says past it, and checked again after ({@link
 * StatInfo#unchangedSince}); a file that moved meanwhile is read again, up to the retries. Every
 * way a read can fail becomes a {@link ReadOutcome} here.
 */
final class FileReader {

  private static final int CHUNK = 64 * 1024;

  private final Walker walker;

  FileReader(Walker walker) {
    this.walker = walker;
  }

  /**
   * Reads {@code path}: in one kernel call from the root where the handle can ({@link
   * RootHandle#openBeneath}, the hot path of every capture), else in its parent reached by the
   * walker.
   */
  ReadOutcome read(WorkspacePath path, long sizeLimit, int retries, OverLimit overLimit) {
    return walker.withRoot(
        root -> {
          Optional<Attempt<OpenedFile>> first = root.openBeneath(path);
          if (first.isEmpty()) {
            return walker.inParent(
                path,
                Walker.Parents.EXISTING,
                (parent, name) -> readAt(parent, name, sizeLimit, retries, overLimit),
                FileReader::refusedParent);
          }
          Supplier<Attempt<OpenedFile>> opens =
              new Supplier<>() {
                private Attempt<OpenedFile> next = first.get();

                @Override
                public Attempt<OpenedFile> get() {
                  Attempt<OpenedFile> opened =
                      next != null ? next : root.openBeneath(path).orElseThrow();
                  next = null;
                  return opened;
                }
              };
          return read(
              opens, () -> lstatForRecord(path), root.rootStat(), sizeLimit, retries, overLimit);
        });
  }

  /**
   * Reads the entry {@code name} of a directory already held open (the write protocol's check
   * before a rename).
   */
  ReadOutcome readAt(
      DirectoryHandle parent, Name name, long sizeLimit, int retries, OverLimit overLimit) {
    return read(
        () -> parent.openForRead(name),
        () -> parent.lstat(name),
        walker.root().rootStat(),
        sizeLimit,
        retries,
        overLimit);
  }

  /**
   * Opens {@code path} as {@link #read} does and runs {@code reads} on it, held open: the file's
   * parts are read where the caller asks. Empty, with why, when it cannot be opened or is not a
   * file that may be read.
   */
  <T> PositionedOutcome<T> readPositioned(WorkspacePath path, PositionedFile.Reads<T> reads) {
    return walker.withRoot(
        root -> {
          Optional<Attempt<OpenedFile>> whole = root.openBeneath(path);
          if (whole.isEmpty()) {
            return walker.inParent(
                path,
                Walker.Parents.EXISTING,
                (parent, name) -> positioned(parent.openForRead(name), root.rootStat(), reads),
                refusal -> new PositionedOutcome.Refused<>(refusal.text()));
          }
          return positioned(whole.get(), root.rootStat(), reads);
        });
  }

  private static <T> PositionedOutcome<T> positioned(
      Attempt<OpenedFile> opened, StatInfo root, PositionedFile.Reads<T> reads) {
    if (opened instanceof Attempt.Refused<OpenedFile>(HandleFailure why)) {
      return new PositionedOutcome.Refused<>(why.describe());
    }
    try (OpenedFile file = ((Attempt.Done<OpenedFile>) opened).value()) {
      StatInfo stat = file.opened();
      Optional<ReadOutcome> refusal = OpenedInode.refusal(stat, root);
      if (refusal.isPresent()) {
        return new PositionedOutcome.Refused<>(((ReadOutcome.MetadataOnly) refusal.get()).detail());
      }
      PositionedFile view =
          new PositionedFile() {
            @Override
            public long size() {
              return stat.size();
            }

            @Override
            public int read(ByteBuffer into, long position) throws IOException {
              return file.read(into, position);
            }
          };
      return new PositionedOutcome.Read<>(reads.apply(view));
    } catch (IOException e) {
      return new PositionedOutcome.Refused<>(String.valueOf(e.getMessage()));
    }
  }

  /** What {@link #readPositioned} came to: the caller's result, or why the file was not read. */
  sealed interface PositionedOutcome<T> {
    record Read<T>(T value) implements PositionedOutcome<T> {}

    record Refused<T>(String why) implements PositionedOutcome<T> {}
  }

  static ReadOutcome refusedParent(Walker.Refusal refusal) {
    return switch (refusal.why()) {
      case HandleFailure.Missing missing -> new ReadOutcome.Missing();
      case HandleFailure.NotDirectory notDirectory -> new ReadOutcome.Missing();
      case HandleFailure.Symlink symlink -> new ReadOutcome.LinkInPath();
      case HandleFailure.OtherMount otherMount ->
          new ReadOutcome.MetadataOnly(
              Optional.empty(), Reason.ESCAPES_WORKSPACE, "the path crosses a mount point");
      default -> new ReadOutcome.Failed(refusal.text());
    };
  }

  private Attempt<StatInfo> lstatForRecord(WorkspacePath path) {
    return walker.inParent(
        path,
        Walker.Parents.EXISTING,
        DirectoryHandle::lstat,
        refusal -> Attempt.refused(refusal.why()));
  }

  private static ReadOutcome read(
      Supplier<Attempt<OpenedFile>> opener,
      Supplier<Attempt<StatInfo>> lstat,
      StatInfo root,
      long sizeLimit,
      int retries,
      OverLimit overLimit) {
    Optional<StatInfo> lastSeen = Optional.empty();
    for (int attempt = 0; attempt <= retries; attempt++) {
      Attempt<OpenedFile> opened = opener.get();
      if (opened instanceof Attempt.Refused<OpenedFile>(HandleFailure why)) {
        return notOpened(why, lstat);
      }
      try (OpenedFile file = ((Attempt.Done<OpenedFile>) opened).value()) {
        StatInfo stat = file.opened();
        Optional<ReadOutcome> refusal = OpenedInode.refusal(stat, root);
        if (refusal.isPresent()) {
          return refusal.get();
        }
        lastSeen = Optional.of(stat);
        ReadOutcome outcome =
            stat.size() <= sizeLimit ? whole(file, stat) : overLimit(file, stat, overLimit);
        if (outcome != null) {
          return outcome;
        }
      } catch (IOException e) {
        return new ReadOutcome.Failed(e.getMessage());
      }
    }
    return new ReadOutcome.MetadataOnly(
        lastSeen,
        Reason.CHANGED_DURING_READ,
        "size, modification time or inode moved while reading, " + (retries + 1) + " times");
  }

  /** A file over the limit of content held whole, read as {@code overLimit} says. */
  private static ReadOutcome overLimit(OpenedFile file, StatInfo stat, OverLimit overLimit)
      throws IOException {
    return switch (overLimit) {
      case OverLimit.Sample sample -> sample(file, stat);
      case OverLimit.Hash hash -> tooLarge(hashAll(file, stat, Optional.empty()), stat);
      case OverLimit.Capture capture -> capture(file, stat, capture.sink());
      case OverLimit.Stream stream ->
          stat.size() <= stream.upTo()
              ? capture(file, stat, stream.sink())
              : overLimit(file, stat, stream.beyond());
    };
  }

  private static ReadOutcome notOpened(HandleFailure why, Supplier<Attempt<StatInfo>> lstat) {
    return switch (why) {
      case HandleFailure.Missing missing -> new ReadOutcome.Missing();
      case HandleFailure.NotDirectory notDirectory -> new ReadOutcome.Missing();
      case HandleFailure.Symlink symlink -> new ReadOutcome.LinkInPath();
      case HandleFailure.OtherMount otherMount ->
          new ReadOutcome.MetadataOnly(
              Optional.empty(), Reason.ESCAPES_WORKSPACE, "the path crosses a mount point");
      // a socket, or a device without a driver: opening it failed, lstat says what it is
      case HandleFailure.NoDevice noDevice ->
          lstat.get() instanceof Attempt.Done<StatInfo>(StatInfo stat)
              ? new ReadOutcome.MetadataOnly(
                  Optional.of(stat),
                  Reason.SPECIAL_FILE,
                  OpenedInode.describe(stat.type()) + " is never read")
              : new ReadOutcome.Failed(why.describe());
      case HandleFailure.Blocked blocked ->
          new ReadOutcome.MetadataOnly(
              lstat.get() instanceof Attempt.Done<StatInfo>(StatInfo stat)
                  ? Optional.of(stat)
                  : Optional.empty(),
              Reason.SPECIAL_FILE,
              "the open did not return: a FIFO or device was swapped in after the type check");
      default -> new ReadOutcome.Failed(why.describe());
    };
  }

  /** Whether the inode is as it was when opened: the read saw one state of the file. */
  private static boolean unchanged(OpenedFile file, StatInfo stat) {
    return file.now().filter(now -> now.unchangedSince(stat)).isPresent();
  }

  /**
   * The whole content of a file within the size limit; null when it moved meanwhile (the caller
   * retries).
   */
  private static ReadOutcome whole(OpenedFile file, StatInfo stat) throws IOException {
    byte[] bytes = new byte[Math.toIntExact(stat.size())];
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    while (buffer.hasRemaining()) {
      if (file.read(buffer, buffer.position()) < 0) {
        return null; // shorter than its stat said: it is being truncated
      }
    }
    if (file.read(ByteBuffer.allocate(1), bytes.length) > 0 || !unchanged(file, stat)) {
      return null; // longer than its stat said, or changed
    }
    return new ReadOutcome.Content(stat, bytes, Sha256.of(bytes));
  }

  /**
   * The SHA-256 of all of a file over the limit, read in chunks from its first byte up to one byte
   * past its size, each chunk also to {@code chunks} when given; null when it moved meanwhile.
   */
  private static Sha256 hashAll(OpenedFile file, StatInfo stat, Optional<UploadBuffer> chunks)
      throws IOException {
    MessageDigest digest = Sha256.newDigest();
    ByteBuffer buffer = ByteBuffer.allocate(CHUNK);
    long total = 0;
    while (total <= stat.size()) {
      buffer.clear().limit((int) Math.min(CHUNK, stat.size() + 1 - total));
      int n = file.read(buffer, total);
      if (n < 0) {
        break;
      }
      buffer.flip();
      digest.update(buffer.duplicate());
      chunks.ifPresent(upload -> upload.add(buffer));
      total += n;
    }
    return total == stat.size() && unchanged(file, stat) ? Sha256.fromDigest(digest) : null;
  }

  private static ReadOutcome tooLarge(Sha256 sha256, StatInfo stat) {
    return sha256 == null ? null : new ReadOutcome.TooLarge(stat, sha256);
  }

  /** The sampled fingerprint of a file over the limit; null when it moved meanwhile. */
  private static ReadOutcome sample(OpenedFile file, StatInfo stat) throws IOException {
    SampledBlocks blocks = new SampledBlocks(stat.size());
    for (int i = 0; i < Snapshot.SAMPLED_BLOCKS; i++) {
      ByteBuffer block = ByteBuffer.allocate(blocks.length(i));
      while (block.hasRemaining()) {
        if (file.read(block, blocks.offset(i) + block.position()) < 0) {
          return null; // shorter than its stat said: it is being truncated
        }
      }
      blocks.add(i, block.flip());
    }
    return unchanged(file, stat) ? new ReadOutcome.Sampled(stat, blocks.sha256()) : null;
  }

  /**
   * Hashes a file over the limit and, unless {@code sink} holds that content already, reads it
   * again into the sink; null when it moved meanwhile.
   */
  private static ReadOutcome capture(OpenedFile file, StatInfo stat, ContentSink sink)
      throws IOException {
    Sha256 sha256 = hashAll(file, stat, Optional.empty());
    if (sha256 == null || sink.holds(sha256)) {
      return sha256 == null ? null : new ReadOutcome.Stored(stat, sha256);
    }
    Optional<ContentSink.Upload> begun = sink.begin();
    if (begun.isEmpty()) {
      return new ReadOutcome.TooLarge(stat, sha256);
    }
    boolean completed = false;
    try {
      UploadBuffer chunks = new UploadBuffer(begun.get());
      if (!sha256.equals(hashAll(file, stat, Optional.of(chunks)))) {
        return null;
      }
      chunks.flush();
      begun.get().complete(sha256, stat.size());
      completed = true;
      return new ReadOutcome.Stored(stat, sha256);
    } finally {
      if (!completed) {
        begun.get().abandon();
      }
    }
  }
}
