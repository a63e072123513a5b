package io.turndiff.capture;

import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.boundary.Observation;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.capture.record.BlobSink;
import io.turndiff.capture.record.ChangeRecorder;
import io.turndiff.capture.track.PathChange;
import io.turndiff.capture.track.Tracker;
import io.turndiff.capture.track.WatchOptions;
import io.turndiff.capture.workspace.WorkspaceHandles;
import io.turndiff.model.BadPathException;
import io.turndiff.model.Containment;
import io.turndiff.model.DirectoryState;
import io.turndiff.model.ExternalIds;
import io.turndiff.model.FileType;
import io.turndiff.model.GivenPath;
import io.turndiff.model.NotCaptured;
import io.turndiff.model.PathInput;
import io.turndiff.model.Reason;
import io.turndiff.model.RequestException;
import io.turndiff.model.RequestedPath;
import io.turndiff.model.Snapshot;
import io.turndiff.model.TurnKind;
import io.turndiff.model.TurnState;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.BeforeLog;
import io.turndiff.store.Store;
import io.turndiff.store.StoreTransaction;
import io.turndiff.store.StoredSession;
import io.turndiff.store.StoredTurn;
import io.turndiff.store.StoredWorkspace;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.LongConsumer;

/**
 * Begins turns, records the before-state of paths as tools announce them, and finishes turns with
 * the after-state and diff of every recorded path.
 *
 * <p>A snapshot call appends its before-states to the store's before log ({@link BeforeLog}) and
 * returns only once that append is committed, so a runtime that dies mid-turn keeps every
 * before-state it was told about; the next other transaction on the store (a query, a scan, the
 * finish) folds the log into the turn's records. Calls arriving at the same moment share one
 * transaction ({@link Store#writeInGroup}), each undone alone if it fails. The first before-state
 * of a path in a turn wins, whether it is folded or still in the log. Finishing is one transaction.
 * Files are read (through the workspace boundary) before a transaction begins, so the store's write
 * lock is never held while the file system is slow. Bad input is refused before anything is
 * written.
 */
public final class CaptureService implements AutoCloseable {

  private final Store store;
  private final WorkspaceHandles workspaces;
  private final Tracker tracker;
  private final boolean ownsWorkspaces;
  private final ChangeRecorder recorder = new ChangeRecorder();

  /** Told the row of each turn a finish stored, whose line diffs are pending then. */
  private final LongConsumer afterFinish;

  /**
   * Turns this service saw open, by external id, with the directory states each recorded: their
   * rows' state is checked in each transaction ({@link #onOpenTurn}).
   */
  private final Map<String, OpenTurn> openTurns = new ConcurrentHashMap<>();

  /** A service with its own workspace handles, closed with it. */
  public CaptureService(Store store, BoundaryOptions boundaryOptions) {
    this(
        store, new WorkspaceHandles(store, boundaryOptions), true, WatchOptions.OFF, turnRow -> {});
  }

  /**
   * A service sharing {@code workspaces} with others (rewind, the HTTP service); they outlive it.
   */
  public CaptureService(Store store, WorkspaceHandles workspaces) {
    this(store, workspaces, false, WatchOptions.OFF, turnRow -> {});
  }

  /**
   * As {@link #CaptureService(Store, WorkspaceHandles)}, watching tracked workspaces as {@code
   * watch} says (the service does, so that a finish looks only at what changed), and telling {@code
   * afterFinish} the row of every turn a finish stored, right after its commit: its changes' line
   * diffs are pending then (the caller computes them in the background; until then a query computes
   * them on the spot).
   */
  public CaptureService(
      Store store, WorkspaceHandles workspaces, WatchOptions watch, LongConsumer afterFinish) {
    this(store, workspaces, false, watch, afterFinish);
  }

  private CaptureService(
      Store store,
      WorkspaceHandles workspaces,
      boolean ownsWorkspaces,
      WatchOptions watch,
      LongConsumer afterFinish) {
    this.store = store;
    this.afterFinish = afterFinish;
    this.workspaces = workspaces;
    this.tracker = new Tracker(store, workspaces, watch);
    this.ownsWorkspaces = ownsWorkspaces;
  }

  /** The index keeper of tracked workspaces, sharing this service's workspace handles. */
  public Tracker tracker() {
    return tracker;
  }

  public Store store() {
    return store;
  }

  public WorkspaceHandles workspaces() {
    return workspaces;
  }

  // ---- begin
  // ------------------------------------------------------------------------------------------

  /**
   * Begins a turn in {@code workspace}: in the session {@code session} (created on first use) or in
   * a new session, with the id {@code turn} or a generated one.
   */
  public BeganTurn beginTurn(Path workspace, Optional<String> session, Optional<String> turn) {
    return beginTurn(workspace, session, turn, false, TurnOpening.NONE, true);
  }

  /**
   * As {@link #beginTurn(Path, Optional, Optional)}; with {@code bracketsShellCalls} the turn's
   * runtime tells when each of its shell calls runs ({@link #beginShellCall}, {@link
   * #endShellCall}), so a change made while none of them was in flight is not the turn's own.
   */
  public BeganTurn beginTurn(
      Path workspace, Optional<String> session, Optional<String> turn, boolean bracketsShellCalls) {
    return beginTurn(workspace, session, turn, bracketsShellCalls, TurnOpening.NONE);
  }

  /**
   * As {@link #beginTurn(Path, Optional, Optional, boolean)}; the prompt and the runtime process of
   * {@code opening} are kept in the begin's own transaction.
   */
  public BeganTurn beginTurn(
      Path workspace,
      Optional<String> session,
      Optional<String> turn,
      boolean bracketsShellCalls,
      TurnOpening opening) {
    return beginTurn(workspace, session, turn, bracketsShellCalls, opening, true);
  }

  /**
   * Begins a turn whose prompt came before this call (its hook call waited in the spool while the
   * service was not running): in a tracked workspace the index is not brought up to the tree now,
   * so that what changed since it was last written, which the turn's tools may have made, is found
   * by the turn's finish with the index's before-states, not taken as made between turns.
   */
  public BeganTurn beginLateTurn(
      Path workspace,
      Optional<String> session,
      Optional<String> turn,
      boolean bracketsShellCalls,
      TurnOpening opening) {
    return beginTurn(workspace, session, turn, bracketsShellCalls, opening, false);
  }

  private BeganTurn beginTurn(
      Path workspace,
      Optional<String> session,
      Optional<String> turn,
      boolean bracketsShellCalls,
      TurnOpening opening,
      boolean indexToNow) {
    session.ifPresent(id -> ExternalIds.requireValid("session", id));
    turn.ifPresent(id -> ExternalIds.requireValid("turn", id));
    WorkspaceBoundary boundary = workspaces.openGiven(workspace);
    WorkspaceHandles.Lease lease = null;
    try {
      Optional<Long> known =
          store
              .read(tx -> tx.workspaces().byRealRoot(boundary.rootReal().toString()))
              .map(StoredWorkspace::id);
      Registered began;
      if (known.isPresent() && tracker.isTracked(known.get()) && indexToNow) {
        lease = workspaces.adopt(known.get(), boundary);
        // the turn's before-state is the tree now; what changed since the index was written and no
        // open turn could have made goes in a turn of its own, outside any turn, just before it
        WorkspaceBoundary held = lease.boundary();
        began =
            recordChangesSinceTheIndex(
                known.get(),
                held,
                true,
                (tx, outside) ->
                    register(
                        tx, workspace, held, session, turn, bracketsShellCalls, opening, outside));
        began.outsideTurn().ifPresent(outside -> afterFinish.accept(outside.id()));
      } else {
        if (known.isPresent() && tracker.isTracked(known.get())) {
          lease = workspaces.adopt(known.get(), boundary);
        }
        began =
            store.write(
                tx ->
                    register(
                        tx,
                        workspace,
                        boundary,
                        session,
                        turn,
                        bracketsShellCalls,
                        opening,
                        OutsideChanges.NONE));
      }
      if (lease == null) {
        lease = workspaces.adopt(began.workspaceId(), boundary);
      }
      // Seen open, committed: its first call need not ask the store (a read that finds another
      // turn's calls in the before log folds them first, and two agents' turns interleave calls).
      openTurns.put(began.turn().turn(), OpenTurn.of(began.begun()));
      return began.turn();
    } catch (RuntimeException e) {
      if (lease == null) {
        // once adopted, the handles own the boundary (or closed it in favour of the held one)
        boundary.close();
      }
      throw e;
    } finally {
      if (lease != null) {
        lease.close();
      }
    }
  }

  /**
   * Registers the workspace (or finds it) and begins the turn in one transaction: the turn's id is
   * new, and its session is the one given (in this workspace) or a new one. The opening's prompt
   * and runtime process go in the same transaction: each in a write of its own after the begin cost
   * a prompt two more commits (docs/performance.md, "A prompt's begin in one commit").
   */
  private Registered register(
      StoreTransaction tx,
      Path workspace,
      WorkspaceBoundary boundary,
      Optional<String> session,
      Optional<String> turn,
      boolean bracketsShellCalls,
      TurnOpening opening,
      OutsideChanges outside) {
    StoredWorkspace registered =
        tx.workspaces()
            .register(
                workspace.toString(),
                boundary.rootReal().toString(),
                boundary.rootDevice(),
                boundary.rootInode());
    String turnId = turn.orElseGet(() -> ExternalIds.generate("turn"));
    if (tx.turns().byExternalId(turnId).isPresent()) {
      throw new RequestException(
          RequestException.Problem.ALREADY_EXISTS, "turn '" + turnId + "' already exists");
    }
    Optional<StoredSession> existing = sessionOfThisWorkspace(tx, session, registered, boundary);
    StoredSession chosen =
        existing.orElseGet(
            () ->
                tx.sessions()
                    .create(
                        session.orElseGet(() -> ExternalIds.generate("session")), registered.id()));
    Optional<StoredTurn> outsideTurn = outside.storeIn(tx, recorder, chosen);
    StoredTurn begun = tx.turns().begin(turnId, chosen, TurnKind.AGENT);
    if (bracketsShellCalls) {
      tx.turns().markBracketingCalls(begun.id());
    }
    opening.runtime().ifPresent(runtime -> tx.turns().recordRuntime(begun.id(), runtime));
    if (opening.prompt().isPresent() && tx.prompts().kept()) {
      tx.prompts().record(begun.id(), opening.prompt().get());
    }
    return new Registered(
        registered.id(),
        new BeganTurn(
            chosen.externalId(),
            begun.externalId(),
            begun.seq(),
            boundary.rootReal(),
            existing.isEmpty(),
            boundary.kind()),
        begun,
        outsideTurn);
  }

  /**
   * The stored session {@code session} names, if there is one; a session is bound to the workspace
   * it began in, so one of another workspace is refused (naming the host that records it when it is
   * not this one's).
   */
  private Optional<StoredSession> sessionOfThisWorkspace(
      StoreTransaction tx,
      Optional<String> session,
      StoredWorkspace registered,
      WorkspaceBoundary boundary) {
    Optional<StoredSession> existing = session.flatMap(id -> tx.sessions().byExternalId(id));
    if (existing.isPresent() && existing.get().workspaceId() != registered.id()) {
      StoredWorkspace theirs = tx.workspaces().byId(existing.get().workspaceId()).orElseThrow();
      if (!theirs.heldBy(store.host())) {
        throw new RequestException(
            RequestException.Problem.WORKSPACE,
            "session '"
                + session.get()
                + "' works in workspace "
                + theirs.rootReal()
                + " of host "
                + theirs.host().orElseThrow()
                + ": a service on this host ("
                + store.host()
                + ") records no turn in it");
      }
      throw new RequestException(
          RequestException.Problem.WORKSPACE,
          "session '" + session.get() + "' works in another workspace, not " + boundary.rootReal());
    }
    return existing;
  }

  /**
   * A begun turn, the stored workspace it is in, and the turn outside any turn recorded just before
   * it, if its begin found changes no turn made.
   */
  private record Registered(
      long workspaceId, BeganTurn turn, StoredTurn begun, Optional<StoredTurn> outsideTurn) {}

  /**
   * Brings the index up to the tree now, in one transaction with the records of what changed since
   * it was written (in every turn that could have made it, during the calls in flight then), and
   * {@code then} (a shell call beginning or ending: the calls in flight change only at such a
   * commit); returns what {@code then} returned.
   */
  private <T> T recordChangesSinceTheIndex(
      long workspaceId, WorkspaceBoundary boundary, Function<StoreTransaction, T> then) {
    return recordChangesSinceTheIndex(
        workspaceId, boundary, false, (tx, outside) -> then.apply(tx));
  }

  /**
   * As {@link #recordChangesSinceTheIndex(long, WorkspaceBoundary, Function)}; with {@code atBegin}
   * (a turn is beginning) the changes are also read as {@link OutsideChanges}, which {@code then}
   * is given when no open turn could have made them: the user's, between turns. Otherwise, or when
   * a candidate turn took them, {@code then} is given {@link OutsideChanges#NONE}.
   */
  private <T> T recordChangesSinceTheIndex(
      long workspaceId,
      WorkspaceBoundary boundary,
      boolean atBegin,
      BiFunction<StoreTransaction, OutsideChanges, T> then) {
    for (int attempt = 1; ; attempt++) {
      Tracker.Comparison comparison = tracker.changes(workspaceId);
      Instant now = store.clock().instant();
      List<Snapshot> befores =
          comparison.changes().stream()
              .map(change -> Tracker.before(change, boundary, now))
              .toList();
      OutsideChanges outside =
          atBegin
              ? OutsideChanges.read(store, recorder, boundary, comparison, befores)
              : OutsideChanges.NONE;
      Optional<T> written =
          store.write(
              tx -> {
                if (!tracker.absorb(tx, workspaceId, comparison)) {
                  return Optional.empty(); // another scan wrote the index meanwhile: scan again
                }
                if (!befores.isEmpty()) {
                  // a shell call's hooks mostly find nothing changed: no turn's records are read
                  placeFound(tx, workspaceId, comparison, befores);
                }
                // an open turn could have made them (it took them, or a directory it will see)
                boolean noTurnMadeThem =
                    !outside.isEmpty() && !CandidateTurns.anyOpenIn(tx, workspaceId);
                return Optional.of(then.apply(tx, noTurnMadeThem ? outside : OutsideChanges.NONE));
              });
      if (written.isPresent()) {
        return written.get();
      }
      if (attempt >= FINISH_ATTEMPTS) {
        throw new RequestException(
            RequestException.Problem.WRONG_STATE,
            "the index of workspace "
                + boundary.rootReal()
                + " kept being rewritten by other scans: try again");
      }
    }
  }

  /** Records each change the scan found in every turn that could have made it, within tx. */
  private void placeFound(
      StoreTransaction tx,
      long workspaceId,
      Tracker.Comparison comparison,
      List<Snapshot> befores) {
    CandidateTurns open = CandidateTurns.openIn(tx, workspaceId, tracker.watches());
    for (int i = 0; i < befores.size() && !open.isEmpty(); i++) {
      PathChange change = comparison.changes().get(i);
      open.noteLaterCalls(change.path(), befores.get(i));
      open.place(change.path(), befores.get(i), change.ignoredByGit(), Optional.empty());
    }
  }

  // ---- shell calls in flight
  // --------------------------------------------------------------------------

  /**
   * A shell call of the turn begins (its runtime's Pre hook): it is in flight until {@link
   * #endShellCall}, and owns what changes meanwhile. While this service watches the tracked
   * workspace, what changed before it began is recorded first, during the calls in flight until
   * now, in the transaction that marks it in flight (a scan of the watcher's dirty set); otherwise
   * the call is only recorded, and a scan's change is the turn's with no call.
   */
  public void beginShellCall(String turnId, ShellCall call) {
    onOpenTurn(
        turnId,
        open ->
            atCallBoundary(
                open.row(),
                tx ->
                    tx.toolCalls()
                        .beginShell(
                            open.row().id(), call.toolCall(), call.toolName(), call.command())));
  }

  /**
   * The shell call {@code toolCall} of the turn ends (its runtime's Post hook): what the watcher
   * saw change while it was in flight is recorded as made during it (and during every other call in
   * flight with it), in the transaction that ends it. False when the turn has no such call in
   * flight (its Pre never came, or it ended already).
   */
  public boolean endShellCall(String turnId, String toolCall) {
    ExternalIds.requireValid("tool call", toolCall);
    return onOpenTurn(
        turnId,
        open -> atCallBoundary(open.row(), tx -> tx.toolCalls().end(open.row().id(), toolCall)));
  }

  private <T> T atCallBoundary(StoredTurn turn, Function<StoreTransaction, T> mark) {
    Function<StoreTransaction, T> checked =
        tx -> {
          requireStillOpen(tx, turn);
          return mark.apply(tx);
        };
    if (!tracker.watches() || !tracker.isTracked(turn.workspaceId())) {
      return store.write(checked);
    }
    try (WorkspaceHandles.Lease lease = workspaces.borrow(turn.workspaceId())) {
      return recordChangesSinceTheIndex(turn.workspaceId(), lease.boundary(), checked);
    }
  }

  // ---- snapshot
  // ---------------------------------------------------------------------------------------

  /**
   * {@link #snapshot(String, Optional, List)} of paths given as text (fixed names: tests, the demo,
   * the bench). A {@code Collection} rather than a {@code List} only because two lists would erase
   * to one signature.
   */
  public List<SnapshotVerdict> snapshot(
      String turnId, Optional<String> toolCall, Collection<String> textPaths) {
    return snapshot(turnId, toolCall, PathInput.texts(textPaths));
  }

  /**
   * Records the before-state of {@code paths} for the tool call {@code toolCall} (generated when
   * empty), in one transaction: every path is parsed first, so that one bad path records nothing.
   */
  public List<SnapshotVerdict> snapshot(
      String turnId, Optional<String> toolCall, List<PathInput> paths) {
    return snapshot(turnId, toolCall, Optional.empty(), paths);
  }

  /**
   * As {@link #snapshot(String, Optional, List)}, the tool call keeping {@code toolName}: the
   * runtime's name of the tool that is about to act ({@code Write}, {@code Edit}, {@code
   * write_file}), which a file's record lists among its tools, in the order of the calls.
   */
  public List<SnapshotVerdict> snapshot(
      String turnId, Optional<String> toolCall, Optional<String> toolName, List<PathInput> paths) {
    NamedCall call = NamedCall.of(toolCall, toolName, paths);
    return onOpenTurn(turnId, open -> snapshot(open, call, paths, Optional.empty()));
  }

  /**
   * Records that the tool call {@code toolCall} named {@code paths} after it ran (its hook call
   * waited in the spool while the service was not running), so their before-states are gone from
   * the tree: in a tracked workspace nothing is recorded now, and the turn's finish finds what
   * changed with the index's before-states; elsewhere each path inside the workspace is recorded
   * with an unknown before-state, not captured, {@code why} saying so (a path outside is recorded
   * as any snapshot records it).
   */
  public List<SnapshotVerdict> snapshotLate(
      String turnId,
      Optional<String> toolCall,
      Optional<String> toolName,
      List<PathInput> paths,
      String why) {
    NamedCall call = NamedCall.of(toolCall, toolName, paths);
    return onOpenTurn(
        turnId,
        open ->
            tracker.isTracked(open.row().workspaceId())
                ? List.of()
                : snapshot(
                    open, call, paths, Optional.of(new NotCaptured(Reason.UNREADABLE, why))));
  }

  /** A snapshot's tool call as its caller names it: its id and its tool's name, when known. */
  private record NamedCall(Optional<String> id, Optional<String> toolName) {

    /** The call, refused before anything is read when its id or its paths are no call's. */
    static NamedCall of(Optional<String> id, Optional<String> toolName, List<PathInput> paths) {
      id.ifPresent(given -> ExternalIds.requireValid("tool call", given));
      if (paths.isEmpty()) {
        throw new RequestException(
            RequestException.Problem.BAD_INPUT, "snapshot needs at least one path");
      }
      return new NamedCall(id, toolName);
    }
  }

  private List<SnapshotVerdict> snapshot(
      OpenTurn open, NamedCall call, List<PathInput> paths, Optional<NotCaptured> late) {
    Optional<String> toolCall = call.id();
    StoredTurn turn = open.row();
    List<GivenPath> inputs = new ArrayList<>();
    List<Observation> observations = new ArrayList<>();
    Map<WorkspacePath, DirectoryState> recordedDirectories = open.directories();
    List<DirectoryState> directories;
    try (WorkspaceHandles.Lease lease = workspaces.borrow(turn.workspaceId())) {
      WorkspaceBoundary boundary = lease.boundary();
      List<RequestedPath> requests = new ArrayList<>(paths.size());
      try {
        for (PathInput path : paths) {
          requests.add(boundary.parse(path));
        }
      } catch (BadPathException e) {
        throw new RequestException(RequestException.Problem.BAD_INPUT, e.getMessage());
      }
      List<List<Observation>> read = read(boundary, requests);
      for (int r = 0; r < requests.size(); r++) {
        for (Observation observation : read.get(r)) {
          inputs.add(requests.get(r).given());
          observations.add(late.map(why -> unknownBefore(observation, why)).orElse(observation));
        }
      }
      List<WorkspacePath> namedDirectories =
          observations.stream()
              .map(Observation::snapshot)
              .filter(
                  snapshot ->
                      snapshot.type().filter(type -> type == FileType.DIRECTORY).isPresent())
              .map(Snapshot::path)
              .toList();
      directories =
          late.isPresent()
              ? List.of() // the directories above are as the tool left them, too
              : new DirectoryFacts(boundary, recordedDirectories)
                      .aboveAndAt(
                          observations.stream()
                              .map(observation -> observation.snapshot().path())
                              .toList(),
                          namedDirectories)
                      .stream()
                      .filter(directory -> !recordedDirectories.containsKey(directory.path()))
                      .toList();
    }
    String callId = toolCall.orElseGet(() -> ExternalIds.generate("call"));
    long calledAt = store.clock().millis();
    // the call appends its before-states to the before log, which the next other transaction folds
    // into the turn's records (BeforeLog); concurrent snapshot calls (tool calls of several
    // sessions, hooks) share one commit, and each returns once its own rows are committed
    CallBefores.Call named = new CallBefores.Call(turn.id(), callId, call.toolName(), calledAt);
    List<SnapshotVerdict> verdicts =
        store.writeInGroup(
            tx -> {
              requireStillOpen(tx, turn);
              directories.forEach(
                  directory -> tx.directoryChanges().recordBefore(turn.id(), directory));
              return CallBefores.append(tx, named, inputs, observations);
            });
    directories.forEach(directory -> recordedDirectories.putIfAbsent(directory.path(), directory));
    return verdicts;
  }

  /**
   * What the boundary saw at each requested path (a path reached through a link: the link and what
   * it reaches), the content of a file it read stored or held for the call's append. A call naming
   * many paths reads them on the common pool, as a finish reads its files.
   */
  private List<List<Observation>> read(WorkspaceBoundary boundary, List<RequestedPath> requests) {
    BlobSink sink = BlobSink.storing(store);
    Function<RequestedPath, List<Observation>> observe =
        request -> boundary.observeCapturing(request, sink);
    return requests.size() < CallBefores.PARALLEL_PATHS
        ? requests.stream().map(observe).toList()
        : requests.parallelStream().map(observe).toList();
  }

  /**
   * The state of a path inside the workspace, looked at after the tool ran, as the before-state it
   * is not: unknown, not captured, {@code why}. A path outside, or a link out, keeps what the
   * boundary said.
   */
  private static Observation unknownBefore(Observation observation, NotCaptured why) {
    Snapshot now = observation.snapshot();
    if (now.containment() == Containment.OUTSIDE || now.containment() == Containment.ESCAPED) {
      return observation;
    }
    return new Observation(
        Snapshot.unknown(now.path(), now.boundary(), why, now.takenAt()),
        observation.via(),
        Optional.empty());
  }

  /**
   * Serves {@code request} on the open turn {@code turnId}: the turn as this service saw it open
   * ({@link #openTurns}, checked again inside the request's write transaction), else as the store
   * holds it.
   *
   * <p>A turn seen open may since have been finished by another service over the same store, or
   * finished, collected and begun again under the same id (a hook's generated ids count a session's
   * turns), which is another row. Its request is refused by that check ({@link #requireStillOpen})
   * and its write rolled back; the turn is forgotten then, and when it was the remembered turn, the
   * request is served once more on the turn the store holds under the id now ({@link #readOpen}
   * refuses it in turn if none is open).
   */
  private <T> T onOpenTurn(String turnId, Function<OpenTurn, T> request) {
    ExternalIds.requireValid("turn", turnId);
    OpenTurn remembered = openTurns.get(turnId);
    OpenTurn open = remembered != null ? remembered : readOpen(turnId);
    try {
      return request.apply(open);
    } catch (RequestException refused) {
      if (!endedMeanwhile(open, refused)) {
        throw refused;
      }
      openTurns.remove(turnId, open);
      if (remembered == null) {
        throw refused;
      }
      return request.apply(readOpen(turnId));
    }
  }

  /**
   * Whether {@code refused} says that the turn row {@code open} is not open any more (finished or
   * gone), rather than refusing the request for another reason on a turn still open (a finish that
   * kept moving): that one is neither forgotten nor served again. Read without folding the before
   * log, which holds no turn's state. A read that fails leaves the refusal as it was, with the
   * failure attached: the next request naming the turn asks again.
   */
  private boolean endedMeanwhile(OpenTurn open, RequestException refused) {
    if (refused.problem() != RequestException.Problem.WRONG_STATE
        && refused.problem() != RequestException.Problem.UNKNOWN_TURN) {
      return false;
    }
    try {
      Optional<TurnState> now = store.readWithoutFolding(tx -> tx.turns().state(open.row()));
      return !now.equals(Optional.of(TurnState.OPEN));
    } catch (RuntimeException unread) {
      refused.addSuppressed(unread);
      return false;
    }
  }

  /**
   * The open turn {@code turnId} as the store holds it, remembered as seen open; when this service
   * remembers that same row already (another request read it meanwhile), that one, with the
   * directories it recorded.
   */
  private OpenTurn readOpen(String turnId) {
    // a fold writes no turn's row; a one-shot command's snapshot call, the first of its process,
    // would otherwise fold the call before it ahead of its own append
    StoredTurn row = store.readWithoutFolding(tx -> requireOpen(tx, turnId));
    return openTurns.merge(
        turnId, OpenTurn.of(row), (kept, read) -> kept.isRow(read.row()) ? kept : read);
  }

  /**
   * Inside a write transaction: {@code turn}, the row this service read, is still open. Another
   * process may have finished it, or finished and collected it, since ({@link #onOpenTurn}).
   */
  static void requireStillOpen(StoreTransaction tx, StoredTurn turn) {
    Optional<TurnState> state = tx.turns().state(turn);
    if (state.isPresent() && state.get() == TurnState.OPEN) {
      return;
    }
    throw state.isEmpty()
        ? new RequestException(
            RequestException.Problem.UNKNOWN_TURN,
            "turn '" + turn.externalId() + "' does not exist (any more)")
        : new RequestException(
            RequestException.Problem.WRONG_STATE,
            "turn '" + turn.externalId() + "' is " + state.get().code() + ", not open");
  }

  /** Inside a transaction: the turn {@code turnId}, refused unless it is open. */
  static StoredTurn requireOpen(StoreTransaction tx, String turnId) {
    StoredTurn turn = tx.turns().require(turnId);
    if (turn.state() != TurnState.OPEN) {
      throw new RequestException(
          RequestException.Problem.WRONG_STATE,
          "turn '" + turnId + "' is " + turn.state().code() + ", not open");
    }
    return turn;
  }

  // ---- finish
  // -----------------------------------------------------------------------------------------

  /**
   * Takes the after-state of every path the turn recorded (read, hashed, compressed), classifies
   * each change and closes the turn in one transaction. The line diffs and line counts are left
   * pending: the {@code afterFinish} listener is told the turn, and a query computes a pending one
   * on the spot.
   */
  public TurnSummary finishTurn(String turnId) {
    return onOpenTurn(
        turnId,
        open -> {
          TurnSummary summary;
          try (WorkspaceHandles.Lease lease = workspaces.borrow(open.row().workspaceId())) {
            summary = finishTurn(open.row(), lease.boundary());
          }
          // finished, the turn is not open: kept, its next request would only be refused
          openTurns.remove(turnId, open);
          return summary;
        });
  }

  /** How many times a finish reads again after its store write found the turn or index moved. */
  private static final int FINISH_ATTEMPTS = 16;

  /**
   * Finishes the turn in attempts ({@link TurnFinish}): each reads what the turn recorded and what
   * the scan found, then stores it in one transaction unless a snapshot call, or another turn's
   * begin or finish in the workspace, moved the turn's records or the index meanwhile (each turn
   * finishing at once in one workspace makes the others read again once).
   */
  private TurnSummary finishTurn(StoredTurn turn, WorkspaceBoundary boundary) {
    for (int attempt = 1; ; attempt++) {
      TurnFinish finish = new TurnFinish(store, tracker, recorder, boundary, turn);
      Optional<TurnSummary> summary = store.write(finish::store);
      if (summary.isPresent()) {
        afterFinish.accept(turn.id());
        return summary.get();
      }
      if (attempt >= FINISH_ATTEMPTS) {
        throw new RequestException(
            RequestException.Problem.WRONG_STATE,
            "turn '"
                + turn.externalId()
                + "' kept receiving snapshots (or its workspace rescans) while it was being finished");
      }
    }
  }

  @Override
  public void close() {
    tracker.closeWatches();
    if (ownsWorkspaces) {
      workspaces.close();
    }
  }
}
