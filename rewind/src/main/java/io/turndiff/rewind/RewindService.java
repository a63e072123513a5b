package io.turndiff.rewind;

import io.turndiff.boundary.ContentSink;
import io.turndiff.boundary.Observation;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.boundary.WriteOutcome;
import io.turndiff.capture.record.BlobSink;
import io.turndiff.capture.record.ChangeRecorder;
import io.turndiff.capture.workspace.WorkspaceHandles;
import io.turndiff.diff.ReverseMerge;
import io.turndiff.model.DetectedBy;
import io.turndiff.model.ExternalIds;
import io.turndiff.model.FileType;
import io.turndiff.model.Presence;
import io.turndiff.model.Reason;
import io.turndiff.model.RequestException;
import io.turndiff.model.RewindStatus;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.TurnKind;
import io.turndiff.model.TurnState;
import io.turndiff.model.WorkspacePath;
import io.turndiff.rewind.RewindDecision.Action;
import io.turndiff.rewind.RewindDecision.AlreadyThere;
import io.turndiff.rewind.RewindDecision.Leave;
import io.turndiff.rewind.RewindDecision.Write;
import io.turndiff.store.Store;
import io.turndiff.store.StoreTransaction;
import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredRewindDirectory;
import io.turndiff.store.StoredRewindEntry;
import io.turndiff.store.StoredRewindOperation;
import io.turndiff.store.StoredSession;
import io.turndiff.store.StoredTurn;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Puts turns back: the before-state of every path the turns recorded, and nothing else.
 *
 * <p>A rewind is planned completely before its first write (turns, chains of states per path, captured
 * before-states, stored content), and the plan is stored with the operation. Then, path by path, the
 * current state is read through the boundary immediately before writing, and stored completely whatever its
 * size (a path whose state cannot be read and stored is never written over): a file that provably still
 * holds what the turns left is restored; one changed since gets the turns' own hunks reversed on top of the
 * change when they apply cleanly ({@code merged}), else it is skipped as a {@code conflict} ({@code force}
 * overwrites a conflict whose current state can itself be put back, and never deletes); one whose after-state
 * was not captured is {@code unverified} unless {@code force}. Each path is journaled before
 * and after its write, and the state it had before the rewind is recorded as a turn of kind {@code rewind},
 * so that rewinding that turn undoes the rewind. Running an operation id again returns its receipt; an
 * operation interrupted by a crash is finished by the next run of its id.
 */
public final class RewindService {

  /** How many journaled temporary names a path's write tries before it is refused (each one taken). */
  private static final int TEMPORARY_NAME_ATTEMPTS = 16;

  private final Store store;
  private final WorkspaceHandles workspaces;
  private final Runnable beforeEachRename;
  private final OperationClaims claims;
  private final ChangeRecorder recorder = new ChangeRecorder();

  public RewindService(Store store, WorkspaceHandles workspaces) {
    this(store, workspaces, Duration.ZERO);
  }

  /** @param pauseBeforeEachWrite a test hook: how long to wait before renaming each staged path into place */
  public RewindService(Store store, WorkspaceHandles workspaces, Duration pauseBeforeEachWrite) {
    this(store, workspaces, () -> pause(pauseBeforeEachWrite));
  }

  /** @param beforeEachRename a test hook: run before each staged path is renamed into place */
  public RewindService(Store store, WorkspaceHandles workspaces, Runnable beforeEachRename) {
    this.store = store;
    this.workspaces = workspaces;
    this.beforeEachRename = beforeEachRename;
    this.claims = new OperationClaims(store);
  }

  public RewindReport rewind(RewindRequest request) {
    return rewind(request, RewindStarted.NONE);
  }

  /**
   * Rewinds, or resumes the unfinished operation that already covers the request's turns.
   *
   * @param started told the operation's id once it is stored, before the first write
   */
  public RewindReport rewind(RewindRequest request, RewindStarted started) {
    ExternalIds.requireValid("turn", request.turn());
    request.operation().ifPresent(id -> ExternalIds.requireValid("operation", id));
    Optional<StoredRewindOperation> existing = request.operation()
        .flatMap(id -> store.read(tx -> tx.rewinds().byExternalId(id)));
    if (existing.isPresent()) {
      StoredRewindOperation operation = existing.get();
      requireSameRequest(operation, request);
      if (operation.done() || request.dryRun()) {
        return receipt(operation, true, request.dryRun());
      }
      return resume(operation, started);
    }
    Optional<StoredRewindOperation> unfinished = store.read(tx -> unfinishedCovering(tx, request));
    if (unfinished.isPresent()) {
      StoredRewindOperation operation = unfinished.get();
      requireResumable(operation, request);
      return request.dryRun() ? receipt(operation, true, true) : resume(operation, started);
    }
    Plan plan = plan(request);
    String operationId = request.operation().orElseGet(() -> ExternalIds.generate("rewind"));
    // borrowed before the plan is stored: a workspace that cannot be opened now fails the request unwritten
    try (WorkspaceHandles.Lease lease = workspaces.borrow(plan.session().workspaceId())) {
      if (request.dryRun()) {
        return dryRun(operationId, plan, request.force(), lease.boundary());
      }
      // released also when the transaction that created it rolled back: its row id may be handed out again
      List<StoredRewindOperation> claimed = new ArrayList<>(1);
      return claims.releasingAfter(claimed, () -> {
        Persisted persisted = store.write(tx -> {
          Optional<StoredRewindOperation> raced = operationStoredMeanwhile(tx, operationId, request);
          if (raced.isPresent()) {
            return new Persisted(raced.get(), false);
          }
          // planned again in the transaction that stores the plan: the turns may have changed since the look
          StoredRewindOperation created = persist(tx, operationId, plan(tx, request), request);
          claims.claimNew(tx, created);
          claimed.add(created);
          return new Persisted(created, true);
        });
        StoredRewindOperation operation = persisted.operation();
        if (!persisted.created()) {
          return resume(operation, started);
        }
        return apply(operation, request.force(), false, started,
            store.read(tx -> tx.turns().byId(operation.rewindTurnId())).orElseThrow(), lease.boundary());
      });
    }
  }

  /** The operation a request stored, or found stored by another request that ran at the same time. */
  private record Persisted(StoredRewindOperation operation, boolean created) {
  }

  /**
   * An operation that another request, running at the same time as this one, stored after this one looked
   * (two processes that rewind the same turns at once both find none when they look): the operation of the
   * same id, or an unfinished one covering the request's turns. It is resumed (or its receipt returned), or
   * the request is refused, as when it is found before planning.
   */
  private static Optional<StoredRewindOperation> operationStoredMeanwhile(StoreTransaction tx, String operationId,
                                                                          RewindRequest request) {
    Optional<StoredRewindOperation> sameId = tx.rewinds().byExternalId(operationId);
    if (sameId.isPresent()) {
      requireSameRequest(sameId.get(), request);
      return sameId;
    }
    Optional<StoredRewindOperation> covering = unfinishedCovering(tx, request);
    covering.ifPresent(operation -> requireResumable(operation, request));
    return covering;
  }

  private RewindReport resume(StoredRewindOperation operation, RewindStarted started) {
    claims.claim(operation);
    return claims.releasingAfter(List.of(operation), () -> {
      // another process may have finished it between the look that found it and this claim
      StoredRewindOperation now = store.read(tx -> tx.rewinds().byExternalId(operation.externalId())).orElseThrow();
      return now.done() ? receipt(now, true, false) : apply(operation, operation.force(), true, started);
    });
  }

  /**
   * An operation still applying (interrupted, or running now) that rewinds one of the turns the request
   * names: a second rewind of those turns would find their files half-written and leave the first one's
   * staged files behind, so it resumes that operation instead, or is refused.
   */
  private static Optional<StoredRewindOperation> unfinishedCovering(StoreTransaction tx, RewindRequest request) {
    return tx.turns().byExternalId(request.turn()).flatMap(target -> {
      java.util.Set<String> requested = new java.util.HashSet<>();
      if (request.to()) {
        tx.turns().ofSession(target.sessionId()).stream().filter(turn -> turn.seq() >= target.seq())
            .forEach(turn -> requested.add(turn.externalId()));
      } else {
        requested.add(target.externalId());
      }
      return tx.rewinds().applyingIn(target.sessionId()).stream()
          .filter(operation -> operation.turns().stream().anyMatch(requested::contains)).findFirst();
    });
  }

  /** The same request as the unfinished operation's, with no other operation id: it resumes the operation. */
  private static void requireResumable(StoredRewindOperation operation, RewindRequest request) {
    boolean same = operation.targetTurn().equals(request.turn()) && operation.scope().equals(request.scope())
        && operation.force() == request.force();
    if (same && request.operation().isEmpty()) {
      return;
    }
    throw new RequestException(RequestException.Problem.WRONG_STATE, "turn '" + request.turn()
        + "' is part of rewind operation '" + operation.externalId() + "' (a rewind of turn '"
        + operation.targetTurn() + "'" + (operation.scope().equals("to") ? " and every later turn" : "")
        + (operation.force() ? ", with --force" : "") + "), which has not finished; finish it first: turndiff rewind"
        + " --turn " + operation.targetTurn() + (operation.scope().equals("to") ? " --to" : "")
        + (operation.force() ? " --force" : "") + " --operation " + operation.externalId());
  }

  private static void requireSameRequest(StoredRewindOperation operation, RewindRequest request) {
    if (!operation.targetTurn().equals(request.turn()) || !operation.scope().equals(request.scope())
        || operation.force() != request.force()) {
      throw new RequestException(RequestException.Problem.BAD_INPUT, "operation '" + operation.externalId()
          + "' was a rewind of turn '" + operation.targetTurn() + "' (" + operation.scope()
          + (operation.force() ? ", force" : "") + "), not this request");
    }
  }

  // ---- planning ---------------------------------------------------------------------------------------

  /** One path's place in the plan. */
  private record PlannedPath(WorkspacePath path, long targetRow, Snapshot target, Optional<Long> expectedRow,
                             Optional<Snapshot> expected, RewindStatus status, Optional<String> reason,
                             Optional<String> detail) {
  }

  private record Plan(StoredTurn target, StoredSession session, List<StoredTurn> turns, List<PlannedPath> paths) {
  }

  private Plan plan(RewindRequest request) {
    return store.read(tx -> plan(tx, request));
  }

  private static Plan plan(StoreTransaction tx, RewindRequest request) {
    StoredTurn target = tx.turns().byExternalId(request.turn()).orElseThrow(() -> new RequestException(
        RequestException.Problem.UNKNOWN_TURN, "turn '" + request.turn() + "' does not exist"));
    List<StoredTurn> turns = request.to()
        ? tx.turns().ofSession(target.sessionId()).stream().filter(turn -> turn.seq() >= target.seq()).toList()
        : List.of(target);
    for (StoredTurn turn : turns) {
      if (turn.state() == TurnState.OPEN) {
        throw new RequestException(RequestException.Problem.WRONG_STATE, "turn '" + turn.externalId()
            + "' is open; finish it before rewinding it");
      }
    }
    if (!request.to() && target.state() == TurnState.REWOUND) {
      // a rewind that left files or directories (conflicts, refusals) may be run again, say with --force; a
      // complete one not
      Optional<StoredRewindOperation> by = tx.rewinds().thatRewound(target.id());
      boolean complete = by.map(op -> tx.rewinds().entries(op.id()).stream()
          .noneMatch(entry -> entry.status() == RewindStatus.SKIPPED)
          && tx.rewindDirectories().of(op.id()).stream()
              .noneMatch(directory -> directory.status() == StoredRewindDirectory.Status.SKIPPED)).orElse(true);
      if (complete) {
        throw new RequestException(RequestException.Problem.WRONG_STATE, "turn '" + target.externalId()
            + "' was already rewound" + by.map(op -> " by operation '" + op.externalId()
                + "'; rewind its turn '" + op.rewindTurn() + "' to undo that rewind").orElse(""));
      }
    }
    Map<WorkspacePath, List<StoredFileChange>> byPath = new TreeMap<>();
    for (StoredTurn turn : turns) {
      for (StoredFileChange change : tx.fileChanges().ofTurn(turn.id())) {
        byPath.computeIfAbsent(change.path(), path -> new ArrayList<>()).add(change);
      }
    }
    Map<Long, StoredTurn> turnsById = new HashMap<>();
    turns.forEach(turn -> turnsById.put(turn.id(), turn));
    java.util.Set<WorkspacePath> directories = new java.util.HashSet<>();
    tx.directoryChanges().ofTurns(turnsById.keySet()).forEach(row -> directories.add(row.path()));
    List<PlannedPath> paths = new ArrayList<>();
    byPath.forEach((path, changes) -> {
      if (!(directories.contains(path) && directoryOnBothSides(changes))) {
        paths.add(planPath(path, changes, turnsById));
      }  // else a directory a snapshot named: the directories' rewind puts its mode back
    });
    StoredSession session = tx.sessions().byExternalId(target.sessionExternalId()).orElseThrow();
    List<StoredTurn> newestFirst = new ArrayList<>(turns);
    newestFirst.sort(Comparator.comparingLong(StoredTurn::seq).reversed());
    return new Plan(target, session, newestFirst, paths);
  }

  /** Whether the path was a directory when the turns first recorded it and when they finished. */
  private static boolean directoryOnBothSides(List<StoredFileChange> changes) {
    return changes.getFirst().before().isDirectory() && changes.getLast().after().filter(Snapshot::isDirectory)
        .isPresent();
  }

  /** One path's place in the plan, by the chain rule over what the turns recorded of it (oldest first). */
  private static PlannedPath planPath(WorkspacePath path, List<StoredFileChange> changes,
                                      Map<Long, StoredTurn> turns) {
    RewindDecision.ChainVerdict verdict = RewindDecision.chain(path, changes.stream()
        .map(change -> new RewindDecision.Step(turns.get(change.turnId()).externalId(), change.before(),
            change.after()))
        .toList());
    StoredFileChange first = changes.getFirst();
    StoredFileChange last = changes.getLast();
    return new PlannedPath(path, first.beforeRow(), first.before(), last.afterRow(), last.after(), verdict.status(),
        verdict.reason(), verdict.detail());
  }

  private StoredRewindOperation persist(StoreTransaction tx, String operationId, Plan plan, RewindRequest request) {
    StoredTurn rewindTurn = tx.turns().begin(ExternalIds.generate("turn"), plan.session(), TurnKind.REWIND);
    StoredRewindOperation operation = tx.rewinds().create(operationId, plan.session().id(), plan.target().id(),
        request.scope(), request.force(), rewindTurn.id(), plan.turns().stream().map(StoredTurn::id).toList());
    for (PlannedPath path : plan.paths()) {
      tx.rewinds().addEntry(operation.id(), path.path(), path.targetRow(), path.expectedRow(), path.status(),
          path.reason(), path.detail());
    }
    return operation;
  }

  // ---- applying ---------------------------------------------------------------------------------------

  /** @param resumed whether an earlier run of the operation may have left staged files behind */
  private RewindReport apply(StoredRewindOperation operation, boolean force, boolean resumed,
                             RewindStarted started) {
    StoredTurn rewindTurn = store.read(tx -> tx.turns().byId(operation.rewindTurnId())).orElseThrow();
    try (WorkspaceHandles.Lease lease = workspaces.borrow(rewindTurn.workspaceId())) {
      return apply(operation, force, resumed, started, rewindTurn, lease.boundary());
    }
  }

  private RewindReport apply(StoredRewindOperation operation, boolean force, boolean resumed,
                             RewindStarted started, StoredTurn rewindTurn, WorkspaceBoundary boundary) {
    started.started(operation.externalId(), resumed);
    List<StoredRewindEntry> entries = store.read(tx -> tx.rewinds().entries(operation.id()));
    Map<Sha256, byte[]> contents = contents(entries);
    long toolCall = store.write(tx -> tx.toolCalls().record(rewindTurn.id(), operation.externalId()));
    DirectoryRewind directories = DirectoryRewind.of(store, boundary, operation.id(), rewindTurn.id(), force,
        operation.turns());
    directories.restore(directories.removedByTurns());
    directories.restoreModesBeforeFiles();
    for (StoredRewindEntry entry : entries) {
      if (entry.status() == RewindStatus.STARTED) {
        resumeStarted(rewindTurn, boundary, entry, contents);
      }
    }
    List<StoredRewindEntry> planned = entries.stream().filter(e -> e.status() == RewindStatus.PLANNED).toList();
    if (resumed) {
      // a run that died between staging and journaling the paths as started left files under journaled names
      planned.forEach(entry -> discardStagedByAnEarlierRun(boundary, entry));
    }
    applyPlanned(rewindTurn, toolCall, boundary, directories, planned, contents, force);
    directories.removeCreated();
    directories.restoreModesAfterFiles();
    finish(operation, rewindTurn, boundary);
    return receipt(store.read(tx -> tx.rewinds().byExternalId(operation.externalId())).orElseThrow(), false, false);
  }

  private Map<Sha256, byte[]> contents(List<StoredRewindEntry> entries) {
    List<Snapshot> snapshots = new ArrayList<>();
    entries.forEach(entry -> {
      snapshots.add(entry.target());
      entry.expected().ifPresent(snapshots::add);
    });
    Map<Sha256, byte[]> contents = new HashMap<>(store.read(tx -> tx.blobs().contentsOf(snapshots)));
    store.read(tx -> {
      entries.forEach(entry -> entry.merged().ifPresent(sha -> contents.computeIfAbsent(sha, tx.blobs()::require)));
      return null;
    });
    return contents;
  }

  /** A path whose write is staged: what it held when decided, and what will be put there. */
  private record Pending(StoredRewindEntry entry, Observation current, Write write, Optional<Sha256> merged,
                         Optional<WriteOutcome.Staged> staged) {
  }

  /**
   * Writes the planned paths in four steps, so that a rewind of many files costs two file-system syncs, not
   * two per file: (1) decide each path on its current state and stage its new content under its temporary
   * name, journaling it as started with its current state recorded in the rewind turn; (2) sync; (3) just
   * before each rename, read the path again, and rename only if it has not changed since it was decided;
   * (4) sync, and journal every path as restored, merged or skipped.
   */
  private void applyPlanned(StoredTurn rewindTurn, long toolCall, WorkspaceBoundary boundary,
                            DirectoryRewind directories, List<StoredRewindEntry> planned,
                            Map<Sha256, byte[]> contents, boolean force) {
    // every staged file is renamed into place or removed, whatever happens on the way (an exception included)
    java.util.Set<WriteOutcome.Staged> uncommitted = new java.util.LinkedHashSet<>();
    try {
      stageAndCommit(rewindTurn, toolCall, boundary, directories, planned, contents, force, uncommitted);
    } finally {
      uncommitted.forEach(boundary::discard);
    }
  }

  /** {@link #applyPlanned}'s steps; {@code uncommitted} holds the staged files not renamed into place yet. */
  private void stageAndCommit(StoredTurn rewindTurn, long toolCall, WorkspaceBoundary boundary,
                              DirectoryRewind directories, List<StoredRewindEntry> planned,
                              Map<Sha256, byte[]> contents, boolean force,
                              java.util.Set<WriteOutcome.Staged> uncommitted) {
    List<Pending> pending = new ArrayList<>();
    Map<Long, Leave> left = new HashMap<>();
    List<StoredRewindEntry> alreadyThere = new ArrayList<>();
    // every name a file is staged under is journaled before the file is made: a run killed before it renamed
    // or removed the file leaves a name the next run finds (and, since no one could know it, a file of its own)
    Map<Long, String> temporaryNames = new HashMap<>();
    planned.forEach(entry -> temporaryNames.put(entry.id(), boundary.newTemporaryName()));
    store.write(tx -> {
      tx.rewinds().journalTemporaryNames(temporaryNames);
      return null;
    });
    for (StoredRewindEntry entry : planned) {
      // decided on the content's hash, as if stored: a path the rewind leaves is never copied into the store
      Observation current = boundary.observeExact(entry.path(), AS_IF_STORED);
      Action action = RewindDecision.decide(entry.target(), entry.expected(), current.snapshot(), current.content(),
          contents, force);
      if (action instanceof Write && current.streamed()) {
        // what a write replaces is stored completely first (the undo puts it back), and decided on again as
        // stored: it may have changed since it was hashed
        current = boundary.observeExact(entry.path(), BlobSink.storing(store));
        action = RewindDecision.decide(entry.target(), entry.expected(), current.snapshot(), current.content(),
            contents, force);
      }
      Observation decided = current;
      switch (action) {
        case Leave leave -> left.put(entry.id(), leave);
        case AlreadyThere there -> alreadyThere.add(entry);
        case Write write -> {
          Optional<Sha256> merged = write.merge() ? write.content().map(Sha256::of) : Optional.empty();
          if (write.putsAFile()) {
            directories.restoreParentsOf(entry.path());
          }
          WriteOutcome staged = underJournaledNames(boundary, entry, temporaryNames.get(entry.id()),
              temporary -> stage(boundary, entry, write, temporary));
          if (staged instanceof WriteOutcome.Staged temporary) {
            uncommitted.add(temporary);
          }
          if (staged instanceof WriteOutcome.Refused refused) {
            left.put(entry.id(), new Leave(SkipReason.REFUSED, refused.reason()));
          } else {
            pending.add(new Pending(entry, decided, write, merged,
                staged instanceof WriteOutcome.Staged temporary ? Optional.of(temporary) : Optional.empty()));
          }
        }
      }
    }
    store.write(tx -> {
      left.forEach((id, leave) -> tx.rewinds().mark(id, RewindStatus.SKIPPED, Optional.of(leave.reason()),
          Optional.of(leave.detail()), Optional.empty()));
      alreadyThere.forEach(entry -> tx.rewinds().mark(entry.id(), RewindStatus.RESTORED, Optional.empty(),
          Optional.of("it already held its before-state"), Optional.empty()));
      for (Pending write : pending) {
        recorder.recordBefore(tx, rewindTurn.id(), toolCall, new Observation(RewindDecision.replaced(write.current().snapshot()),
            write.current().via(), write.current().content(), write.current().streamed()), DetectedBy.SNAPSHOT);
        write.merged().ifPresent(sha -> tx.blobs().put(sha, write.write().content().orElseThrow()));
        tx.rewinds().mark(write.entry().id(), RewindStatus.STARTED, Optional.empty(), Optional.empty(),
            write.merged());
      }
      return null;
    });
    boundary.sync();
    Map<Long, Leave> refused = new HashMap<>();
    for (Pending write : pending) {
      beforeEachRename.run();
      Observation now = boundary.observeExact(write.entry().path(), BlobSink.checking(store));
      if (!RewindDecision.unchangedSinceDecided(write.current().snapshot(), now.snapshot())) {
        write.staged().ifPresent(boundary::discard);
        write.staged().ifPresent(uncommitted::remove);
        refused.put(write.entry().id(), new Leave(SkipReason.CONFLICT, "it changed while the rewind ran"));
        continue;
      }
      WriteOutcome outcome = write.staged().isPresent() ? boundary.commit(write.staged().get())
          : boundary.deleteUnsynced(write.entry().path());
      if (outcome.done()) {
        write.staged().ifPresent(uncommitted::remove);
      }
      if (outcome instanceof WriteOutcome.Refused refusal) {
        refused.put(write.entry().id(), new Leave(SkipReason.REFUSED, refusal.reason()));
      }
    }
    boundary.sync();
    store.write(tx -> {
      for (Pending write : pending) {
        Leave leave = refused.get(write.entry().id());
        if (leave != null) {
          tx.rewinds().mark(write.entry().id(), RewindStatus.SKIPPED, Optional.of(leave.reason()),
              Optional.of(leave.detail()), write.merged());
        } else {
          tx.rewinds().mark(write.entry().id(), write.write().merge() ? RewindStatus.MERGED : RewindStatus.RESTORED,
              Optional.empty(), Optional.empty(), write.merged());
        }
      }
      return null;
    });
  }

  /**
   * Runs {@code attempt} with the temporary name journaled for the entry; when that name is taken (by a file
   * someone else made, which is left alone), journals a fresh one and tries again, a few times.
   */
  private WriteOutcome underJournaledNames(WorkspaceBoundary boundary, StoredRewindEntry entry, String journaled,
                                           java.util.function.Function<String, WriteOutcome> attempt) {
    String temporary = journaled;
    for (int tries = 1; ; tries++) {
      WriteOutcome outcome = attempt.apply(temporary);
      if (!(outcome instanceof WriteOutcome.NameTaken)) {
        return outcome;
      }
      if (tries == TEMPORARY_NAME_ATTEMPTS) {
        return new WriteOutcome.Refused("every temporary name tried beside " + entry.path() + " was taken");
      }
      String next = boundary.newTemporaryName();
      store.write(tx -> {
        tx.rewinds().journalTemporaryNames(Map.of(entry.id(), next));
        return null;
      });
      temporary = next;
    }
  }

  /** Stages the new content of a path; a deletion stages nothing (it happens at commit time). */
  private WriteOutcome stage(WorkspaceBoundary boundary, StoredRewindEntry entry, Write write, String name) {
    Snapshot state = write.state();
    Optional<String> temporary = Optional.of(name);
    if (!write.merge() && state.presence() == Presence.ABSENT) {
      return new WriteOutcome.Done();
    }
    if (!write.merge() && state.type().orElseThrow() == FileType.SYMLINK) {
      return boundary.stageSymlink(entry.path(), state.linkTarget().orElseThrow(), temporary);
    }
    if (write.content().isEmpty()) {
      return boundary.stageFile(entry.path(), store.openContent(state.storedContent().orElseThrow()), write.mode(),
          temporary);
    }
    return boundary.stageFile(entry.path(), write.content().get(), write.mode(), temporary);
  }

  /** One path written on its own, durably (a resumed path). */
  private WriteOutcome write(WorkspaceBoundary boundary, StoredRewindEntry entry, Write write, String name) {
    Snapshot state = write.state();
    Optional<String> temporary = Optional.of(name);
    if (!write.merge() && state.presence() == Presence.ABSENT) {
      return boundary.delete(entry.path());
    }
    if (!write.merge() && state.type().orElseThrow() == FileType.SYMLINK) {
      return boundary.writeSymlink(entry.path(), state.linkTarget().orElseThrow(), temporary);
    }
    if (write.content().isEmpty()) {
      return boundary.writeFile(entry.path(), store.openContent(state.storedContent().orElseThrow()), write.mode(),
          temporary);
    }
    return boundary.writeFile(entry.path(), write.content().get(), write.mode(), temporary);
  }

  /**
   * Removes what a run that did not finish may have staged for the entry: a file under the temporary name it
   * journaled before making it (no one else could know that name; a name it did not journal is never
   * removed, whoever made it).
   */
  private static void discardStagedByAnEarlierRun(WorkspaceBoundary boundary, StoredRewindEntry entry) {
    entry.temporaryName().ifPresent(name -> boundary.discard(new WriteOutcome.Staged(entry.path(), name)));
  }

  /**
   * A path journaled as started by a run that did not finish: its rename either landed (the path holds what
   * was to be written), or never did (it still holds the journaled state, and is written now), or the path
   * changed since (a conflict). A temporary file the run staged is removed first.
   */
  private void resumeStarted(StoredTurn rewindTurn, WorkspaceBoundary boundary, StoredRewindEntry entry,
                             Map<Sha256, byte[]> contents) {
    discardStagedByAnEarlierRun(boundary, entry);
    Observation current = boundary.observeExact(entry.path(), BlobSink.checking(store));
    Snapshot journaled = store.read(tx -> tx.fileChanges().ofTurn(rewindTurn.id()).stream()
        .filter(change -> change.path().equals(entry.path())).findFirst().orElseThrow().before());
    boolean merge = entry.merged().isPresent();
    boolean landed = merge ? current.snapshot().sha256().equals(entry.merged())
        : current.snapshot().sameStateAs(entry.target());
    RewindStatus done = merge ? RewindStatus.MERGED : RewindStatus.RESTORED;
    if (landed) {
      store.write(tx -> {
        tx.rewinds().mark(entry.id(), done, Optional.empty(), Optional.empty(), entry.merged());
        return null;
      });
      return;
    }
    if (!RewindDecision.unchangedSinceDecided(journaled, current.snapshot())) {
      store.write(tx -> {
        tx.rewinds().mark(entry.id(), RewindStatus.SKIPPED, Optional.of(SkipReason.CONFLICT),
            Optional.of("it changed while the rewind was interrupted"), entry.merged());
        return null;
      });
      return;
    }
    Write write = merge
        ? new Write(entry.target(), Optional.of(contents.get(entry.merged().get())),
            journaled.metadata().map(m -> m.mode()).orElse(0644), true)
        : RewindDecision.restore(entry.target(), contents);
    String temporary = boundary.newTemporaryName();
    store.write(tx -> {
      tx.rewinds().journalTemporaryNames(Map.of(entry.id(), temporary));
      return null;
    });
    WriteOutcome outcome = underJournaledNames(boundary, entry, temporary,
        name -> write(boundary, entry, write, name));
    store.write(tx -> {
      if (outcome instanceof WriteOutcome.Refused refused) {
        tx.rewinds().mark(entry.id(), RewindStatus.SKIPPED, Optional.of(SkipReason.REFUSED),
            Optional.of(refused.reason()), entry.merged());
      } else {
        tx.rewinds().mark(entry.id(), done, Optional.empty(), Optional.empty(), entry.merged());
      }
      return null;
    });
  }

  /** Records the after-state of every path the rewind touched, closes the rewind turn and the operation. */
  private void finish(StoredRewindOperation operation, StoredTurn rewindTurn, WorkspaceBoundary boundary) {
    List<StoredFileChange> touched = store.read(tx -> tx.fileChanges().ofTurn(rewindTurn.id()));
    Map<Sha256, byte[]> before = store.read(tx -> tx.blobs().contentsOf(
        touched.stream().map(StoredFileChange::before).toList()));
    List<ChangeRecorder.Completed> completed = new ArrayList<>();
    for (StoredFileChange change : touched) {
      // captured whatever its size, so that undoing this rewind can tell the path still holds what it left
      completed.add(recorder.complete(change, boundary.observeExact(change.path(), BlobSink.storing(store)),
          before));
    }
    DirectoryRewind.recordAfter(store, boundary, rewindTurn);
    store.write(tx -> {
      completed.forEach(done -> recorder.store(tx, done));
      tx.turns().markFinished(rewindTurn.id());
      for (String turn : operation.turns()) {
        tx.turns().markState(tx.turns().byExternalId(turn).orElseThrow().id(), TurnState.REWOUND);
      }
      tx.rewinds().markDone(operation.id());
      return null;
    });
  }

  private static void pause(Duration pause) {
    if (pause.isZero()) {
      return;
    }
    try {
      Thread.sleep(pause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  // ---- reports ----------------------------------------------------------------------------------------

  /**
   * Content over the size limit counts as stored without being stored: what a dry run plans with (it stores
   * nothing, and plans as the real run decides), and what a real run decides with before it stores only what
   * it writes over or deletes.
   */
  private static final ContentSink AS_IF_STORED = new ContentSink() {
    @Override
    public boolean holds(Sha256 sha256) {
      return true;
    }

    @Override
    public Optional<Upload> begin() {
      return Optional.empty();
    }
  };

  private RewindReport dryRun(String operationId, Plan plan, boolean force, WorkspaceBoundary boundary) {
    List<Snapshot> snapshots = new ArrayList<>();
    plan.paths().forEach(path -> {
      snapshots.add(path.target());
      path.expected().ifPresent(snapshots::add);
    });
    Map<Sha256, byte[]> contents = store.read(tx -> tx.blobs().contentsOf(snapshots));
    List<WorkspacePath> restored = new ArrayList<>();
    List<WorkspacePath> merged = new ArrayList<>();
    List<RewindReport.Skipped> skipped = new ArrayList<>();
    List<WorkspacePath> unchanged = new ArrayList<>();
    List<WorkspacePath> written = new ArrayList<>();
    for (PlannedPath path : plan.paths()) {
      switch (path.status()) {
        case UNCHANGED -> unchanged.add(path.path());
        case SKIPPED -> skipped.add(new RewindReport.Skipped(path.path(), path.reason().orElseThrow(),
            path.detail().orElse("")));
        default -> {
          Observation current = boundary.observeExact(path.path(), AS_IF_STORED);
          Action action = RewindDecision.decide(path.target(), path.expected(), current.snapshot(), current.content(),
              contents, force);
          if (action instanceof Write write && write.putsAFile()) {
            written.add(path.path());
          }
          switch (action) {
            case Leave leave -> skipped.add(new RewindReport.Skipped(path.path(), leave.reason(), leave.detail()));
            case Write write when write.merge() -> merged.add(path.path());
            default -> restored.add(path.path());
          }
        }
      }
    }
    List<String> turns = plan.turns().stream().map(StoredTurn::externalId).toList();
    DirectoryRewind.Planned directories = DirectoryRewind.planOnly(store, boundary, force, turns).wouldDo(written);
    skipped.addAll(directories.left());
    return new RewindReport(operationId, true, false, turns, restored, merged, skipped, unchanged, Optional.empty(),
        directories.created(), directories.removed(), directories.modes());
  }

  private RewindReport receipt(StoredRewindOperation operation, boolean replayed, boolean dryRun) {
    List<StoredRewindEntry> entries = store.read(tx -> tx.rewinds().entries(operation.id()));
    List<WorkspacePath> restored = new ArrayList<>();
    List<WorkspacePath> merged = new ArrayList<>();
    List<RewindReport.Skipped> skipped = new ArrayList<>();
    List<WorkspacePath> unchanged = new ArrayList<>();
    for (StoredRewindEntry entry : entries) {
      switch (entry.status()) {
        case RESTORED -> restored.add(entry.path());
        case MERGED -> merged.add(entry.path());
        case SKIPPED -> skipped.add(new RewindReport.Skipped(entry.path(), entry.reason().orElse(""),
            entry.detail().orElse("")));
        case UNCHANGED -> unchanged.add(entry.path());
        case PLANNED, STARTED -> skipped.add(new RewindReport.Skipped(entry.path(), "interrupted",
            "the operation was interrupted before this path; run it again to finish it"));
      }
    }
    List<WorkspacePath> created = new ArrayList<>();
    List<WorkspacePath> removed = new ArrayList<>();
    List<WorkspacePath> modes = new ArrayList<>();
    for (StoredRewindDirectory directory : store.read(tx -> tx.rewindDirectories().of(operation.id()))) {
      switch (directory.status()) {
        case DONE -> (switch (directory.action()) {
          case CREATE -> created;
          case REMOVE -> removed;
          case MODE -> modes;
        }).add(directory.path());
        case SKIPPED -> skipped.add(new RewindReport.Skipped(directory.path(), directory.reason().orElse(""),
            directory.detail().orElse("")));
        case PLANNED -> skipped.add(new RewindReport.Skipped(directory.path(), "interrupted",
            "the operation was interrupted before this directory; run it again to finish it"));
      }
    }
    return new RewindReport(operation.externalId(), dryRun, replayed, operation.turns(), restored, merged, skipped,
        unchanged, Optional.of(operation.rewindTurn()), created, removed, modes);
  }
}
