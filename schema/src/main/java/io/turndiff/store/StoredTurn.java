package io.turndiff.store;

import io.turndiff.model.TurnKind;
import io.turndiff.model.TurnState;
import java.time.Instant;
import java.util.Optional;

/** A turn row, with the external ids of its session and the workspace the session works in. */
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
    Optional<Instant> finishedAt) {}
