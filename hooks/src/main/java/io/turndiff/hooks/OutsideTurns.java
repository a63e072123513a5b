package io.turndiff.hooks;

import io.turndiff.model.TurnKind;
import io.turndiff.store.Store;
import io.turndiff.store.StoredTurn;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether a turn's begin recorded changes outside any turn, as the store has it: the capture
 * records them, when it finds any no open turn could have made, as a turn of kind {@code outside}
 * numbered just before the beginning turn in its session (migration V21). So the turn numbered just
 * before a turn that has just begun is an outside one exactly when that begin recorded it: any
 * earlier outside turn has the turn whose begin recorded it right after it.
 */
final class OutsideTurns {

  private OutsideTurns() {}

  /**
   * The real root of {@code turn}'s workspace when its begin recorded changes outside any turn;
   * empty when it recorded none.
   */
  static Optional<Path> workspaceOfOneBefore(Store store, String turn) {
    return store.readWithoutFolding(
        tx -> {
          Optional<StoredTurn> began = tx.turns().byExternalId(turn);
          if (began.isEmpty()) {
            return Optional.empty();
          }
          boolean outsideBefore =
              tx.turns()
                  .inSession(began.get().sessionId(), began.get().seq() - 1)
                  .filter(before -> before.kind() == TurnKind.OUTSIDE)
                  .isPresent();
          if (!outsideBefore) {
            return Optional.empty();
          }
          return tx.workspaces()
              .byId(began.get().workspaceId())
              .map(workspace -> Path.of(workspace.rootReal()));
        });
  }
}
