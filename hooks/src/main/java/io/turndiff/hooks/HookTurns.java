package io.turndiff.hooks;

import io.turndiff.api.Refusal;
import io.turndiff.api.TurnEvents;
import io.turndiff.api.TurnLocks;
import io.turndiff.api.Turndiff;
import io.turndiff.capture.BeganTurn;
import io.turndiff.capture.ShellCall;
import io.turndiff.capture.SnapshotVerdict;
import io.turndiff.capture.TurnOpening;
import io.turndiff.capture.TurnSummary;
import io.turndiff.hooks.install.HookRuntime;
import io.turndiff.model.ExternalIds;
import io.turndiff.model.PathInput;
import io.turndiff.model.RequestException;
import io.turndiff.model.RuntimeProcess;
import io.turndiff.model.Sha256;
import io.turndiff.model.ToolName;
import io.turndiff.model.TurnEnding;
import io.turndiff.model.TurnState;
import io.turndiff.store.StoreException;
import io.turndiff.store.StoredSession;
import io.turndiff.store.StoredTurn;
import io.turndiff.store.StoredWorkspace;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The one turn state machine of every runtime (docs/runtime-hooks.md, "Turns"): it turns {@link
 * HookCall}s into begins, snapshots and finishes of the capture API, so that a lost {@code
 * UserPromptSubmit} or {@code Stop}, a repeated delivery, a prompt continued after its {@code Stop}
 * and a session that ends mid-turn each still give one turn per prompt.
 *
 * <p>Hook calls of one runtime session run one at a time (runtimes fire hooks in parallel). The
 * turns are the store's; what the service keeps in memory per session is the fingerprint of the
 * last body it accepted (a body identical to it is a repeated delivery), the runtime's turn id of
 * each turn it began, and the tool call ids seen in the open turn. A failure of the capture API is
 * an outcome ({@code failed}, logged), never an error for the runtime.
 */
final class HookTurns {

  private static final int REMEMBERED_SESSIONS = 4096;

  private final Turndiff turndiff;
  private final HookWorkspaces workspaces;
  private final AutoTracking autoTracked;
  private final Function<String, Path> admitted;
  private final TurnEvents events;
  private final TurnLocks locks = new TurnLocks(64);
  private final Map<String, SessionMemory> sessions =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, SessionMemory> eldest) {
          return size() > REMEMBERED_SESSIONS;
        }
      };

  /**
   * @param admitted the workspace a client named, checked against the service's workspace policy
   * @param events told of every begin, snapshot and finish (the panel's live updates)
   */
  HookTurns(Turndiff turndiff, Function<String, Path> admitted, TurnEvents events) {
    this.turndiff = turndiff;
    this.workspaces = new HookWorkspaces(turndiff);
    this.autoTracked = new AutoTracking(turndiff, events);
    this.admitted = admitted;
    this.events = events;
  }

  /** What the service remembers of one runtime session. */
  private static final class SessionMemory {
    /** The turndiff session the session's turns go to now. */
    String session;

    Sha256 lastBody;
    final Map<String, String> runtimeTurnOf = new HashMap<>();
    final Map<String, Set<String>> toolCallsOf = new HashMap<>();

    /**
     * The ids turndiff gave the shell calls in flight of a runtime that gives its calls none
     * (Gemini), by tool, command and directory, oldest first: a Post ends the oldest of its kind.
     */
    final Map<HookCall.Shell, Deque<String>> unnamedCalls = new HashMap<>();

    /** When the session's last hook call was acted on: a runtime that calls is not gone. */
    Instant lastCallAt;

    /** The runtime process recorded with each open turn, so that a change is written once. */
    final Map<String, RuntimeProcess> runtimeOf = new HashMap<>();

    SessionMemory(String session) {
      this.session = session;
    }
  }

  /**
   * Acts on {@code call}, whose payload was {@code body}, as the client's {@code query} asks; a
   * call that waited in the spool since {@code spooledAt} is late: the prompt it begins a turn for
   * was given before the service ran ({@link io.turndiff.capture.CaptureService#beginLateTurn}),
   * and the tool it announces has run ({@link io.turndiff.capture.CaptureService#snapshotLate}).
   */
  HookOutcome handle(HookCall call, HookQuery query, byte[] body, Optional<Instant> spooledAt) {
    String key = HookIds.of(call.runtime(), call.session());
    ReentrantLock lock = locks.of(key);
    lock.lock();
    try {
      SessionMemory memory;
      synchronized (sessions) {
        memory = sessions.computeIfAbsent(key, SessionMemory::new);
      }
      Sha256 fingerprint = Sha256.of(body);
      if (fingerprint.equals(memory.lastBody)) {
        return HookOutcome.only("duplicate");
      }
      HookOutcome outcome = new Run(call, query, memory, spooledAt).act();
      memory.lastBody = fingerprint;
      memory.lastCallAt = turndiff.store().clock().instant();
      return outcome;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Finishes the open turn {@code turn} of the turndiff session {@code session}, whose runtime is
   * gone, from a scan as a Stop would, its {@code ending} noted: when {@code stillGone} holds of
   * the session's last hook call in this service (empty when none came since it started), asked
   * under the session's lock, so that a call arriving meanwhile keeps its turn open.
   *
   * @return whether the turn was finished here
   */
  boolean finishUnattended(
      String session, String turn, TurnEnding ending, Predicate<Optional<Instant>> stillGone) {
    Optional<Map.Entry<String, SessionMemory>> remembered;
    synchronized (sessions) {
      remembered =
          sessions.entrySet().stream()
              .filter(entry -> entry.getValue().session.equals(session))
              .findFirst()
              .map(entry -> Map.entry(entry.getKey(), entry.getValue()));
    }
    // a session no call named since the service started has no memory: its own id is its lock's
    String key = remembered.map(Map.Entry::getKey).orElse(session);
    SessionMemory memory = remembered.map(Map.Entry::getValue).orElse(null);
    ReentrantLock lock = locks.of(key);
    lock.lock();
    try {
      boolean open =
          turndiff
              .store()
              .readWithoutFolding(tx -> tx.turns().byExternalId(turn))
              .filter(stored -> stored.state() == TurnState.OPEN)
              .isPresent();
      if (!open || !stillGone.test(Optional.ofNullable(memory).map(m -> m.lastCallAt))) {
        return false;
      }
      noteEnding(turn, ending);
      finishAndForget(memory, turn);
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Notes why the service finishes the open turn {@code turn} ({@link
   * io.turndiff.store.Turns#noteEnding}).
   */
  private void noteEnding(String turn, TurnEnding ending) {
    turndiff
        .store()
        .write(
            tx -> {
              tx.turns()
                  .byExternalId(turn)
                  .ifPresent(stored -> tx.turns().noteEnding(stored.id(), ending));
              return null;
            });
  }

  /** Finishes {@code turn} and drops what {@code memory} (when any) kept of it. */
  private void finishAndForget(SessionMemory memory, String turn) {
    TurnSummary finished = turndiff.capture().finishTurn(turn);
    if (memory != null) {
      memory.toolCallsOf.remove(turn);
      memory.runtimeOf.remove(turn);
      memory.unnamedCalls.clear();
    }
    events.finished(turn, finished);
  }

  /** One payload's way through the state machine, collecting its outcomes. */
  private final class Run {
    private final HookCall call;
    private final HookQuery query;
    private final SessionMemory memory;
    private final Optional<Instant> spooledAt;
    private final List<String> outcomes = new ArrayList<>();
    private Optional<String> turn = Optional.empty();

    Run(HookCall call, HookQuery query, SessionMemory memory, Optional<Instant> spooledAt) {
      this.call = call;
      this.query = query;
      this.memory = memory;
      this.spooledAt = spooledAt;
    }

    HookOutcome act() {
      if (spooledAt.isPresent()) {
        outcomes.add("late");
      }
      try {
        switch (call.action()) {
          case IGNORE -> outcomes.add("ignored");
          case BEGIN -> begin();
          case SNAPSHOT -> {
            snapshot();
            beginShellCall();
          }
          case ENSURE -> {
            ensureTurn();
            beginShellCall();
            if (outcomes.isEmpty()) {
              outcomes.add("noop");
            }
          }
          case FINISH -> finish();
          case END_CALL -> endShellCall();
        }
        recordRuntime();
        return new HookOutcome(outcomes, turn, Optional.empty());
      } catch (RequestException e) {
        return failed(Refusal.of(e.problem()).code(), e);
      } catch (StoreException e) {
        return failed("store", e);
      }
    }

    /**
     * The runtime process the hook script named, as the open turn's that this call acted in, when
     * it is not the one recorded already: a resumed session's new process takes its turn over.
     */
    private void recordRuntime() {
      if (query.runtime().isEmpty()
          || turn.isEmpty()
          || call.action() == HookCall.Action.FINISH
          || query.runtime().equals(Optional.ofNullable(memory.runtimeOf.get(turn.get())))) {
        return;
      }
      RuntimeProcess runtime = query.runtime().get();
      String id = turn.get();
      turndiff
          .store()
          .write(
              tx -> {
                tx.turns()
                    .byExternalId(id)
                    .filter(stored -> stored.state() == TurnState.OPEN)
                    .ifPresent(open -> tx.turns().recordRuntime(open.id(), runtime));
                return null;
              });
      memory.runtimeOf.put(id, runtime);
    }

    private HookOutcome failed(String code, RuntimeException e) {
      System.err.println(
          "turndiff serve: hook "
              + call.runtime()
              + " "
              + call.event()
              + " session "
              + call.session()
              + ": "
              + code
              + ": "
              + e.getMessage());
      outcomes.add("failed");
      return new HookOutcome(
          outcomes, turn, Optional.of(new HookOutcome.Failure(code, e.getMessage())));
    }

    private void begin() {
      if (call.runtimeTurn().isPresent() && known(call.runtimeTurn().get())) {
        outcomes.add("duplicate");
        return;
      }
      Optional<StoredTurn> open = openTurn();
      if (open.isPresent()) {
        finish(open.get().externalId());
      }
      // the prompt goes with the begin, which keeps it or drops it (TurnOpening)
      beginFor(call.runtimeTurn(), call.prompt());
    }

    private void snapshot() {
      String current = ensureTurn();
      Optional<String> toolCall = call.toolCall().map(HookIds::toolCall);
      Set<String> seen = memory.toolCallsOf.computeIfAbsent(current, id -> new HashSet<>());
      if (toolCall.isPresent() && seen.contains(toolCall.get())) {
        outcomes.add("duplicate");
        return;
      }
      if (call.paths().isEmpty()) {
        outcomes.add("noop");
        return;
      }
      List<SnapshotVerdict> verdicts =
          spooledAt.isPresent()
              ? turndiff
                  .capture()
                  .snapshotLate(
                      current,
                      toolCall,
                      call.tool().map(ToolName::bounded),
                      PathInput.texts(call.paths()),
                      lateness(spooledAt.get()))
              : turndiff
                  .capture()
                  .snapshot(
                      current,
                      toolCall,
                      call.tool().map(ToolName::bounded),
                      PathInput.texts(call.paths()));
      toolCall.ifPresent(seen::add);
      events.snapshotted(current, verdicts);
      outcomes.add("snapshotted");
    }

    /**
     * The shell call the payload's Pre hook begins, in the open turn (its runtime's Post hook ends
     * it): what the watcher sees change meanwhile is its.
     */
    private void beginShellCall() {
      if (call.shell().isEmpty() || turn.isEmpty()) {
        return;
      }
      HookCall.Shell shell = call.shell().get();
      String id =
          call.toolCall()
              .map(HookIds::toolCall)
              .orElseGet(
                  () -> {
                    String generated = ExternalIds.generate("call");
                    memory
                        .unnamedCalls
                        .computeIfAbsent(shell, _ -> new ArrayDeque<>())
                        .add(generated);
                    return generated;
                  });
      turndiff
          .capture()
          .beginShellCall(turn.get(), ShellCall.of(id, shell.tool(), shell.command()));
      outcomes.add("call_began");
    }

    /** The shell call the payload's Post hook names ends, in the session's open turn. */
    private void endShellCall() {
      Optional<StoredTurn> open = openTurn();
      HookCall.Shell shell = call.shell().orElseThrow();
      Optional<String> id =
          call.toolCall()
              .map(HookIds::toolCall)
              .or(() -> Optional.ofNullable(memory.unnamedCalls.get(shell)).map(Deque::pollFirst));
      if (open.isEmpty() || id.isEmpty()) {
        outcomes.add("noop");
        return;
      }
      turn = Optional.of(open.get().externalId());
      boolean ended = turndiff.capture().endShellCall(open.get().externalId(), id.get());
      outcomes.add(ended ? "call_ended" : "noop");
    }

    private void finish() {
      Optional<StoredTurn> open = openTurn();
      if (call.runtimeTurn().isPresent()) {
        String runtimeTurn = call.runtimeTurn().get();
        boolean continuing =
            open.isPresent()
                && runtimeTurn.equals(memory.runtimeTurnOf.get(open.get().externalId()));
        if (!continuing && finishedTurn(HookIds.of(call.runtime(), runtimeTurn))) {
          outcomes.add("duplicate");
          return;
        }
      }
      if (open.isEmpty()) {
        outcomes.add("noop");
        return;
      }
      if (call.endsSession()) {
        noteEnding(open.get().externalId(), TurnEnding.SESSION_ENDED);
      }
      finish(open.get().externalId());
    }

    /**
     * The open turn of the session, begun when there is none: a payload naming another runtime turn
     * than the open one's finishes it first, one naming a finished turn begins its continuation,
     * and an open turn without a runtime turn id takes the payload's.
     */
    private String ensureTurn() {
      Optional<StoredTurn> open = openTurn();
      Optional<String> runtimeTurn = call.runtimeTurn();
      if (open.isPresent()) {
        String id = open.get().externalId();
        String openRuntimeTurn = memory.runtimeTurnOf.get(id);
        if (runtimeTurn.isEmpty() || runtimeTurn.get().equals(openRuntimeTurn)) {
          turn = Optional.of(id);
          return id;
        }
        if (openRuntimeTurn == null) {
          // the prompt was begun without an id (an older Claude Code): the open turn takes it
          memory.runtimeTurnOf.put(id, runtimeTurn.get());
          turn = Optional.of(id);
          return id;
        }
        finish(id);
      }
      return beginFor(runtimeTurn, Optional.empty());
    }

    private void finish(String id) {
      finishAndForget(memory, id);
      turn = Optional.of(id);
      outcomes.add("finished");
    }

    /**
     * Begins a turn for the runtime turn {@code runtimeTurn}: with its id, or the next continuation
     * {@code …+n} when a turn of that id exists; with a generated id when the runtime gave none.
     * The prompt and the runtime process the hook script named are kept in the begin's transaction.
     */
    private String beginFor(Optional<String> runtimeTurn, Optional<String> prompt) {
      Path workspace =
          admitted.apply(workspaces.of(call.cwd().orElseThrow(), query.gitRoot()).toString());
      if (query.autoTrack()) {
        autoTracked.trackUnlessTracked(workspace);
      }
      String session = sessionIn(workspace);
      String id =
          runtimeTurn
              .map(given -> HookIds.of(call.runtime(), given))
              .map(this::unusedContinuation)
              .orElseGet(() -> generatedTurn(session));
      TurnOpening opening = new TurnOpening(prompt, query.runtime());
      boolean bracketsShellCalls = HookRuntime.of(call.runtime()).bracketsShellCalls();
      BeganTurn began =
          spooledAt.isPresent()
              ? turndiff
                  .capture()
                  .beginLateTurn(
                      workspace, Optional.of(session), Optional.of(id), bracketsShellCalls, opening)
              : turndiff
                  .capture()
                  .beginTurn(
                      workspace,
                      Optional.of(session),
                      Optional.of(id),
                      bracketsShellCalls,
                      opening);
      // recorded with the begin: recordRuntime has nothing to write for this call
      query.runtime().ifPresent(runtime -> memory.runtimeOf.put(began.turn(), runtime));
      memory.session = session;
      runtimeTurn.ifPresent(given -> memory.runtimeTurnOf.put(began.turn(), given));
      events.began(began);
      turn = Optional.of(began.turn());
      outcomes.add("begun");
      return began.turn();
    }

    /**
     * The runtime session's turndiff session, or, when that session works in another workspace (a
     * Claude session that moved to another project), one of its own for this workspace.
     */
    private String sessionIn(Path workspace) {
      String base = HookIds.of(call.runtime(), call.session());
      Optional<StoredWorkspace> sessionWorkspace =
          turndiff
              .store()
              .read(
                  tx ->
                      tx.sessions()
                          .byExternalId(base)
                          .map(StoredSession::workspaceId)
                          .flatMap(id -> tx.workspaces().byId(id)));
      if (sessionWorkspace.isEmpty()
          || sessionWorkspace.get().rootGiven().equals(workspace.toString())
          || sessionWorkspace.get().rootReal().equals(workspace.toString())) {
        return base;
      }
      return base + ":" + HookIds.sha256(workspace.toString()).substring(0, 8);
    }

    /** Why a late call's paths have no before-state: what the user reads beside each of them. */
    private String lateness(Instant keptSince) {
      return "the turndiff service was not running when "
          + call.runtime()
          + " ran this tool: its hook call waited in the spool from "
          + keptSince
          + " until "
          + turndiff.store().clock().instant()
          + ", after the tool had changed the file";
    }

    /** {@code id} when no turn has it, else the first continuation {@code id+n} (n ≥ 2) free. */
    private String unusedContinuation(String id) {
      String candidate = id;
      for (int n = 2; exists(candidate); n++) {
        candidate = id + "+" + n;
      }
      return candidate;
    }

    /** {@code <session>:<seq>}, the turn's number in its session. */
    private String generatedTurn(String session) {
      long turns =
          turndiff
              .store()
              .read(
                  tx ->
                      tx.sessions()
                          .byExternalId(session)
                          .map(stored -> tx.turns().countOfSession(stored.id()))
                          .orElse(0L));
      long seq = turns + 1;
      while (exists(session + ":" + seq)) {
        seq++; // a turn of another session took the id
      }
      return session + ":" + seq;
    }

    /** Whether the runtime turn was seen: a turn has its id, or an open turn took it. */
    private boolean known(String runtimeTurn) {
      return exists(HookIds.of(call.runtime(), runtimeTurn))
          || memory.runtimeTurnOf.containsValue(runtimeTurn);
    }

    private boolean exists(String turnId) {
      return turndiff.store().readWithoutFolding(tx -> tx.turns().byExternalId(turnId)).isPresent();
    }

    private boolean finishedTurn(String turnId) {
      return turndiff
          .store()
          .readWithoutFolding(tx -> tx.turns().byExternalId(turnId))
          .filter(stored -> stored.state() != TurnState.OPEN)
          .isPresent();
    }

    /**
     * The session's open turn, read without folding the before log: a fold writes no turn's row,
     * and every tool call's Pre hook asks this before its snapshot call appends to the log, so a
     * read that folded would fold the call before it each time ({@link
     * io.turndiff.store.Store#readWithoutFolding}).
     */
    private Optional<StoredTurn> openTurn() {
      return turndiff
          .store()
          .readWithoutFolding(
              tx ->
                  tx.turns().open().stream()
                      .filter(open -> open.sessionExternalId().equals(memory.session))
                      .reduce((older, newer) -> newer));
    }
  }
}
