package io.turndiff.hooks;

import io.turndiff.api.TurnEvents;
import io.turndiff.api.Turndiff;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The runtimes' hooks as the service receives them (docs/runtime-hooks.md, "The hook endpoints"):
 * each runtime's own payload, unchanged, read by that runtime's mapper into a {@link HookCall},
 * then acted on by the one turn state machine ({@link HookTurns}), and counted. A body that is not
 * one of the runtime's payloads is refused before anything happens; every payload that is one has
 * an outcome, whatever it did. How the payload arrived, and how the outcome is answered, is the
 * HTTP service's.
 */
public final class RuntimeHooks {

  private final Map<String, HookMapper> mappers = new TreeMap<>();
  private final HookTurns turns;
  private final HookCounters counters;
  private final HookSightings sightings;
  private final Turndiff turndiff;
  private final GoneRuntimes goneRuntimes;

  /**
   * @param admitted the workspace a client named, checked against the service's workspace policy
   * @param events told of every begin, snapshot and finish (the panel's live updates)
   */
  public RuntimeHooks(Turndiff turndiff, Function<String, Path> admitted, TurnEvents events) {
    this(turndiff, admitted, events, GoneRuntimes.GRACE);
  }

  /**
   * @param admitted the workspace a client named, checked against the service's workspace policy
   * @param events told of every begin, snapshot and finish (the panel's live updates)
   * @param goneGrace how long a session whose runtime process is gone must be silent before its
   *     open turn is finished ({@link GoneRuntimes#GRACE} by default)
   */
  public RuntimeHooks(
      Turndiff turndiff, Function<String, Path> admitted, TurnEvents events, Duration goneGrace) {
    for (HookMapper mapper :
        List.of(new ClaudeCodeHooks(), new CodexHooks(), new GeminiHooks(), new OpenCodeHooks())) {
      mappers.put(mapper.runtime(), mapper);
    }
    this.turndiff = turndiff;
    this.sightings = new HookSightings(turndiff.store());
    this.turns = new HookTurns(turndiff, admitted, events);
    this.goneRuntimes = new GoneRuntimes(turndiff, turns, goneGrace);
    this.counters = new HookCounters(List.copyOf(mappers.keySet()));
  }

  /** The runtimes that have a mapper, by the name a hook endpoint gives them. */
  public Set<String> runtimes() {
    return mappers.keySet();
  }

  /**
   * Reads {@code body}, one of {@code runtime}'s hook payloads, and acts on it as the client's
   * {@code query} asks.
   *
   * @param runtime one of {@link #runtimes()}
   * @throws io.turndiff.api.InvalidRequest naming the field when {@code body} is not one of the
   *     runtime's payloads; nothing was done
   * @throws io.turndiff.model.RequestException naming the field when a directory or a path in it
   *     can never be valid; nothing was done
   */
  public HookOutcome receive(String runtime, byte[] body, HookQuery query) {
    return receive(runtime, body, query, Optional.empty());
  }

  /**
   * As {@link #receive}, for a call the hook script could not deliver when it was made (the service
   * was not running) and kept in the spool since {@code spooledAt}: the tools it announced have run
   * by now, so their paths' before-states are recorded as the state machine says of a late call
   * ({@link HookTurns}), never read from the tree as it is now. Counted {@code late}.
   */
  public HookOutcome receiveLate(String runtime, byte[] body, HookQuery query, Instant spooledAt) {
    return receive(runtime, body, query, Optional.of(spooledAt));
  }

  private HookOutcome receive(
      String runtime, byte[] body, HookQuery query, Optional<Instant> spooledAt) {
    HookMapper mapper = mappers.get(runtime);
    if (mapper == null) {
      throw new IllegalArgumentException("no mapper for the runtime '" + runtime + "'");
    }
    HookCall call;
    try {
      call = mapper.map(HookFields.read(body, mapper.fields()));
    } catch (RuntimeException refused) {
      counters.refused(runtime);
      throw refused;
    }
    HookOutcome outcome = turns.handle(call, query, body, spooledAt);
    counters.accepted(call, outcome);
    Instant at = spooledAt.orElseGet(Instant::now);
    sightings.saw(call, query, outcome, at, changedFiles(call, outcome));
    if (call.action() == HookCall.Action.BEGIN
        && spooledAt.isEmpty()
        && outcome.outcomes().contains("begun")) {
      OutsideTurns.workspaceOfOneBefore(turndiff.store(), outcome.turn().orElseThrow())
          .ifPresent(workspace -> sightings.outsideChanges(workspace, query.runtime(), at));
      // the prompt's turn began: what the model should know of its previous one (issue 21, item 8)
      return outcome.withNote(
          PromptNote.forPromptOf(turndiff, outcome.turn().orElseThrow(), sightings.warning(call)));
    }
    return outcome;
  }

  /** How many files the turn a finish call finished recorded; 0 for any other call. */
  private long changedFiles(HookCall call, HookOutcome outcome) {
    if (call.action() != HookCall.Action.FINISH
        || !outcome.outcomes().contains("finished")
        || outcome.turn().isEmpty()) {
      return 0;
    }
    String turn = outcome.turn().get();
    // a finished turn's records, which no logged row is of: another session's calls stay logged
    return turndiff
        .store()
        .readWithoutFolding(
            tx ->
                tx.turns()
                    .byExternalId(turn)
                    .map(stored -> (long) tx.fileChanges().countOfTurn(stored.id()))
                    .orElse(0L));
  }

  /** The open turns whose runtime is gone, and their finish ({@link GoneRuntimes}). */
  public GoneRuntimes goneRuntimes() {
    return goneRuntimes;
  }

  /** What the hook calls did since the service started. */
  public HookCounters counters() {
    return counters;
  }

  /** What the hook calls showed of each runtime, per directory, kept across restarts. */
  public HookSightings sightings() {
    return sightings;
  }
}
