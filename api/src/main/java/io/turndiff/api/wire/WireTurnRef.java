package io.turndiff.api.wire;

import io.turndiff.store.SharedChanges;
import io.turndiff.store.StoredTurn;
import java.util.List;

/**
 * Another turn named beside a turn or a change (issue 27: two agents in one workspace): a turn of
 * another session that was working at the same time, or another turn that could also have made a
 * change.
 */
public record WireTurnRef(String turn, String session) {

  public static WireTurnRef of(StoredTurn turn) {
    return new WireTurnRef(turn.externalId(), turn.sessionExternalId());
  }

  public static WireTurnRef of(SharedChanges.SharedTurn turn) {
    return new WireTurnRef(turn.turn(), turn.session());
  }

  public static List<WireTurnRef> ofTurns(List<StoredTurn> turns) {
    return turns.stream().map(WireTurnRef::of).toList();
  }

  public static List<WireTurnRef> ofShared(List<SharedChanges.SharedTurn> turns) {
    return turns.stream().map(WireTurnRef::of).toList();
  }
}
