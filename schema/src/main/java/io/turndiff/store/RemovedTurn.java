package io.turndiff.store;

import java.time.Instant;

/** A turn a collection removed (or, in a dry run, would remove). */
public record RemovedTurn(
    String workspace, String session, String turn, long seq, String kind, Instant finishedAt) {}
