package io.turndiff.hooks;

import io.turndiff.api.wire.WireHookSighting;
import io.turndiff.api.wire.WireTurn;
import io.turndiff.model.TurnEnding;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

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
 * <p>The directory is the one the runtime reported when the session's prompt began (its {@code
 * cwd}). In memory, since the service started, for the last {@value #KEPT} directories and
 * sessions: a restart forgets it, and {@code hooks status} says "none since the service started".
 *
 * <p>What became of the last prompt's turn is the store's, asked when the sightings are shown, not
 * kept here: the service may finish it long after its last call came, because its runtime was gone
 * or its session ended before its Stop ({@link TurnEnding}), and then the end hook of that prompt
 * never arrived: shown as such, since a runtime whose end hook never fires looks exactly so.
 */
public final class HookSightings {

  static final int KEPT = 256;

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
  }

  private final Map<String, Seen> byPlace = bounded();
  private final Map<String, String> placeOfSession = bounded();
  private final Function<String, Optional<TurnEnding>> endingOfTurn;

  /**
   * @param endingOfTurn why the store says a turn was finished otherwise than by its own end, if it
   *     was (empty for an open turn, one finished by its end, and one the store does not have)
   */
  HookSightings(Function<String, Optional<TurnEnding>> endingOfTurn) {
    this.endingOfTurn = endingOfTurn;
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
   * Notes {@code call}, received at {@code at}, and what it did; {@code changedFiles} is how many
   * files the turn it finished recorded (0 for every other call).
   */
  synchronized void saw(HookCall call, HookOutcome outcome, Instant at, long changedFiles) {
    if (call.action() == HookCall.Action.IGNORE || outcome.outcomes().contains("duplicate")) {
      return;
    }
    String sessionKey = call.runtime() + "\n" + call.session();
    String directory =
        call.action() == HookCall.Action.BEGIN || !placeOfSession.containsKey(sessionKey)
            ? call.cwd().orElse("(not reported)")
            : placeOfSession.get(sessionKey);
    placeOfSession.put(sessionKey, directory);
    Seen seen = byPlace.computeIfAbsent(call.runtime() + "\n" + directory, place -> new Seen());
    boolean sameSession = call.session().equals(seen.session);
    seen.lastAt = at;
    seen.lastEvent = call.event();
    switch (call.action()) {
      case BEGIN -> {
        if (sameSession && seen.begun && !seen.ended) {
          warn(seen, at, "the end of a prompt (" + endEvent(call.runtime()) + ") never arrived");
        }
        newPrompt(seen, call, at, true);
      }
      case SNAPSHOT, ENSURE -> {
        boolean continuing =
            sameSession
                && (call.runtimeTurn().isEmpty()
                    ? !seen.ended
                    : call.runtimeTurn().equals(seen.runtimeTurn));
        if (!continuing) {
          warn(seen, at, "a tool call arrived for a prompt whose begin never did");
          newPrompt(seen, call, at, false);
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
        seen.session = call.session();
        seen.ended = true;
      }
      case IGNORE -> {}
    }
    outcome.turn().ifPresent(turn -> seen.promptTurn = turn);
  }

  private static void newPrompt(Seen seen, HookCall call, Instant at, boolean begun) {
    seen.session = call.session();
    seen.promptAt = at;
    seen.begun = begun;
    seen.toolCalls = 0;
    seen.ended = false;
    seen.runtimeTurn = call.runtimeTurn();
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
    String directory = placeOfSession.get(call.runtime() + "\n" + call.session());
    Seen seen = directory == null ? null : byPlace.get(call.runtime() + "\n" + directory);
    return seen == null || seen.warning == null ? Optional.empty() : Optional.of(seen.warning);
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
        prompt.turn() == null ? Optional.empty() : endingOfTurn.apply(prompt.turn());
    if (ending.isEmpty()) {
      return sighting;
    }
    return new WireHookSighting(
        sighting.runtime(),
        sighting.directory(),
        sighting.lastAt(),
        sighting.lastEvent(),
        sighting.session(),
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
                      : "hooks may not be firing for "
                          + runtime
                          + " since "
                          + seen.warnedSince
                          + ": "
                          + seen.warning));
        });
    return all;
  }
}
