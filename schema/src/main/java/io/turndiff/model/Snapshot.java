package io.turndiff.model;

import java.time.Instant;
import java.util.Optional;

/**
 * The state of one path at one moment, as the workspace boundary saw it.
 *
 * <p>A snapshot is <em>captured</em> when that state is completely known, so that it can be put back: a
 * regular file whose content is stored, a symlink whose text is known, or a known absence. Anything else is
 * metadata only, with the {@link #reason()} why; metadata-only snapshots are never restorable, but their
 * {@link #fingerprint()} still shows change.
 *
 * @param path the path whose state this is (after in-workspace symlinks were resolved)
 * @param boundary the boundary implementation that produced it
 * @param metadata what stat said; for an absence, or when the object could not be looked at, empty
 * @param sha256 the hash of the content whenever it was read, also when it was too large to store
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
    Optional<Sha256> storedContent,
    Optional<LinkTarget> linkTarget,
    Optional<Reason> reason,
    String reasonDetail,
    Instant takenAt) {

  public Snapshot {
    if (storedContent.isPresent() && !storedContent.equals(sha256)) {
      throw new IllegalArgumentException("stored content must be the content that was hashed");
    }
    if (presence == Presence.PRESENT && metadata.isEmpty()) {
      throw new IllegalArgumentException("a present file has metadata");
    }
  }

  /** A path that is known not to exist. */
  public static Snapshot absent(WorkspacePath path, BoundaryKind boundary, Instant takenAt) {
    return new Snapshot(path, boundary, Presence.ABSENT, Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty(), "", takenAt);
  }

  /** A regular file whose content was read and is stored under its hash. */
  public static Snapshot regularFile(WorkspacePath path, BoundaryKind boundary, FileMetadata metadata,
                                     Sha256 content, Instant takenAt) {
    return new Snapshot(path, boundary, Presence.PRESENT, Optional.of(metadata), Optional.of(content),
        Optional.of(content), Optional.empty(), Optional.empty(), "", takenAt);
  }

  /** A symlink recorded as a link: its text, never its target's content. */
  public static Snapshot symlink(WorkspacePath path, BoundaryKind boundary, FileMetadata metadata,
                                 LinkTarget target, Instant takenAt) {
    return new Snapshot(path, boundary, Presence.PRESENT, Optional.of(metadata), Optional.empty(),
        Optional.empty(), Optional.of(target), Optional.empty(), "", takenAt);
  }

  /** Metadata only, with the reason why the content was not (or could not safely be) stored. */
  public static Snapshot metadataOnly(WorkspacePath path, BoundaryKind boundary, Presence presence,
                                      Optional<FileMetadata> metadata, Optional<Sha256> sha256,
                                      Optional<LinkTarget> linkTarget, Reason reason, String detail,
                                      Instant takenAt) {
    return new Snapshot(path, boundary, presence, metadata, sha256, Optional.empty(), linkTarget,
        Optional.of(reason), detail, takenAt);
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

  /** Type, size, mtime and mode, or {@code absent} / {@code unknown}. */
  public String fingerprint() {
    return switch (presence) {
      case ABSENT -> "absent";
      case UNKNOWN -> metadata.map(FileMetadata::fingerprint).orElse("unknown");
      case PRESENT -> metadata.orElseThrow().fingerprint();
    };
  }

  /**
   * Whether two snapshots show the same state of a path: same existence and type, and the same content
   * hash, link text and mode where they are known; metadata-only states compare by fingerprint.
   */
  public boolean sameStateAs(Snapshot other) {
    if (presence != other.presence || !type().equals(other.type())) {
      return false;
    }
    if (presence != Presence.PRESENT) {
      return presence == Presence.ABSENT || fingerprint().equals(other.fingerprint());
    }
    FileMetadata mine = metadata.orElseThrow();
    FileMetadata theirs = other.metadata.orElseThrow();
    if (mine.type() == FileType.SYMLINK) {
      return linkTarget.equals(other.linkTarget) && linkTarget.isPresent();
    }
    if (sha256.isPresent() && other.sha256.isPresent()) {
      return sha256.equals(other.sha256) && mine.mode() == theirs.mode();
    }
    return fingerprint().equals(other.fingerprint());
  }
}
