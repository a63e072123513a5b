package io.turndiff.boundary;

import io.turndiff.model.FileMetadata;
import io.turndiff.model.FileType;
import io.turndiff.model.WorkspacePath;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The one write protocol, over any handle, in three steps for any number of files: stage (a new
 * name beside the target in its parent held open from the root, temporary names and their retries
 * here, once; content and mode on the new file, which is synced), commit (a rename over the target
 * in its parent held open again), then {@link #syncDirectory} once per directory the commits
 * changed. An existing inode is never written: a symlink, hardlink or FIFO at the target is
 * replaced as a name.
 *
 * <p>{@link #commitIfUnchanged} and {@link #deleteIfUnchanged} look at the target through the same
 * held parent right before the rename or unlink, so the check and the change are one walk and one
 * directory handle.
 */
final class WriteProtocol {

  private static final int TEMPORARY_NAME_ATTEMPTS = 16;
  private static final int CHUNK = 64 * 1024;

  /** A new file's content, written to it once. */
  @FunctionalInterface
  interface Content {
    void writeTo(NewFile file) throws IOException;

    static Content of(byte[] bytes) {
      return file -> file.write(ByteBuffer.wrap(bytes));
    }

    /** Streamed a chunk at a time (never held whole); the stream is closed after. */
    static Content of(InputStream in) {
      return file -> {
        try (in) {
          byte[] chunk = new byte[CHUNK];
          for (int n = in.readNBytes(chunk, 0, CHUNK); n > 0; n = in.readNBytes(chunk, 0, CHUNK)) {
            file.write(ByteBuffer.wrap(chunk, 0, n));
          }
        }
      };
    }
  }

  /**
   * What the target must still be for a commit or a delete to go ahead, asked with what is there
   * now (read through the held parent): empty when it still is, else the observation that differs.
   */
  @FunctionalInterface
  interface TargetCheck {
    Optional<Observation> changed(WorkspacePath path, ReadOutcome now);
  }

  private final Walker walker;
  private final FileReader reader;
  private final BoundaryOptions options;

  WriteProtocol(Walker walker, FileReader reader, BoundaryOptions options) {
    this.walker = walker;
    this.reader = reader;
    this.options = options;
  }

  // ---- files and symlinks

  WriteOutcome stageFile(
      WorkspacePath path,
      Content content,
      int mode,
      Optional<String> temporaryName,
      Durability durability) {
    return walker.inParent(
        path,
        Walker.Parents.CREATE_MISSING,
        (parent, name) -> stageFileIn(parent, path, content, mode, temporaryName, durability),
        WriteProtocol::refused);
  }

  WriteOutcome stageSymlink(WorkspacePath path, byte[] target, Optional<String> temporaryName) {
    return walker.inParent(
        path,
        Walker.Parents.CREATE_MISSING,
        (parent, name) -> stageSymlinkIn(parent, path, target, temporaryName),
        WriteProtocol::refused);
  }

  /**
   * Renames a staged file over its name if the name still holds what {@code check} expects, looked
   * at through the same held parent right before the rename; else removes the staged file and says
   * what is there now.
   */
  WriteOutcome commitIfUnchanged(
      WriteOutcome.Staged staged, OverLimit overLimit, TargetCheck check) {
    return walker.inParent(
        staged.path(),
        Walker.Parents.EXISTING,
        (parent, name) -> {
          Optional<Observation> changed =
              check.changed(staged.path(), readAt(parent, name, overLimit));
          if (changed.isPresent()) {
            parent.unlink(Name.of(staged.temporaryName()));
            return new WriteOutcome.Changed(changed.get());
          }
          return rename(parent, staged, name);
        },
        WriteProtocol::refused);
  }

  /** Removes a staged file that will not be committed, wherever the handle staged it. */
  void discard(WriteOutcome.Staged staged) {
    Name temporary = Name.of(staged.temporaryName());
    walker.inParent(
        staged.path(),
        Walker.Parents.EXISTING,
        (parent, name) -> parent.unlink(temporary),
        refusal -> null);
    walker.withRoot(
        root -> {
          root.removeLeftover(temporary);
          return null;
        });
  }

  /**
   * Removes the name if it still holds what {@code check} expects, looked at through the same held
   * parent.
   */
  WriteOutcome deleteIfUnchanged(WorkspacePath path, OverLimit overLimit, TargetCheck check) {
    return walker.inParent(
        path,
        Walker.Parents.EXISTING,
        (parent, name) -> {
          Optional<Observation> changed = check.changed(path, readAt(parent, name, overLimit));
          return changed.isPresent()
              ? new WriteOutcome.Changed(changed.get())
              : unlink(parent, path, name);
        },
        refusal ->
            switch (refusal.why()) {
              case HandleFailure.Missing missing ->
                  check
                      .changed(path, new ReadOutcome.Missing())
                      .<WriteOutcome>map(WriteOutcome.Changed::new)
                      .orElseGet(WriteOutcome.Done::new);
              default -> refused(refusal);
            });
  }

  /**
   * Makes the entries of {@code directory} (the root when empty) durable: what renames, unlinks and
   * directories made or removed in it changed ({@code fsync} of the directory). A directory the
   * handle cannot sync (the fallback's held stream) counts as done: there each file was synced as
   * it was written, and nothing more can be.
   */
  WriteOutcome syncDirectory(Optional<WorkspacePath> directory) {
    return walker.inDirectory(
        directory,
        handle ->
            handle.sync() instanceof Attempt.Refused<Void>(HandleFailure why)
                ? new WriteOutcome.Refused(
                    "cannot sync "
                        + directory.map(path -> "directory " + path).orElse("the workspace root")
                        + ": "
                        + why.describe())
                : new WriteOutcome.Done(),
        WriteProtocol::refused);
  }

  /**
   * Makes everything written on the workspace's file system durable at once ({@code syncfs} through
   * the root directory): the end of a batch staged with {@link Durability#SYNCED_AT_THE_END}.
   */
  WriteOutcome syncFileSystem() {
    return walker.inDirectory(
        Optional.empty(),
        handle ->
            handle.syncFileSystem() instanceof Attempt.Refused<Void>(HandleFailure why)
                ? new WriteOutcome.Refused(
                    "cannot sync the workspace's file system: " + why.describe())
                : new WriteOutcome.Done(),
        WriteProtocol::refused);
  }

  private ReadOutcome readAt(DirectoryHandle parent, Name name, OverLimit overLimit) {
    return reader.readAt(
        parent, name, options.wholeReadLimit(), options.changeRetries(), overLimit);
  }

  private WriteOutcome stageFileIn(
      DirectoryHandle parent,
      WorkspacePath path,
      Content content,
      int mode,
      Optional<String> temporaryName,
      Durability durability) {
    return underTemporaryName(
        path,
        temporaryName,
        temporary ->
            switch (parent.createExclusive(temporary)) {
              case Attempt.Refused<NewFile> refused -> refused.asRefused();
              case Attempt.Done<NewFile>(NewFile file) -> {
                try (file) {
                  content.writeTo(file);
                  file.chmod(mode & 07777);
                  // durable before it can be renamed over anything: a power loss never leaves a
                  // name holding a half-written file (unless the caller's own record redoes it)
                  if (durability == Durability.SYNCED_EACH) {
                    file.sync();
                  }
                  yield Attempt.done(file.now().map(StatInfo::metadata));
                } catch (IOException | RuntimeException e) {
                  // a content streamed from the store can fail as it is read: the temporary file is
                  // removed either way
                  parent.unlink(temporary);
                  yield Attempt.failed("cannot write the content (" + e.getMessage() + ")");
                }
              }
            });
  }

  private WriteOutcome stageSymlinkIn(
      DirectoryHandle parent, WorkspacePath path, byte[] target, Optional<String> temporaryName) {
    return underTemporaryName(
        path,
        temporaryName,
        temporary ->
            switch (parent.symlink(temporary, target)) {
              case Attempt.Done<Void> done -> Attempt.done(Optional.<FileMetadata>empty());
              case Attempt.Refused<Void> refused -> refused.asRefused();
            });
  }

  /**
   * Makes a new entry beside {@code path} under a temporary name: the caller's (one it journaled,
   * so that a crashed write is found by it), else fresh random names until one is free.
   */
  private WriteOutcome underTemporaryName(
      WorkspacePath path,
      Optional<String> given,
      Function<Name, Attempt<Optional<FileMetadata>>> create) {
    Supplier<String> names = options::nextTemporaryName;
    for (int attempt = 0; attempt < TEMPORARY_NAME_ATTEMPTS; attempt++) {
      String temporary = given.orElseGet(names);
      switch (create.apply(Name.of(temporary.getBytes(StandardCharsets.UTF_8)))) {
        case Attempt.Done<Optional<FileMetadata>>(Optional<FileMetadata> written) -> {
          return new WriteOutcome.Staged(path, temporary, written);
        }
        case Attempt.Refused<Optional<FileMetadata>>(HandleFailure.Exists exists)
            when given.isPresent() -> {
          return new WriteOutcome.NameTaken(given.get());
        }
        case Attempt.Refused<Optional<FileMetadata>>(HandleFailure.Exists exists) -> {
          // someone holds that name: never written, try another
        }
        case Attempt.Refused<Optional<FileMetadata>>(HandleFailure why) -> {
          return new WriteOutcome.Refused("cannot write " + path + ": " + why.describe());
        }
      }
    }
    return new WriteOutcome.Refused("every temporary name tried next to " + path + " was taken");
  }

  private static WriteOutcome rename(
      DirectoryHandle parent, WriteOutcome.Staged staged, Name name) {
    Name temporary = Name.of(staged.temporaryName());
    // a rename over a file, though ext4 (auto_da_alloc) starts the renamed file's write-back
    // inside it: swapping the names instead (RENAME_EXCHANGE) and unlinking the temporary one was
    // measured in bench, and the renames and the rewind's one syncfs took longer together in each
    // of three pairs, the syncfs then waiting for all of that data at once (docs/performance.md,
    // "The rename's cost, and the bound of a rewind"); writing in place, as git does, would leave
    // the name holding a half-written file while it is written
    if (parent.rename(temporary, name) instanceof Attempt.Refused<Void>(HandleFailure why)) {
      parent.unlink(temporary);
      return new WriteOutcome.Refused(
          "cannot rename into " + staged.path() + ": " + why.describe());
    }
    return new WriteOutcome.Done();
  }

  private static WriteOutcome unlink(DirectoryHandle parent, WorkspacePath path, Name name) {
    return switch (parent.unlink(name)) {
      case Attempt.Done<Void> done -> new WriteOutcome.Done();
      case Attempt.Refused<Void>(HandleFailure.Missing missing) -> new WriteOutcome.Done();
      case Attempt.Refused<Void>(HandleFailure why) ->
          new WriteOutcome.Refused("cannot remove " + path + ": " + why.describe());
    };
  }

  private static WriteOutcome refused(Walker.Refusal refusal) {
    return new WriteOutcome.Refused(refusal.text());
  }

  // ---- directories

  /**
   * Creates the directory {@code path} (missing parents too, default mode) in its parent held open
   * from the root; with {@code mode}, exactly those bits, set through the new directory's own
   * handle (the umask does not apply). A directory already there is left as it is.
   */
  DirectoryOutcome makeDirectory(WorkspacePath path, OptionalInt mode) {
    return walker.inParent(
        path,
        Walker.Parents.CREATE_MISSING,
        (parent, name) -> {
          switch (parent.makeDirectory(name, mode.orElse(0777))) {
            case Attempt.Refused<Void>(HandleFailure.Exists exists) -> {
              return parent.lstat(name) instanceof Attempt.Done<StatInfo>(StatInfo there)
                      && there.type() == FileType.DIRECTORY
                  ? new DirectoryOutcome.AlreadySo()
                  : new DirectoryOutcome.Refused("something other than a directory is at " + path);
            }
            case Attempt.Refused<Void>(HandleFailure why) -> {
              return new DirectoryOutcome.Refused(
                  "cannot create directory " + path + ": " + why.describe());
            }
            case Attempt.Done<Void> done -> {
              // made
            }
          }
          if (mode.isEmpty()) {
            return new DirectoryOutcome.Done();
          }
          // mkdir applied the umask: set exactly the recorded bits, on the directory just made,
          // nothing followed
          return switch (parent.openDirectory(name)) {
            case Attempt.Refused<DirectoryHandle>(HandleFailure why) ->
                new DirectoryOutcome.Refused(
                    "created " + path + " but cannot open it to set its mode: " + why.describe());
            case Attempt.Done<DirectoryHandle>(DirectoryHandle made) -> {
              try (made) {
                yield made.chmod(mode.getAsInt())
                        instanceof Attempt.Refused<Void>(HandleFailure why)
                    ? new DirectoryOutcome.Refused(
                        "created " + path + " but cannot set its mode: " + why.describe())
                    : new DirectoryOutcome.Done();
              }
            }
          };
        },
        refusal -> new DirectoryOutcome.Refused(refusal.text()));
  }

  /**
   * Removes the directory {@code path} when it is empty; never follows a link, never removes a
   * file.
   */
  DirectoryOutcome removeDirectory(WorkspacePath path) {
    return walker.inParent(
        path,
        Walker.Parents.EXISTING,
        (parent, name) ->
            switch (parent.removeDirectory(name)) {
              case Attempt.Done<Void> done -> new DirectoryOutcome.Done();
              case Attempt.Refused<Void>(HandleFailure.Missing missing) ->
                  new DirectoryOutcome.AlreadySo();
              case Attempt.Refused<Void>(HandleFailure.NotEmpty notEmpty) ->
                  new DirectoryOutcome.NotEmpty();
              case Attempt.Refused<Void>(HandleFailure.NotDirectory notDirectory) ->
                  new DirectoryOutcome.Refused("something other than a directory is at " + path);
              case Attempt.Refused<Void>(HandleFailure why) ->
                  new DirectoryOutcome.Refused(
                      "cannot remove directory " + path + ": " + why.describe());
            },
        refusal ->
            refusal.why() instanceof HandleFailure.Missing
                    || refusal.why() instanceof HandleFailure.NotDirectory
                ? new DirectoryOutcome.AlreadySo()
                : new DirectoryOutcome.Refused(refusal.text()));
  }

  /**
   * Sets the permission bits of the directory {@code path} to {@code to} if they are {@code from}
   * now: the directory itself is held open from the root, nothing followed, and its bits are read
   * and set through that handle, never through a name.
   */
  DirectoryOutcome changeDirectoryMode(WorkspacePath path, int from, int to) {
    return walker.inDirectory(
        Optional.of(path),
        directory -> {
          if (!(directory.stat() instanceof Attempt.Done<StatInfo>(StatInfo now))) {
            return new DirectoryOutcome.Refused("cannot stat directory " + path);
          }
          int bits = now.mode() & 07777;
          if (bits == (to & 07777)) {
            return new DirectoryOutcome.AlreadySo();
          }
          if (bits != (from & 07777)) {
            return new DirectoryOutcome.Changed(bits);
          }
          return directory.chmod(to & 07777) instanceof Attempt.Refused<Void>(HandleFailure why)
              ? new DirectoryOutcome.Refused(
                  "cannot set the mode of " + path + ": " + why.describe())
              : new DirectoryOutcome.Done();
        },
        refusal ->
            new DirectoryOutcome.Refused(
                refusal.why() instanceof HandleFailure.Missing
                    ? path + " is no longer there"
                    : refusal.text()));
  }
}
