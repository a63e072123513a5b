package io.turndiff.review;

import io.turndiff.store.StoredSession;
import java.time.Instant;
import java.util.Optional;

/**
 * A session with how many turns it has, and when its newest turn began (empty before its first).
 */
public record SessionListing(StoredSession session, int turns, Optional<Instant> lastTurnAt) {}
