package io.turndiff.api.wire;

import io.turndiff.store.StoredTurn;
import io.turndiff.store.StoredWorkspace;

/** A turn in flight, as {@code GET /v1/service/status} lists it. */
public record WireOpenTurn(String session, String turn, String workspace, String beganAt) {

  public static WireOpenTurn of(StoredTurn turn, StoredWorkspace workspace) {
    return new WireOpenTurn(
        turn.sessionExternalId(),
        turn.externalId(),
        workspace.rootGiven(),
        turn.beganAt().toString());
  }
}
