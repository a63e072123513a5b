package io.turndiff.api.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.turndiff.model.TurnEnding;
import io.turndiff.store.StoredTurn;
import java.time.Instant;

/**
 * A turn: who, where in its session, what kind, its state and when; {@code finished_at} null while
 * open. A turn the service finished because its runtime was gone (docs/runtime-hooks.md, "A turn
 * whose runtime is gone") also has {@code finished_by}: {@code service}, and {@code reason}: {@code
 * runtime gone} or {@code session ended} ({@link TurnEnding#reason()}); every other turn has
 * neither field, so that the shape of the usual turn stays as it was.
 */
public record WireTurn(
    String turn,
    String session,
    long seq,
    String kind,
    String state,
    String beganAt,
    String finishedAt,
    @JsonInclude(JsonInclude.Include.NON_NULL) String finishedBy,
    @JsonInclude(JsonInclude.Include.NON_NULL) String reason) {

  /** The {@code finished_by} of a turn the service finished. */
  public static final String BY_SERVICE = "service";

  public static WireTurn of(StoredTurn turn) {
    return new WireTurn(
        turn.externalId(),
        turn.sessionExternalId(),
        turn.seq(),
        turn.kind().code(),
        turn.state().code(),
        turn.beganAt().toString(),
        turn.finishedAt().map(Instant::toString).orElse(null),
        turn.ending().map(ending -> BY_SERVICE).orElse(null),
        turn.ending().map(TurnEnding::reason).orElse(null));
  }
}
