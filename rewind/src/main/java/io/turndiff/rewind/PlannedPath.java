package io.turndiff.rewind;

import io.turndiff.model.RewindStatus;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import java.util.Optional;

/**
 * One path's place in a plan: the before-state to put back ({@code target}, the oldest the turns
 * recorded), the after-state they left ({@code expected}, the newest), with the snapshot rows they
 * are stored under, and the chain rule's verdict ({@code PLANNED}, {@code UNCHANGED}, or {@code
 * SKIPPED} with a reason).
 */
record PlannedPath(
    WorkspacePath path,
    long targetRow,
    Snapshot target,
    Optional<Long> expectedRow,
    Optional<Snapshot> expected,
    RewindStatus status,
    Optional<String> reason,
    Optional<String> detail) {

  PlannedPath {
    if ((status == RewindStatus.SKIPPED) != reason.isPresent()) {
      throw new IllegalArgumentException(
          "a path is skipped exactly when it has a reason: " + status + " " + reason);
    }
  }

  /** This path, its states as planned, left with {@code reason} and {@code detail}. */
  PlannedPath left(String reason, String detail) {
    return new PlannedPath(
        path,
        targetRow,
        target,
        expectedRow,
        expected,
        RewindStatus.SKIPPED,
        Optional.of(reason),
        Optional.of(detail));
  }
}
