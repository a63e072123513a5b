package io.turndiff.store;

import io.turndiff.model.RuntimeProcess;
import io.turndiff.model.TurnEnding;
import io.turndiff.model.TurnKind;
import io.turndiff.model.TurnState;
import java.time.Instant;
import java.util.Optional;

/**
 * A turn row, with the external ids of its session and the workspace the session works in; {@code
 * runtime}: the process that sent its hook calls, when one named it; {@code ending}: why the
 * service finished it, when not by its own end.
 */
public record StoredTurn(
    long id,
    String externalId,
    long sessionId,
    String sessionExternalId,
    long workspaceId,
    long seq,
    TurnKind kind,
    TurnState state,
    Instant beganAt,
    Optional<Instant> finishedAt,
    Optional<RuntimeProcess> runtime,
    Optional<TurnEnding> ending) {}
