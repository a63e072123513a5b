package io.turndiff.model;

import java.time.Instant;
import java.util.Optional;

/**
 * The state of one path at one moment, as the workspace boundary saw it.
 *
 * <p>A snapshot is <em>captured</em> when that state is completely known, so that it can be put back: a
 * regular file whose content is stored, a symlink whose text is known, or a known absence. Anything else is
 * metadata only, with the {@link #reason()} why; metadata-only snapshots are never restorable, and never equal
 * any other state ({@link #compareState}), but what they know (existence, type, mode, size, hashes) can still
 * prove a change.
 *
 * @param path the path whose state this is (after in-workspace symlinks were resolved)
 * @param boundary the boundary implementation that produced it
 * @param metadata what stat said; for an absence, or when the object could not be looked at, empty
 * @param sha256 the hash of the whole content whenever it was read, also when it was too large to store
 * @param sampledSha256 for a file over the size limit that was not read whole: a hash of sampled blocks (see
 *     {@link #SAMPLED_BLOCKS}), which can show that the content changed but never that it did not
 * @param storedContent the blob holding the content, when the content itself was stored
 * @param linkTarget the text of a symlink
 * @param reasonDetail a human explanation to go with the reason (the errno, the link that escapes), or ""
 */
public record Snapshot(
    WorkspacePath path,
    BoundaryKind boundary,
    Presence presence,
    Optional<FileMetadata> metadata,
    Optional<Sha256> sha256,
    Optional<Sha256> sampledSha256,
    Optional<Sha256> storedContent,
    Optional<LinkTarget> linkTarget,
    Optional<Reason> reason,
    String reasonDetail,
    Instant takenAt) {

  /** How many blocks of {@link #SAMPLED_BLOCK_SIZE} bytes a sampled fingerprint hashes. */
  public static final int SAMPLED_BLOCKS = 16;
  public static final int SAMPLED_BLOCK_SIZE = 8192;

  public Snapshot {
    if (storedContent.isPresent() && !storedContent.equals(sha256)) {
      throw new IllegalArgumentException("stored content must be the content that was hashed");
    }
    if (sampledSha256.isPresent() && (sha256.isPresent() || presence != Presence.PRESENT)) {
      throw new IllegalArgumentException("a sampled fingerprint stands in for a content hash of a present file");
    }
    if (presence == Presence.PRESENT && metadata.isEmpty()) {
      throw new IllegalArgumentException("a present file has metadata");
    }
  }

  /** A path that is known not to exist. */
  public static Snapshot absent(WorkspacePath path, BoundaryKind boundary, Instant takenAt) {
    return new Snapshot(path, boundary, Presence.ABSENT, Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty(), Optional.empty(), "", takenAt);
  }

  /** A regular file whose content was read and is stored under its hash. */
  public static Snapshot regularFile(WorkspacePath path, BoundaryKind boundary, FileMetadata metadata,
                                     Sha256 content, Instant takenAt) {
    return new Snapshot(path, boundary, Presence.PRESENT, Optional.of(metadata), Optional.of(content),
        Optional.empty(), Optional.of(content), Optional.empty(), Optional.empty(), "", takenAt);
  }

  /** A symlink recorded as a link: its text, never its target's content. */
  public static Snapshot symlink(WorkspacePath path, BoundaryKind boundary, FileMetadata metadata,
                                 LinkTarget target, Instant takenAt) {
    return new Snapshot(path, boundary, Presence.PRESENT, Optional.of(metadata), Optional.empty(),
        Optional.empty(), Optional.empty(), Optional.of(target), Optional.empty(), "", takenAt);
  }

  /** Metadata only, with the reason why the content was not (or could not safely be) stored. */
  public static Snapshot metadataOnly(WorkspacePath path, BoundaryKind boundary, Presence presence,
                                      Optional<FileMetadata> metadata, Optional<Sha256> sha256,
                                      Optional<LinkTarget> linkTarget, Reason reason, String detail,
                                      Instant takenAt) {
    return new Snapshot(path, boundary, presence, metadata, sha256, Optional.empty(), Optional.empty(), linkTarget,
        Optional.of(reason), detail, takenAt);
  }

  /**
   * A regular file over the size limit, fingerprinted without reading it whole: its stat and a hash of
   * sampled blocks ({@code sample}). Metadata only, reason {@link Reason#TOO_LARGE}.
   */
  public static Snapshot sampled(WorkspacePath path, BoundaryKind boundary, FileMetadata metadata, Sha256 sample,
                                 String detail, Instant takenAt) {
    return new Snapshot(path, boundary, Presence.PRESENT, Optional.of(metadata), Optional.empty(),
        Optional.of(sample), Optional.empty(), Optional.empty(), Optional.of(Reason.TOO_LARGE), detail, takenAt);
  }

  public Optional<FileType> type() {
    return metadata.map(FileMetadata::type);
  }

  public boolean exists() {
    return presence == Presence.PRESENT;
  }

  /** The state is completely known and could be put back. */
  public boolean captured() {
    if (reason.isPresent()) {
      return false;
    }
    return switch (presence) {
      case ABSENT -> true;
      case UNKNOWN -> false;
      case PRESENT -> switch (metadata.orElseThrow().type()) {
        case REGULAR -> storedContent.isPresent();
        case SYMLINK -> linkTarget.isPresent();
        default -> false;
      };
    };
  }

  public Containment containment() {
    return reason.map(Reason::containment).orElse(Containment.INSIDE);
  }

  /**
   * Type, size, mtime and mode, or {@code absent} / {@code unknown}; for a sampled file also its inode and the
   * sampled hash, marked {@code sampled}.
   */
  public String fingerprint() {
    return switch (presence) {
      case ABSENT -> "absent";
      case UNKNOWN -> metadata.map(FileMetadata::fingerprint).orElse("unknown");
      case PRESENT -> metadata.orElseThrow().fingerprint() + sampledSha256.map(sample -> ":inode="
          + metadata.orElseThrow().inode() + ":sampled=" + sample.hex()).orElse("");
    };
  }

  /** Whether the path leads out of the workspace: what it reaches there was never read. */
  public boolean leadsOutside() {
    Containment containment = containment();
    return containment == Containment.ESCAPED || containment == Containment.OUTSIDE;
  }

  /**
   * How this state of a path compares with another. Two states are {@link StateComparison#SAME} only when
   * both were captured and agree on existence, type, content hash, link text and mode. When either was not
   * captured, the comparison is {@link StateComparison#DIFFERENT} if what is known proves a difference
   * (existence, type, mode, size, link text, or content or sampled hashes that differ), else
   * {@link StateComparison#UNKNOWN}: an uncaptured state equals nothing, not even another uncaptured state.
   *
   * <p>Two directories compare on their mode alone: a directory is never a file change, and what it holds is
   * recorded as paths of their own, so its existence, type and mode are all its record has to know.
   */
  public StateComparison compareState(Snapshot other) {
    if (captured() && other.captured()) {
      return sameCapturedState(other) ? StateComparison.SAME : StateComparison.DIFFERENT;
    }
    if (isDirectory() && other.isDirectory()) {
      return mode().equals(other.mode()) ? StateComparison.SAME : StateComparison.DIFFERENT;
    }
    return provablyDifferent(other) ? StateComparison.DIFFERENT : StateComparison.UNKNOWN;
  }

  /** The same state, proven: {@link #compareState} is {@link StateComparison#SAME}. */
  public boolean sameStateAs(Snapshot other) {
    return compareState(other) == StateComparison.SAME;
  }

  /**
   * A directory, recorded as one (metadata only, reason {@link Reason#DIRECTORY}; not one on another mount,
   * which leads outside): never a file change, its mode is all its record knows.
   */
  public boolean isDirectory() {
    return presence == Presence.PRESENT && reason.equals(Optional.of(Reason.DIRECTORY))
        && type().equals(Optional.of(FileType.DIRECTORY));
  }

  private boolean sameCapturedState(Snapshot other) {
    if (presence != other.presence || !type().equals(other.type())) {
      return false;
    }
    if (presence == Presence.ABSENT) {
      return true;
    }
    if (type().orElseThrow() == FileType.SYMLINK) {
      return linkTarget.equals(other.linkTarget);
    }
    return storedContent.equals(other.storedContent) && mode().equals(other.mode());
  }

  private boolean provablyDifferent(Snapshot other) {
    if (presence == Presence.UNKNOWN || other.presence == Presence.UNKNOWN) {
      return false;
    }
    if (presence != other.presence) {
      return true;
    }
    if (presence == Presence.ABSENT) {
      return false;
    }
    FileMetadata mine = metadata.orElseThrow();
    FileMetadata theirs = other.metadata.orElseThrow();
    if (mine.type() != theirs.type()) {
      return true;
    }
    if (mine.type() == FileType.SYMLINK) {
      return linkTarget.isPresent() && other.linkTarget.isPresent() && !linkTarget.equals(other.linkTarget);
    }
    if (mine.mode() != theirs.mode()) {
      return true;
    }
    return mine.type() == FileType.REGULAR && (mine.size() != theirs.size()
        || differ(sha256, other.sha256) || differ(sampledSha256, other.sampledSha256));
  }

  private static boolean differ(Optional<Sha256> mine, Optional<Sha256> theirs) {
    return mine.isPresent() && theirs.isPresent() && !mine.equals(theirs);
  }

  private Optional<Integer> mode() {
    return metadata.map(FileMetadata::mode);
  }
}
