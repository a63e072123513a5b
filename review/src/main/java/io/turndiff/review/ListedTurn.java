package io.turndiff.review;

import io.turndiff.store.StoredTurn;
import io.turndiff.store.TurnListing;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A turn in a page of turns: its counts, how it stands to rewinds, the turns of other sessions that
 * were open in its workspace while it was (issue 27: "while session B was working"), and the {@link
 * PromptTitle} of the prompt that made it when the store kept the prompt.
 */
public record ListedTurn(
    TurnListing listing,
    TurnRewinds rewinds,
    List<StoredTurn> overlapping,
    Optional<String> title) {

  public ListedTurn {
    Objects.requireNonNull(listing, "listing");
    Objects.requireNonNull(rewinds, "rewinds");
    Objects.requireNonNull(title, "title");
    overlapping = List.copyOf(overlapping);
  }
}
