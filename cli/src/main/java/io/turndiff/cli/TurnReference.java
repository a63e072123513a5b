package io.turndiff.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.api.Turndiff;
import io.turndiff.model.ExternalIds;
import io.turndiff.model.RequestException;
import io.turndiff.review.SessionListing;
import io.turndiff.store.StoredSession;
import io.turndiff.store.StoredTurn;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A turn as a person names it, resolved to its id. In this order:
 *
 * <ol>
 *   <li>the turn's whole id (so an id that reads {@code last} or {@code 3} is still that turn);
 *   <li>{@code last}, the newest turn of the session, and {@code last~N}, the one N turns before it
 *       (git's {@code HEAD~N});
 *   <li>{@code #N} or {@code N}, the session's turn number N, as the panel and {@code turndiff
 *       turns} number them;
 *   <li>the beginning of an id, with or without the {@code …} the panel and the turn table end a
 *       shortened id with ({@code turn-3f2a9c0d…}): when it begins more than one id the reference
 *       is ambiguous (exit 2) and the error lists them.
 * </ol>
 *
 * <p>The session of {@code last} and {@code #N} is {@code --session}, else the workspace's ({@code
 * --workspace}, else the current directory or the nearest directory above it with turns) one
 * session with recent turns: when more than one session had a turn within {@link #RECENT} of the
 * newest (two runtimes at work in one workspace), turndiff does not guess which one the person
 * means, and the error names them.
 */
final class TurnReference {

  /** Sessions whose newest turns are this close together are all "recent". */
  static final Duration RECENT = Duration.ofHours(1);

  /** How many candidates an ambiguous reference lists. */
  private static final int LISTED = 10;

  static final String ELLIPSIS = "…";

  private static final Pattern LAST = Pattern.compile("last(?:~(\\d{1,9}))?");
  private static final Pattern NUMBER = Pattern.compile("#?(\\d{1,18})");

  private final Turndiff turndiff;
  private final Path workspace;
  private final boolean orAbove;
  private final Optional<String> session;

  /**
   * @param workspace where {@code last} and {@code #N} count
   * @param orAbove whether the nearest directory above {@code workspace} that has turns counts when
   *     it has none (the current directory, as git finds its repository from a subdirectory)
   */
  TurnReference(Turndiff turndiff, Path workspace, boolean orAbove, Optional<String> session) {
    this.turndiff = turndiff;
    this.workspace = workspace;
    this.orAbove = orAbove;
    this.session = session;
  }

  /** The id of the turn {@code given} names. */
  String resolve(String given) {
    return turn(given).externalId();
  }

  /** The turn {@code given} names. */
  StoredTurn turn(String given) {
    if (ExternalIds.isValid(given)) {
      Optional<StoredTurn> exact = turndiff.store().read(tx -> tx.turns().byExternalId(given));
      if (exact.isPresent()) {
        return exact.get();
      }
    }
    Matcher last = LAST.matcher(given);
    if (last.matches()) {
      int back = last.group(1) == null ? 0 : Integer.parseInt(last.group(1));
      List<StoredTurn> turns = turnsOf(session());
      if (back >= turns.size()) {
        throw new RequestException(
            RequestException.Problem.UNKNOWN_TURN,
            "'"
                + given
                + "' names no turn: session '"
                + turns.getFirst().sessionExternalId()
                + "' has "
                + RelativeTime.count(turns.size(), "turn"));
      }
      return turns.get(turns.size() - 1 - back);
    }
    Matcher number = NUMBER.matcher(given);
    if (number.matches()) {
      long seq = Long.parseLong(number.group(1));
      StoredSession chosen = session();
      return turnsOf(chosen).stream()
          .filter(turn -> turn.seq() == seq)
          .findFirst()
          .orElseThrow(
              () ->
                  new RequestException(
                      RequestException.Problem.UNKNOWN_TURN,
                      "session '" + chosen.externalId() + "' has no turn #" + seq));
    }
    return byPrefix(given);
  }

  /** The one turn whose id begins with {@code given} (less a trailing {@link #ELLIPSIS}). */
  private StoredTurn byPrefix(String given) {
    String prefix =
        given.endsWith(ELLIPSIS) ? given.substring(0, given.length() - ELLIPSIS.length()) : given;
    if (!ExternalIds.isValid(prefix)) {
      throw new RequestException(
          RequestException.Problem.BAD_INPUT,
          "'"
              + Terminal.printable(given)
              + "' names no turn: give an id or its beginning, last, last~N or #N");
    }
    List<StoredTurn> found =
        turndiff.store().read(tx -> tx.turns().withIdPrefix(prefix, LISTED + 1));
    if (found.isEmpty()) {
      throw new RequestException(
          RequestException.Problem.UNKNOWN_TURN, "turn '" + given + "' does not exist");
    }
    if (found.size() > 1) {
      Instant now = turndiff.store().clock().instant();
      String listed =
          found.stream()
              .limit(LISTED)
              .map(
                  turn ->
                      turn.externalId()
                          + " ("
                          + turn.sessionExternalId()
                          + " #"
                          + turn.seq()
                          + ", "
                          + RelativeTime.of(turn.beganAt(), now)
                          + ")")
              .collect(Collectors.joining(", "));
      throw new CliException(
          ExitCode.USAGE,
          "turn '"
              + given
              + "' is ambiguous: it begins the ids of "
              + (found.size() > LISTED ? "more than " + LISTED + " turns" : found.size() + " turns")
              + ": "
              + listed
              + (found.size() > LISTED ? ", …" : "")
              + "; give more of the id");
    }
    return found.getFirst();
  }

  /**
   * The session {@code last} and {@code #N} count in: {@code --session}, else the workspace's one
   * session with recent turns.
   */
  StoredSession session() {
    if (session.isPresent()) {
      String id = ExternalIds.requireValid("session", session.get());
      return turndiff
          .store()
          .read(tx -> tx.sessions().byExternalId(id))
          .orElseThrow(
              () ->
                  new RequestException(
                      RequestException.Problem.UNKNOWN_SESSION,
                      "session '" + id + "' does not exist"));
    }
    List<SessionListing> recent = recentSessions();
    if (recent.size() > 1) {
      Instant now = turndiff.store().clock().instant();
      String named =
          recent.stream()
              .map(
                  listing ->
                      listing.session().externalId()
                          + " (its last turn "
                          + RelativeTime.of(listing.lastTurnAt().orElseThrow(), now)
                          + ")")
              .collect(Collectors.joining(", "));
      throw new CliException(
          ExitCode.USAGE,
          recent.size()
              + " sessions have recent turns in "
              + workspace
              + ": "
              + named
              + "; name one with --session");
    }
    return recent.getFirst().session();
  }

  /**
   * The workspace's sessions whose newest turn began within {@link #RECENT} of the newest of all,
   * newest first; never empty (a workspace without turns is an error naming it).
   */
  private List<SessionListing> recentSessions() {
    List<SessionListing> withTurns = new ArrayList<>();
    for (Path at = workspace.toAbsolutePath().normalize();
        at != null && withTurns.isEmpty();
        at = orAbove ? at.getParent() : null) {
      for (SessionListing listing : sessionsAt(at)) {
        if (listing.lastTurnAt().isPresent()) {
          withTurns.add(listing);
        }
      }
    }
    if (withTurns.isEmpty()) {
      throw new RequestException(
          RequestException.Problem.WORKSPACE,
          "workspace "
              + workspace
              + (orAbove ? " (nor a directory above it)" : "")
              + " has no recorded turns");
    }
    withTurns.sort(
        Comparator.comparing((SessionListing listing) -> listing.lastTurnAt().orElseThrow())
            .reversed());
    Instant newest = withTurns.getFirst().lastTurnAt().orElseThrow();
    return withTurns.stream()
        .filter(listing -> !listing.lastTurnAt().orElseThrow().isBefore(newest.minus(RECENT)))
        .toList();
  }

  /** The sessions of the workspace at {@code root}; none when no turn was recorded there. */
  private List<SessionListing> sessionsAt(Path root) {
    try {
      return turndiff.queries().sessions(root);
    } catch (RequestException e) {
      if (e.problem() == RequestException.Problem.WORKSPACE) {
        return List.of();
      }
      throw e;
    }
  }

  /** The session's turns in order; never empty. */
  List<StoredTurn> turnsOf(StoredSession chosen) {
    List<StoredTurn> turns = turndiff.store().read(tx -> tx.turns().ofSession(chosen.id()));
    if (turns.isEmpty()) {
      throw new RequestException(
          RequestException.Problem.UNKNOWN_TURN,
          "session '" + chosen.externalId() + "' has no turns");
    }
    return turns;
  }
}
