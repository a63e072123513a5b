package io.turndiff.hooks;

import io.turndiff.api.wire.WireHookSighting;
import io.turndiff.api.wire.WireTurn;
import io.turndiff.model.RuntimeProcess;
import io.turndiff.model.TurnEnding;
import io.turndiff.store.StorableText;
import io.turndiff.store.Store;
import io.turndiff.store.StoredHookSighting;
import io.turndiff.store.StoredTurn;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the hook calls the service actually received show, not what was configured (issue 21, item
 * 0): per runtime and directory, the last call (when, which event), and whether the hooks of the
 * last prompt all arrived — its begin, its tool calls, its end. What is missing is the evidence
 * that a runtime's hooks are not all firing, kept as a warning with the time it was first seen
 * ({@code hooks may not be firing for claude-code since …}) until a prompt arrives whole:
 *
 * <ul>
 *   <li>a prompt that begins while the session's last one has not ended: its end never arrived;
 *   <li>a tool call of a prompt that never began (a runtime turn not seen, or after the session's
 *       last end when the runtime gives no turn ids);
 *   <li>a prompt that ended having changed files with no tool call hook of it arriving.
 * </ul>
 *
 * <p>A fourth is evidence from outside the hooks: changes a turn's begin found that no turn made
 * ("outside any turn") in a workspace where another runtime process that sent hooks from there
 * still runs ({@link #outsideChanges}): a runtime at work whose hooks stopped arriving looks so (so
 * does a user's edit while that runtime sits idle, which is why it is a warning that says what was
 * seen, not a verdict).
 *
 * <p>The directory is the one the runtime reported when the session's prompt began (its {@code
 * cwd}). Held in memory for the last {@value #KEPT} directories and sessions, and kept in the store
 * ({@code hook_sighting}, {@link #persistChanged}) so that a restarted service still shows them;
 * written every few seconds by the service, never a commit per hook call. With each, the runtime's
 * version and process as the hook script last reported them.
 *
 * <p>What became of the last prompt's turn is the store's, asked when the sightings are shown, not
 * kept here: the service may finish it long after its last call came, because its runtime was gone
 * or its session ended before its Stop ({@link TurnEnding}), and then the end hook of that prompt
 * never arrived: shown as such, since a runtime whose end hook never fires looks exactly so.
 */
public final class HookSightings {

  static final int KEPT = 256;

  /** How the warning changes outside any turn raise begins. */
  private static final String OUTSIDE_CHANGES = "changes outside any turn";

  /** One runtime in one directory: the last call, the last prompt, the standing warning. */
  private static final class Seen {
    Instant lastAt;
    String lastEvent;
    String session;
    Instant promptAt;
    boolean begun;
    long toolCalls;
    boolean ended;
    Optional<String> runtimeTurn = Optional.empty();
    String promptTurn;
    Instant warnedSince;
    String warning;
    String runtimeVersion;
    RuntimeProcess process;
    boolean changed;
  }

  private final Map<String, Seen> byPlace = bounded();
  private final Map<String, String> placeOfSession = bounded();
  private final Store store;

  /**
   * The sightings {@code store} kept, as the last service left them; the turns' endings are read
   * from it when the sightings are shown.
   */
  HookSightings(Store store) {
    this.store = store;
    List<StoredHookSighting> kept = store.readWithoutFolding(tx -> tx.hookSightings().latest(KEPT));
    for (StoredHookSighting row : kept.reversed()) {
      restore(row);
    }
  }

  private void restore(StoredHookSighting row) {
    Seen seen = new Seen();
    seen.lastAt = row.lastAt();
    seen.lastEvent = row.lastEvent();
    // as a call's are held (sessionOf): a SQLite row written before the ids were kept storable
    // may hold a NUL
    seen.session = StorableText.of(row.session());
    seen.promptAt = row.promptAt().orElse(null);
    seen.begun = row.promptBegun();
    seen.toolCalls = row.promptToolCalls();
    seen.ended = row.promptEnded();
    seen.runtimeTurn = row.promptRuntimeTurn().map(StorableText::of);
    seen.promptTurn = row.promptTurn().orElse(null);
    seen.warnedSince = row.warnedSince().orElse(null);
    seen.warning = row.warning().orElse(null);
    seen.runtimeVersion = row.runtimeVersion().orElse(null);
    seen.process = row.process().orElse(null);
    byPlace.put(row.runtime() + "\n" + row.directory(), seen);
    placeOfSession.put(row.runtime() + "\n" + seen.session, row.directory());
  }

  private static <V> Map<String, V> bounded() {
    return new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
        return size() > KEPT;
      }
    };
  }

  /**
   * Notes {@code call}, received at {@code received} with {@code query}, and what it did; {@code
   * changedFiles} is how many files the turn it finished recorded (0 for every other call).
   */
  synchronized void saw(
      HookCall call, HookQuery query, HookOutcome outcome, Instant received, long changedFiles) {
    Instant at = asKept(received);
    if (call.action() == HookCall.Action.IGNORE || outcome.outcomes().contains("duplicate")) {
      return;
    }
    String session = sessionOf(call);
    Optional<String> runtimeTurn = runtimeTurnOf(call);
    String sessionKey = call.runtime() + "\n" + session;
    String directory =
        call.action() == HookCall.Action.BEGIN || !placeOfSession.containsKey(sessionKey)
            ? call.cwd().orElse("(not reported)")
            : placeOfSession.get(sessionKey);
    placeOfSession.put(sessionKey, directory);
    Seen seen = byPlace.computeIfAbsent(call.runtime() + "\n" + directory, place -> new Seen());
    boolean sameSession = session.equals(seen.session);
    seen.lastAt = at;
    seen.lastEvent = call.event();
    seen.changed = true;
    query.runtimeVersion().ifPresent(version -> seen.runtimeVersion = version);
    query.runtime().ifPresent(process -> seen.process = process);
    switch (call.action()) {
      case BEGIN -> {
        if (sameSession && seen.begun && !seen.ended) {
          warn(seen, at, "the end of a prompt (" + endEvent(call.runtime()) + ") never arrived");
        }
        newPrompt(seen, session, runtimeTurn, at, true);
      }
      case SNAPSHOT, ENSURE -> {
        boolean continuing =
            sameSession
                && (runtimeTurn.isEmpty() ? !seen.ended : runtimeTurn.equals(seen.runtimeTurn));
        if (!continuing) {
          warn(seen, at, "a tool call arrived for a prompt whose begin never did");
          newPrompt(seen, session, runtimeTurn, at, false);
        }
        seen.ended = false;
        seen.toolCalls++;
      }
      case FINISH -> {
        // an end with no prompt open is no evidence: a SessionEnd after the Stop, OpenCode's idle
        if (!sameSession || seen.ended) {
          return;
        }
        if (seen.toolCalls == 0 && changedFiles > 0) {
          warn(
              seen,
              at,
              "a prompt changed "
                  + changedFiles
                  + (changedFiles == 1 ? " file" : " files")
                  + " and no tool call hook of it arrived");
        } else if (seen.begun) {
          seen.warning = null; // a prompt arrived whole
          seen.warnedSince = null;
        }
        seen.session = session;
        seen.ended = true;
      }
      case IGNORE -> {}
    }
    outcome.turn().ifPresent(turn -> seen.promptTurn = turn);
  }

  /**
   * {@code time} to the millisecond, as the store keeps it: a sighting shows the same times before
   * and after a restart.
   */
  private static Instant asKept(Instant time) {
    return time.truncatedTo(ChronoUnit.MILLIS);
  }

  /**
   * The runtime's session id of {@code call} as the store keeps it ({@link StorableText}): held so
   * in memory too, so that a call compares with a sighting the same before and after a restart, and
   * the sightings' write never fails on a NUL in an id (PostgreSQL's text cannot hold one; a JSON
   * string may). A NUL in a session id or a turn id is refused nowhere else: turndiff's own ids of
   * them are made valid ({@link HookIds}), and only the sightings keep the runtime's as it sent
   * them.
   */
  private static String sessionOf(HookCall call) {
    return StorableText.of(call.session());
  }

  /** The runtime's turn id of {@code call}, if it names one, as the store keeps it. */
  private static Optional<String> runtimeTurnOf(HookCall call) {
    return call.runtimeTurn().map(StorableText::of);
  }

  private static void newPrompt(
      Seen seen, String session, Optional<String> runtimeTurn, Instant at, boolean begun) {
    seen.session = session;
    seen.promptAt = at;
    seen.begun = begun;
    seen.toolCalls = 0;
    seen.ended = false;
    seen.runtimeTurn = runtimeTurn;
    seen.promptTurn = null;
  }

  private static void warn(Seen seen, Instant at, String what) {
    if (seen.warnedSince == null) {
      seen.warnedSince = at;
    }
    seen.warning = what + " (" + at + ")";
  }

  private static String endEvent(String runtime) {
    return runtime.equals("gemini") ? "AfterAgent" : "Stop";
  }

  /**
   * The standing warning of the runtime and directory {@code call}'s session works in, if any
   * ({@code hooks may not be firing for R since T: …}).
   */
  synchronized Optional<String> warning(HookCall call) {
    String directory = placeOfSession.get(call.runtime() + "\n" + sessionOf(call));
    Seen seen = directory == null ? null : byPlace.get(call.runtime() + "\n" + directory);
    return seen == null || seen.warning == null ? Optional.empty() : Optional.of(seen.warning);
  }

  /**
   * Notes that a turn's begin found changes no turn made, at {@code at}, in the workspace whose
   * real root is {@code workspace}: every runtime whose last reported process for a directory in it
   * still runs gets the warning, but the process whose begin found them ({@code beginner}): its
   * hooks arrive, and what changed between its prompts is as likely the user's.
   */
  synchronized void outsideChanges(
      Path workspace, Optional<RuntimeProcess> beginner, Instant found) {
    Instant at = asKept(found);
    byPlace.forEach(
        (place, seen) -> {
          String directory = place.substring(place.indexOf('\n') + 1);
          if (seen.process == null
              || beginner.equals(Optional.of(seen.process))
              || !directory.startsWith("/")
              || !Path.of(directory).startsWith(workspace)
              || !GoneRuntimes.isRunning(seen.process)) {
            return;
          }
          seen.changed = true;
          warn(
              seen,
              at,
              OUTSIDE_CHANGES
                  + " while its process "
                  + seen.process.pid()
                  + " runs in this workspace");
        });
  }

  /**
   * Writes the sightings that changed since the last write to the store, in one transaction; the
   * service calls it every few seconds and when it stops. A failed write leaves them changed, for
   * the next.
   */
  public void persistChanged() {
    List<StoredHookSighting> changed = changedRows();
    if (changed.isEmpty()) {
      return;
    }
    // without folding: the sightings are no row a fold writes, and the write comes every few
    // seconds while a turn's calls are logging their before-states for its finish to fold
    store.writeWithoutFolding(
        tx -> {
          tx.hookSightings().put(changed);
          return null;
        });
    markWritten(changed);
  }

  private synchronized List<StoredHookSighting> changedRows() {
    List<StoredHookSighting> rows = new ArrayList<>();
    byPlace.forEach(
        (place, seen) -> {
          if (seen.changed) {
            rows.add(
                new StoredHookSighting(
                    place.substring(0, place.indexOf('\n')),
                    place.substring(place.indexOf('\n') + 1),
                    seen.session == null ? "" : seen.session,
                    seen.lastAt,
                    seen.lastEvent,
                    Optional.ofNullable(seen.runtimeVersion),
                    Optional.ofNullable(seen.process),
                    Optional.ofNullable(seen.promptAt),
                    seen.begun,
                    seen.toolCalls,
                    seen.ended,
                    seen.runtimeTurn,
                    Optional.ofNullable(seen.promptTurn),
                    Optional.ofNullable(seen.warnedSince),
                    Optional.ofNullable(seen.warning)));
          }
        });
    return rows;
  }

  /** Clears the mark of the sightings written, unless a call changed them again meanwhile. */
  private synchronized void markWritten(List<StoredHookSighting> written) {
    for (StoredHookSighting row : written) {
      Seen seen = byPlace.get(row.runtime() + "\n" + row.directory());
      if (seen != null
          && seen.lastAt.equals(row.lastAt())
          && warningOf(seen).equals(row.warning())) {
        seen.changed = false;
      }
    }
  }

  private static Optional<String> warningOf(Seen seen) {
    return Optional.ofNullable(seen.warning);
  }

  /** A standing warning as it is shown: {@code hooks may not be firing for R since T: …}. */
  private static String shownWarning(String runtime, Instant since, String warning) {
    return "hooks may not be firing for " + runtime + " since " + since + ": " + warning;
  }

  /**
   * The standing warnings raised by changes outside any turn for the runtimes of directories in
   * {@code workspace}, as the store kept them ({@link #outsideChanges}), as they are shown: where a
   * turn outside any turn is shown, they say who may have made it.
   */
  public static List<String> outsideTurnWarnings(Store store, Path workspace) {
    return store.readWithoutFolding(tx -> tx.hookSightings().latest(KEPT)).stream()
        .filter(row -> row.warning().filter(w -> w.startsWith(OUTSIDE_CHANGES)).isPresent())
        .filter(row -> row.directory().startsWith("/"))
        .filter(row -> Path.of(row.directory()).startsWith(workspace))
        .map(
            row ->
                shownWarning(row.runtime(), row.warnedSince().orElseThrow(), row.warning().get()))
        .toList();
  }

  /**
   * The sightings {@code store} kept, as the last service left them, with the turns' endings as the
   * store has them now: what {@code hooks status} compares a runtime's session files with when no
   * service runs.
   */
  public static List<WireHookSighting> kept(Store store) {
    return new HookSightings(store).all();
  }

  /**
   * Every runtime and directory seen, least recently used first; a last prompt whose turn the
   * service finished says by whom and why, as the store has it now.
   */
  public List<WireHookSighting> all() {
    return seen().stream().map(this::withTheTurnsEnding).toList();
  }

  private WireHookSighting withTheTurnsEnding(WireHookSighting sighting) {
    WireHookSighting.Prompt prompt = sighting.prompt();
    Optional<TurnEnding> ending =
        prompt.turn() == null ? Optional.empty() : endingOf(prompt.turn());
    if (ending.isEmpty()) {
      return sighting;
    }
    return new WireHookSighting(
        sighting.runtime(),
        sighting.directory(),
        sighting.lastAt(),
        sighting.lastEvent(),
        sighting.session(),
        sighting.runtimeVersion(),
        new WireHookSighting.Prompt(
            prompt.at(),
            prompt.begin(),
            prompt.toolCalls(),
            prompt.end(),
            prompt.turn(),
            WireTurn.BY_SERVICE,
            ending.get().reason()),
        sighting.warning());
  }

  /**
   * Why the store says {@code turn} was finished otherwise than by its own end, if it was (empty
   * for an open turn, one finished by its end, and one the store does not have).
   */
  private Optional<TurnEnding> endingOf(String turn) {
    return store
        .readWithoutFolding(tx -> tx.turns().byExternalId(turn))
        .flatMap(StoredTurn::ending);
  }

  /** Every runtime and directory seen, as this memory has them (the turn's ending not asked). */
  private synchronized List<WireHookSighting> seen() {
    List<WireHookSighting> all = new ArrayList<>();
    byPlace.forEach(
        (place, seen) -> {
          String runtime = place.substring(0, place.indexOf('\n'));
          all.add(
              new WireHookSighting(
                  runtime,
                  place.substring(place.indexOf('\n') + 1),
                  seen.lastAt.toString(),
                  seen.lastEvent,
                  seen.session,
                  seen.runtimeVersion,
                  new WireHookSighting.Prompt(
                      seen.promptAt == null ? null : seen.promptAt.toString(),
                      seen.begun,
                      seen.toolCalls,
                      seen.ended,
                      seen.promptTurn,
                      null,
                      null),
                  seen.warning == null
                      ? null
                      : shownWarning(runtime, seen.warnedSince, seen.warning)));
        });
    return all;
  }
}
