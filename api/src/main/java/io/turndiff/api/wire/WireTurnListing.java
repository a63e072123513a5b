package io.turndiff.api.wire;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.turndiff.review.ListedTurn;
import io.turndiff.store.TurnListing;
import java.util.List;

/**
 * A turn in a list of turns: the turn with its counts ({@code not_restorable} and {@code
 * detected_by_scan} as in its finish summary, counted from the records so far while it is open),
 * how it stands to rewinds, {@code overlapping}: the turns of other sessions that were working in
 * the workspace while it was open (the panel's "while session B was working"), and {@code title}:
 * the first line of the prompt that made it, null when the store kept none.
 */
public record WireTurnListing(
    @JsonUnwrapped WireTurn turn,
    String title,
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
        listed.title().orElse(null),
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
