package io.turndiff.review;

import io.turndiff.store.StoredTurn;
import io.turndiff.store.TurnListing;
import java.util.List;
import java.util.Objects;

/**
 * A turn in a page of turns: its counts, how it stands to rewinds, and the turns of other sessions
 * that were open in its workspace while it was (issue 27: "while session B was working").
 */
public record ListedTurn(TurnListing listing, TurnRewinds rewinds, List<StoredTurn> overlapping) {

  public ListedTurn {
    Objects.requireNonNull(listing, "listing");
    Objects.requireNonNull(rewinds, "rewinds");
    overlapping = List.copyOf(overlapping);
  }
}
