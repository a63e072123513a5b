package io.turndiff.model;

import java.time.Instant;
import java.util.Optional;

/**
 * What the index of a tracked workspace knows about one path: its stat (with the change time, which
 * no user can set), its link text or content hash, and whether its content is in the baseline.
 *
 * @param stat what proves the path unchanged without reading it ({@link
 *     StatProof#provesUnchangedSince})
 * @param storedContent the baseline blob, when the content itself was stored
 * @param reason why only metadata is indexed (a hardlink, a special file, too large, ...)
 */
public record IndexEntry(
    WorkspacePath path,
    StatProof stat,
    Optional<LinkTarget> linkTarget,
    Optional<Sha256> sha256,
    Optional<Sha256> storedContent,
    Optional<Reason> reason) {

  /**
   * @throws IllegalArgumentException when the content is stored under a hash other than the
   *     entry's: a stored content's key is the entry's hash, which the store keeps once (its V30)
   */
  public IndexEntry {
    if (storedContent.isPresent() && !storedContent.equals(sha256)) {
      throw new IllegalArgumentException(
          path + "'s content is stored as " + storedContent.get() + " but its hash is " + sha256);
    }
  }

  public FileType type() {
    return stat.type();
  }

  public FileMetadata metadata() {
    return stat.metadata();
  }

  /** The state this entry records, as a snapshot (the before-state of a change found by a scan). */
  public Snapshot toSnapshot(BoundaryKind boundary, Instant takenAt) {
    if (reason.isPresent()) {
      NotCaptured why = new NotCaptured(reason.get(), "indexed with metadata only");
      if (sha256.isEmpty() && linkTarget.isEmpty()) {
        return Snapshot.notCaptured(path, boundary, metadata(), why, takenAt);
      }
      Snapshot.MetadataOnly seen =
          Snapshot.MetadataOnly.of(path, boundary, metadata(), why, takenAt);
      Snapshot.MetadataOnly hashed = sha256.map(seen::withContentHash).orElse(seen);
      return linkTarget.map(hashed::withLinkTarget).orElse(hashed);
    }
    if (type() == FileType.SYMLINK) {
      return Snapshot.symlink(path, boundary, metadata(), linkTarget.orElseThrow(), takenAt);
    }
    return Snapshot.regularFile(path, boundary, metadata(), storedContent.orElseThrow(), takenAt);
  }
}
