package io.turndiff.review;

import io.turndiff.store.TurnListing;
import java.util.Objects;

/** A turn in a page of turns: its counts, and how it stands to rewinds. */
public record ListedTurn(TurnListing listing, TurnRewinds rewinds) {

  public ListedTurn {
    Objects.requireNonNull(listing, "listing");
    Objects.requireNonNull(rewinds, "rewinds");
  }
}
