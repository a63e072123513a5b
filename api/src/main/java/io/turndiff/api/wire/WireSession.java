package io.turndiff.api.wire;

import io.turndiff.review.SessionListing;
import java.time.Instant;

/**
 * A session with how many turns it has, and when its newest turn began ({@code last_turn_at}, null
 * before its first).
 */
public record WireSession(String session, String createdAt, int turns, String lastTurnAt) {

  public static WireSession of(SessionListing listing) {
    return new WireSession(
        listing.session().externalId(),
        listing.session().createdAt().toString(),
        listing.turns(),
        listing.lastTurnAt().map(Instant::toString).orElse(null));
  }
}
