package io.turndiff.api.wire;

import io.turndiff.review.SessionListing;
import io.turndiff.review.TurnPage;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;

/**
 * A session with its turns, as {@code turndiff turns --workspace DIR} lists every session of a
 * workspace: the session, when it was created, when its newest turn began, and its first page of
 * turns.
 */
public record WireSessionTurns(
    String session,
    String createdAt,
    String lastTurnAt,
    List<WireTurnListing> turns,
    Long nextAfter) {

  public static WireSessionTurns of(SessionListing listing, TurnPage page) {
    WireTurnPage turns = WireTurnPage.of(page);
    return new WireSessionTurns(
        turns.session(),
        listing.session().createdAt().toString(),
        listing.lastTurnAt().map(Instant::toString).orElse(null),
        turns.turns(),
        turns.nextAfter());
  }

  /** Every session of a workspace, each with its turns as {@code turns} gives them. */
  public record Listing(String workspace, List<WireSessionTurns> sessions) {

    public static Listing of(
        Path workspace, List<SessionListing> sessions, Function<SessionListing, TurnPage> turns) {
      return new Listing(
          workspace.toString(),
          sessions.stream()
              .map(listing -> WireSessionTurns.of(listing, turns.apply(listing)))
              .toList());
    }
  }
}
