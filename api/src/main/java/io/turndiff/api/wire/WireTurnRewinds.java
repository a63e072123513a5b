package io.turndiff.api.wire;

import io.turndiff.model.WorkspacePath;
import io.turndiff.review.RewoundBy;
import io.turndiff.review.TurnRewinds;
import io.turndiff.store.StoredRewindOperation;
import java.util.List;

/**
 * How a turn stands to rewinds, unwrapped into the turn: {@code rewound_by}, every finished rewind
 * operation that rewound it (or some of its paths, then listed in {@code paths}), oldest first; and
 * {@code rewinds}, for a turn of kind {@code rewind}, the operation it records (null for an agent
 * turn). A rewind turn that was undone lists the undo in its {@code rewound_by}.
 */
public record WireTurnRewinds(List<RewoundByOperation> rewoundBy, RewindOperation rewinds) {

  /**
   * A finished operation that rewound the turn; {@code complete}: it skipped no path and no
   * directory; {@code undoneBy}: the rewind turn of the rewind that undid it (null while it
   * stands).
   */
  public record RewoundByOperation(
      String operation, String rewindTurn, List<String> paths, boolean complete, String undoneBy) {}

  /** The operation a rewind turn records: the turns it rewound, newest first. */
  public record RewindOperation(String operation, List<String> turns, List<String> paths) {}

  public static WireTurnRewinds of(TurnRewinds rewinds) {
    return new WireTurnRewinds(
        rewinds.rewoundBy().stream().map(WireTurnRewinds::rewoundBy).toList(),
        rewinds
            .rewinds()
            .map(
                operation ->
                    new RewindOperation(
                        operation.externalId(), operation.turns(), paths(operation)))
            .orElse(null));
  }

  private static RewoundByOperation rewoundBy(RewoundBy by) {
    StoredRewindOperation operation = by.operation();
    return new RewoundByOperation(
        operation.externalId(),
        operation.rewindTurn(),
        paths(operation),
        by.complete(),
        by.undoneBy().orElse(null));
  }

  /** The paths a rewind of some paths was asked for; null for a rewind of whole turns. */
  private static List<String> paths(StoredRewindOperation operation) {
    return operation.pathScoped()
        ? operation.paths().stream().map(WorkspacePath::display).toList()
        : null;
  }
}
