package io.turndiff.rewind;

import io.turndiff.model.TurnKind;
import io.turndiff.model.TurnState;
import io.turndiff.store.StoreTransaction;
import io.turndiff.store.StoredRewindOperation;
import io.turndiff.store.StoredTurn;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * Whether a finished turn reads {@code rewound}: while a rewind of the whole turn that changed
 * something stands, that is while its rewind turn is not itself rewound (undone). So a turn whose
 * every rewind was undone reads {@code finished} again (its history still names the rewind and the
 * undo), a rewind that changed nothing marks nothing, and undoing the undo makes the turn rewound
 * once more. A rewind of some paths, or to before a tool call, never marks its turn
 * (docs/rewind-protocol.md, section 8).
 */
final class TurnStandings {

  private TurnStandings() {}

  /**
   * After {@code operation} finished (journaled done in {@code tx}): its turns, and down the chain
   * the turns of each rewind it undid, read as what now stands.
   */
  static void afterRewind(StoreTransaction tx, StoredRewindOperation operation) {
    if (operation.partial()) {
      return;
    }
    Deque<String> toSettle = new ArrayDeque<>(operation.turns());
    while (!toSettle.isEmpty()) {
      StoredTurn turn = tx.turns().require(toSettle.pop());
      TurnState standing = rewoundNow(tx, turn) ? TurnState.REWOUND : TurnState.FINISHED;
      if (turn.state() == standing || turn.state() == TurnState.OPEN) {
        continue;
      }
      tx.turns().markState(turn.id(), standing);
      if (turn.kind() == TurnKind.REWIND) {
        // a rewind turn rewound (an undo) or no longer rewound (the undo undone): what its rewind
        // rewound stands or falls with it
        tx.rewinds().recordedBy(List.of(turn.id())).values().stream()
            .filter(recorded -> recorded.done() && !recorded.partial())
            .forEach(recorded -> toSettle.addAll(recorded.turns()));
      }
    }
  }

  /** Whether a whole rewind of {@code turn} that changed something stands (is not undone). */
  private static boolean rewoundNow(StoreTransaction tx, StoredTurn turn) {
    return tx.rewinds().doneCovering(List.of(turn.id())).getOrDefault(turn.id(), List.of()).stream()
        .filter(rewind -> !rewind.partial() && changedAnything(tx, rewind))
        .anyMatch(
            rewind ->
                tx.turns()
                    .byId(rewind.rewindTurnId())
                    .map(rewindTurn -> rewindTurn.state() != TurnState.REWOUND)
                    .orElse(false));
  }

  /**
   * Whether {@code operation} put anything back: a path restored (written, or found holding its
   * before-state already) or merged, or a directory made, removed or given its mode back. One that
   * only skipped (conflicts, refusals) rewound nothing.
   */
  static boolean changedAnything(StoreTransaction tx, StoredRewindOperation operation) {
    return tx.rewinds().putAnythingBack(operation.id());
  }
}
