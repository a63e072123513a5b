package io.turndiff.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.api.Turndiff;
import io.turndiff.boundary.GitTopLevel;
import io.turndiff.model.ExternalIds;
import io.turndiff.model.RequestException;
import io.turndiff.model.TurnKind;
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
 *       (git's {@code HEAD~N}), neither counting the turns outside any turn (the user's own edits
 *       between turns, which {@code #N} does number);
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
 *
 * <p>A beginning of an id is at least {@link #MIN_PREFIX} characters, as git asks of an abbreviated
 * commit: shorter, it names a turn only by the luck of a small store. A command that writes ({@link
 * #toRewind}) matches it only among the turns of its scope, {@code --session}'s or the workspace's,
 * never the whole store's: so a pasted id from another project, or one that retention deleted, is
 * "does not exist" rather than some other turn that happens to begin with it. Where the workspace
 * was found above the current directory, and is not its git repository's root, {@link
 * #countedAbove} says so: a command that writes without asking refuses it unless it is named.
 */
final class TurnReference {

  /** Sessions whose newest turns are this close together are all "recent". */
  static final Duration RECENT = Duration.ofHours(1);

  /** How many candidates an ambiguous reference lists. */
  private static final int LISTED = 10;

  static final String ELLIPSIS = "…";

  /** The shortest beginning of an id that names a turn (git's shortest abbreviation). */
  static final int MIN_PREFIX = 4;

  private static final Pattern LAST = Pattern.compile("last(?:~(\\d{1,9}))?");
  private static final Pattern NUMBER = Pattern.compile("#?(\\d{1,18})");

  private final Turndiff turndiff;
  private final Path workspace;
  private final boolean orAbove;
  private final Optional<String> session;

  /** The workspace root {@code last}, {@code #N} or a beginning was counted in, once it was. */
  private Optional<Path> countedIn = Optional.empty();

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

  /** The turn {@code given} names, for a command that only reads. */
  StoredTurn turn(String given) {
    return turn(given, false);
  }

  /**
   * The turn {@code given} names, for a command that writes: a beginning of an id is matched only
   * in the scope ({@code --session}, else the workspace), never in the whole store.
   */
  StoredTurn toRewind(String given) {
    return turn(given, true);
  }

  private StoredTurn turn(String given, boolean writes) {
    if (ExternalIds.isValid(given)) {
      Optional<StoredTurn> exact = turndiff.store().read(tx -> tx.turns().byExternalId(given));
      if (exact.isPresent()) {
        return exact.get();
      }
    }
    Matcher last = LAST.matcher(given);
    if (last.matches()) {
      int back = last.group(1) == null ? 0 : Integer.parseInt(last.group(1));
      // the user's own edits (outside turns) are not counted: last~1 is the turn before the last
      // one an agent or a rewind made, as a person who did not see their edit recorded expects
      List<StoredTurn> turns =
          turnsOf(session()).stream().filter(turn -> turn.kind() != TurnKind.OUTSIDE).toList();
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
    return byPrefix(given, writes);
  }

  /** The one turn whose id begins with {@code given} (less a trailing {@link #ELLIPSIS}). */
  private StoredTurn byPrefix(String given, boolean writes) {
    String prefix =
        given.endsWith(ELLIPSIS) ? given.substring(0, given.length() - ELLIPSIS.length()) : given;
    if (!ExternalIds.isValid(prefix)) {
      throw new RequestException(
          RequestException.Problem.BAD_INPUT,
          "'"
              + Terminal.printable(given)
              + "' names no turn: give an id or its beginning, last, last~N or #N");
    }
    if (prefix.length() < MIN_PREFIX) {
      throw new RequestException(
          RequestException.Problem.BAD_INPUT,
          "'"
              + Terminal.printable(given)
              + "' is too short to name a turn: give at least "
              + MIN_PREFIX
              + " characters of its id, or last, last~N or #N");
    }
    List<StoredTurn> found =
        writes
            ? inScopeWithIdPrefix(prefix)
            : turndiff.store().read(tx -> tx.turns().withIdPrefix(prefix, LISTED + 1));
    if (found.isEmpty()) {
      throw new RequestException(
          RequestException.Problem.UNKNOWN_TURN,
          "turn '"
              + Terminal.printable(given)
              + "' does not exist"
              + (writes ? " in " + scopeName() : ""));
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
   * The turns of the scope whose id begins with {@code prefix}, at most {@link #LISTED} and one: of
   * {@code --session}, else of every session of the workspace.
   */
  private List<StoredTurn> inScopeWithIdPrefix(String prefix) {
    List<StoredSession> sessions = sessionsInScope();
    return turndiff
        .store()
        .read(
            tx ->
                sessions.stream()
                    .flatMap(each -> tx.turns().ofSession(each.id()).stream())
                    .filter(turn -> turn.externalId().startsWith(prefix))
                    .limit(LISTED + 1)
                    .toList());
  }

  /** {@code --session}'s session, else every session of the workspace with turns; maybe none. */
  private List<StoredSession> sessionsInScope() {
    if (session.isPresent()) {
      return List.of(named(session.get()));
    }
    try {
      return withTurns().stream().map(SessionListing::session).toList();
    } catch (RequestException e) {
      if (e.problem() != RequestException.Problem.WORKSPACE) {
        throw e;
      }
      // no workspace here has turns: a beginning names nothing in the scope, as an unknown id
      return List.of();
    }
  }

  /** What a scoped match was made in, for the error that finds nothing there. */
  private String scopeName() {
    return session
        .map(id -> "session '" + id + "'")
        .orElseGet(() -> "workspace " + Terminal.printable(countedIn.orElse(workspace).toString()));
  }

  /**
   * The session {@code last} and {@code #N} count in: {@code --session}, else the workspace's one
   * session with recent turns.
   */
  StoredSession session() {
    if (session.isPresent()) {
      return named(session.get());
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
              + Terminal.printable(countedIn.orElse(workspace).toString())
              + ": "
              + named
              + "; name one with --session");
    }
    return recent.getFirst().session();
  }

  private StoredSession named(String given) {
    String id = ExternalIds.requireValid("session", given);
    return turndiff
        .store()
        .read(tx -> tx.sessions().byExternalId(id))
        .orElseThrow(
            () ->
                new RequestException(
                    RequestException.Problem.UNKNOWN_SESSION,
                    "session '" + id + "' does not exist"));
  }

  /**
   * The root of the workspace a reference was counted in ({@code last}, {@code #N}, or a beginning
   * matched in a workspace); empty when none was ({@code --session}, or a whole id).
   */
  Optional<Path> countedIn() {
    return countedIn;
  }

  /**
   * Whether the workspace a reference was counted in is neither the current directory nor its git
   * repository's root, but a directory further above (an agent once ran in {@code $HOME}, and the
   * person is in a new project without turns): a write there is not what the person may expect. A
   * workspace named with {@code --workspace} is never "above".
   */
  boolean countedAbove() {
    if (!orAbove || countedIn.isEmpty()) {
      return false;
    }
    Path start = workspace.toAbsolutePath().normalize();
    Path root = countedIn.get();
    return !root.equals(start) && !gitRoot(start).map(root::equals).orElse(false);
  }

  /**
   * Refuses (exit 2) when the reference was counted in a workspace {@link #countedAbove} the
   * current directory: {@code command}, which writes without asking, acts there only when the
   * person names it.
   */
  void requireNamedWhenAbove(String command) {
    if (countedAbove()) {
      String root = Terminal.printable(countedIn.orElseThrow().toString());
      throw new CliException(
          ExitCode.USAGE,
          "the turns are in "
              + root
              + ", the nearest directory above this one with turns, not this directory or its git "
              + "repository: give --workspace "
              + root
              + " to "
              + command
              + " there");
    }
  }

  /**
   * The nearest directory at or above {@code start} that holds a {@code .git}, as git finds it (the
   * boundary's {@link GitTopLevel}: by name, no link followed).
   */
  private static Optional<Path> gitRoot(Path start) {
    return GitTopLevel.of(start.toAbsolutePath());
  }

  /**
   * The workspace's sessions whose newest turn began within {@link #RECENT} of the newest of all,
   * newest first; never empty (a workspace without turns is an error naming it).
   */
  private List<SessionListing> recentSessions() {
    List<SessionListing> withTurns = withTurns();
    Instant newest = withTurns.getFirst().lastTurnAt().orElseThrow();
    return withTurns.stream()
        .filter(listing -> !listing.lastTurnAt().orElseThrow().isBefore(newest.minus(RECENT)))
        .toList();
  }

  /**
   * The sessions with turns of the workspace ({@code --workspace}, else the current directory or
   * the nearest directory above it with turns), newest first; never empty. Where they were found is
   * kept ({@link #countedIn}).
   */
  private List<SessionListing> withTurns() {
    List<SessionListing> withTurns = new ArrayList<>();
    Path at = workspace.toAbsolutePath().normalize();
    for (; at != null; at = orAbove ? at.getParent() : null) {
      for (SessionListing listing : sessionsAt(at)) {
        if (listing.lastTurnAt().isPresent()) {
          withTurns.add(listing);
        }
      }
      if (!withTurns.isEmpty()) {
        break;
      }
    }
    if (withTurns.isEmpty()) {
      throw new RequestException(
          RequestException.Problem.WORKSPACE,
          "workspace "
              + Terminal.printable(workspace.toString())
              + (orAbove ? " (nor a directory above it)" : "")
              + " has no recorded turns");
    }
    countedIn = Optional.of(at);
    withTurns.sort(
        Comparator.comparing((SessionListing listing) -> listing.lastTurnAt().orElseThrow())
            .reversed());
    return withTurns;
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

  /** The root of {@code turn}'s workspace, as the store keeps it. */
  String workspaceOf(StoredTurn turn) {
    return turndiff
        .store()
        .read(tx -> tx.workspaces().byId(turn.workspaceId()).orElseThrow().rootReal());
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
