package io.turndiff.store;

import java.util.List;

/**
 * A rewind operation as stored.
 *
 * @param scope {@code "turn"} (one turn) or {@code "to"} (the turn and every later one in its
 *     session)
 * @param done whether its receipt is final; an operation left applying was interrupted
 * @param turns the external ids of the turns it rewinds, newest first
 */
public record StoredRewindOperation(
    long id,
    String externalId,
    long sessionId,
    String targetTurn,
    String scope,
    boolean force,
    boolean done,
    long rewindTurnId,
    String rewindTurn,
    List<String> turns) {}
