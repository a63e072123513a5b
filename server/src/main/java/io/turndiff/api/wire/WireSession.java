package io.turndiff.api.wire;

import io.turndiff.review.SessionListing;

/** A session with how many turns it has. */
public record WireSession(String session, String createdAt, int turns) {

  public static WireSession of(SessionListing listing) {
    return new WireSession(
        listing.session().externalId(), listing.session().createdAt().toString(), listing.turns());
  }
}
