package io.turndiff.api.wire;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.turndiff.review.ListedTurn;
import io.turndiff.store.TurnListing;
import java.util.List;

/**
 * A turn in a list of turns: the turn with its counts ({@code not_restorable} and {@code
 * detected_by_scan} as in its finish summary, counted from the records so far while it is open),
 * how it stands to rewinds, and {@code overlapping}: the turns of other sessions that were working
 * in the workspace while it was open (the panel's "while session B was working").
 */
public record WireTurnListing(
    @JsonUnwrapped WireTurn turn,
    int files,
    int changed,
    long linesAdded,
    long linesRemoved,
    int notRestorable,
    int detectedByScan,
    @JsonUnwrapped WireTurnRewinds rewinds,
    List<WireTurnRef> overlapping) {

  public static WireTurnListing of(ListedTurn listed) {
    TurnListing listing = listed.listing();
    return new WireTurnListing(
        WireTurn.of(listing.turn()),
        listing.files(),
        listing.changed(),
        listing.linesAdded(),
        listing.linesRemoved(),
        listing.notRestorable(),
        listing.detectedByScan(),
        WireTurnRewinds.of(listed.rewinds()),
        WireTurnRef.ofTurns(listed.overlapping()));
  }
}
