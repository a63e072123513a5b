package io.turndiff.capture.track;

import io.turndiff.boundary.Observation;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.IndexEntry;
import io.turndiff.model.Sha256;
import io.turndiff.model.WorkspacePath;
import java.util.Optional;
import java.util.Set;

/**
 * A path whose state differs from the index: what the index holds ({@code empty} when the path is
 * new) and what is there now, read through the boundary ({@code empty} when it is gone); {@code
 * ignoredByGit} when it is a file git ignores (the scan's verdict: {@link Scan#ignoredByGit}).
 */
public record PathChange(
    WorkspacePath path,
    ChangeKind kind,
    Optional<IndexEntry> indexed,
    Optional<Observation> now,
    boolean ignoredByGit) {

  /** The porcelain letter: {@code A}, {@code M}, {@code D} or {@code T}. */
  public char letter() {
    return switch (kind) {
      case ADDED -> 'A';
      case DELETED -> 'D';
      case TYPE_CHANGED -> 'T';
      default -> 'M';
    };
  }

  /**
   * Whether what the path holds now is one of {@code contents}: given the contents a scan
   * compressed ({@link Tracker.Comparison#contentsCompressed}), whether the change's after-state is
   * stored as the scan encoded it, and its before-state is then no delta's base (a file the scan
   * only fingerprinted as too large has no content the scan compressed).
   */
  public boolean holdsNowOneOf(Set<Sha256> contents) {
    return now.flatMap(observation -> observation.snapshot().storedContent())
        .filter(contents::contains)
        .isPresent();
  }
}
