package io.turndiff.api.wire;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.turndiff.store.TurnListing;

/** A turn in a list of turns: the turn with its counts. */
public record WireTurnListing(
    @JsonUnwrapped WireTurn turn, int files, int changed, long linesAdded, long linesRemoved) {

  public static WireTurnListing of(TurnListing listing) {
    return new WireTurnListing(
        WireTurn.of(listing.turn()),
        listing.files(),
        listing.changed(),
        listing.linesAdded(),
        listing.linesRemoved());
  }
}
