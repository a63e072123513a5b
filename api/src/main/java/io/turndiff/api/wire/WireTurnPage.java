package io.turndiff.api.wire;

import io.turndiff.review.TurnPage;
import java.util.List;

/**
 * One page of a session's turns, with the root of the session's workspace; {@code next_after} is
 * null on the last page.
 */
public record WireTurnPage(
    String session, String workspace, List<WireTurnListing> turns, Long nextAfter) {

  public static WireTurnPage of(TurnPage page) {
    return new WireTurnPage(
        page.session(),
        page.workspace(),
        page.turns().stream().map(WireTurnListing::of).toList(),
        page.nextAfter().orElse(null));
  }
}
