package io.turndiff.api.wire;

import io.turndiff.store.StoredTurn;
import java.time.Instant;

/**
 * A turn: who, where in its session, what kind, its state and when; {@code finished_at} null while
 * open.
 */
public record WireTurn(
    String turn,
    String session,
    long seq,
    String kind,
    String state,
    String beganAt,
    String finishedAt) {

  public static WireTurn of(StoredTurn turn) {
    return new WireTurn(
        turn.externalId(),
        turn.sessionExternalId(),
        turn.seq(),
        turn.kind().code(),
        turn.state().code(),
        turn.beganAt().toString(),
        turn.finishedAt().map(Instant::toString).orElse(null));
  }
}
