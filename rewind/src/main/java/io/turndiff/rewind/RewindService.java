package io.turndiff.rewind;

import io.turndiff.boundary.Observation;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.capture.workspace.WorkspaceHandles;
import io.turndiff.model.ExternalIds;
import io.turndiff.model.RequestException;
import io.turndiff.model.Sha256;
import io.turndiff.model.TestHook;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.Store;
import io.turndiff.store.StoreTransaction;
import io.turndiff.store.StoredRewindOperation;
import io.turndiff.store.StoredTurn;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongConsumer;
import java.util.stream.Collectors;

/**
 * Puts turns back: the before-state of every path the turns recorded, and nothing else.
 *
 * <p>A rewind is planned completely before its first write (turns, chains of states per path,
 * captured before-states, stored content), and the plan is stored with the operation. Then, path by
 * path, the current state is read through the boundary immediately before writing, and stored
 * completely whatever its size (a path whose state cannot be read and stored is never written
 * over): a file that provably still holds what the turns left is restored; one changed since gets
 * the turns' own hunks reversed on top of the change when they apply cleanly ({@code merged}), else
 * it is skipped as a {@code conflict} ({@code force} overwrites a conflict whose current state can
 * itself be put back, and never deletes); one whose after-state was not captured is {@code
 * unverified} unless {@code force}. Each path is journaled before and after its write, and the
 * state it had before the rewind is recorded as a turn of kind {@code rewind}, so that rewinding
 * that turn undoes the rewind. Running an operation id again returns its receipt; an operation
 * interrupted by a crash is finished by the next run of its id.
 *
 * <p>This class takes requests: it validates them, replays or resumes an operation by its id, and
 * chooses a dry run or a real one. The work is the {@link RewindPlanner}'s (the plan, from the
 * store), {@link RewindDecision}'s (the rules, pure), the {@link RewindJournal}'s (applying and
 * resuming) and {@link RewindReports}' (what is returned). The whole protocol is in {@code
 * docs/rewind-protocol.md}.
 */
public final class RewindService implements AutoCloseable {

  private final Store store;
  private final WorkspaceHandles workspaces;
  private final OperationClaims claims;
  private final RewindPlanner planner;
  private final RewindJournal journal;
  private final PowerLossRecovery recovery;
  private final RewindReports reports;
  private final SyncsAfterTheAnswer syncs = new SyncsAfterTheAnswer();
  private final TestHook hook;

  public RewindService(Store store, WorkspaceHandles workspaces) {
    this(store, workspaces, TestHook.NONE);
  }

  /**
   * @param hook told {@link TestHook.Point#BEFORE_REWIND_RENAME} before each staged path is renamed
   *     into place, and {@link TestHook.Point#REWIND_DRY_RUN_DONE} between a rewind's dry run and
   *     the transaction that stores its operation
   */
  public RewindService(Store store, WorkspaceHandles workspaces, TestHook hook) {
    this(store, workspaces, hook, turnRow -> {});
  }

  /**
   * @param hook as above
   * @param diffsLater told a rewind turn's row once its operation is done: its line diffs are left
   *     pending, as a finish leaves a turn's, for the caller not to wait for them (the service
   *     computes them in the background; a query that meets one pending computes it on the spot)
   */
  public RewindService(
      Store store, WorkspaceHandles workspaces, TestHook hook, LongConsumer diffsLater) {
    this.store = store;
    this.workspaces = workspaces;
    this.hook = hook;
    this.claims = new OperationClaims(store);
    this.planner = new RewindPlanner(store);
    this.journal = new RewindJournal(store, hook, diffsLater);
    this.recovery = new PowerLossRecovery(store, journal);
    this.reports = new RewindReports(store);
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
    request.beforeToolCall().ifPresent(id -> ExternalIds.requireValid("tool call", id));
    if (request.to() && request.beforeToolCall().isPresent()) {
      throw new RequestException(
          RequestException.Problem.BAD_INPUT,
          "--before-tool-call rewinds part of one turn; it does not go with --to");
    }
    request.hunk().ifPresent(number -> requireOneHunk(request, number));
    NamedPaths named = store.read(tx -> RewindPlanner.named(tx, request));
    Optional<StoredRewindOperation> existing =
        request.operation().flatMap(id -> store.read(tx -> tx.rewinds().byExternalId(id)));
    if (existing.isPresent()) {
      StoredRewindOperation operation = existing.get();
      requireSameRequest(operation, request, named);
      if (operation.done() || request.dryRun()) {
        return reports.receipt(operation, true, request.dryRun());
      }
      return resume(operation, started);
    }
    Optional<StoredRewindOperation> unfinished = store.read(tx -> unfinishedCovering(tx, request));
    if (unfinished.isPresent()) {
      StoredRewindOperation operation = unfinished.get();
      requireResumable(operation, request, named);
      return request.dryRun() ? reports.receipt(operation, true, true) : resume(operation, started);
    }
    // taken before the plan's read: the transaction that stores the plan uses it as it is when
    // nothing was written to the store since, and plans again otherwise
    Optional<Store.ChangeMark> planned = store.changeMark();
    Plan plan = planner.plan(request, named);
    String operationId = request.operation().orElseGet(() -> ExternalIds.generate("rewind"));
    // borrowed before the plan is stored: a workspace that cannot be opened now fails the request
    // unwritten
    try (WorkspaceHandles.Lease lease = workspaces.borrow(plan.session().workspaceId())) {
      if (!request.dryRun()) {
        makeFinishedDurable(plan.session().workspaceId(), lease.boundary(), started);
      }
      RewindReports.DryRun looked =
          reports.dryRun(operationId, plan, request.force(), lease.boundary());
      RewindReport dryRun = looked.report();
      if (request.dryRun()) {
        return dryRun;
      }
      if (putsNothingBack(dryRun)) {
        // everything skipped, in conflict or unchanged: nothing is stored, no rewind turn is added
        // and no turn is marked; the report still names every path it left and why
        return asRun(dryRun);
      }
      // released also when the transaction that created it rolled back: its row id may be handed
      // out again
      List<StoredRewindOperation> claimed = new ArrayList<>(1);
      hook.reached(TestHook.Point.REWIND_DRY_RUN_DONE);
      return claims.releasingAfter(
          claimed,
          () -> {
            Persisted persisted =
                store.write(
                    tx -> {
                      Optional<StoredRewindOperation> raced =
                          operationStoredMeanwhile(tx, operationId, request, named);
                      if (raced.isPresent()) {
                        return new Persisted(raced.get(), false, Map.of());
                      }
                      // the turns may have changed since the look: planned again in the
                      // transaction that stores the plan, unless nothing was written to the store
                      // since the plan was made (the same rows make the same plan; making it again
                      // was a sixth of a rewind's samples, docs/performance.md)
                      Plan stored =
                          planned.filter(store::unchangedSince).isPresent()
                              ? plan
                              : RewindPlanner.plan(tx, request, named, plan.contents());
                      StoredRewindOperation created =
                          RewindPlanner.persist(tx, operationId, stored, request);
                      claims.claimNew(tx, created);
                      claimed.add(created);
                      return new Persisted(created, true, stored.contents());
                    });
            StoredRewindOperation operation = persisted.operation();
            if (!persisted.created()) {
              return resume(operation, started);
            }
            return apply(
                operation,
                request.force(),
                false,
                started,
                store.read(tx -> tx.turns().byId(operation.rewindTurnId())).orElseThrow(),
                lease.boundary(),
                looked.read(),
                persisted.contents());
          });
    }
  }

  /**
   * Makes what a rewind wrote durable, once its caller has the receipt: one {@code syncfs} of the
   * workspace's file system, then the operation marked synced. A rewind returns as soon as its
   * files are in place and its journal says done ({@link RewindReport.Durability#IN_PLACE}); the
   * command line calls this once it has printed its report, the service in the background ({@link
   * #makeDurableLater}). Until it has run, a power loss may take back some of what the rewind
   * wrote, which the next rewind in the workspace redoes from the store ({@link
   * PowerLossRecovery}); if it never runs, that next rewind makes the sync first. The mark is an
   * ordered commit, not a synced one: a power loss that takes it back only has the operation's
   * paths checked once more after the restart.
   *
   * @return whether what the report's run wrote is now known to be on the disk (false for a dry
   *     run, a run that wrote nothing, a receipt asked for again that was not synced, and where the
   *     workspace's file system cannot be synced: the stream fallback)
   */
  public boolean makeDurable(RewindReport report) {
    if (report.durability() != RewindReport.Durability.IN_PLACE) {
      return report.durability() == RewindReport.Durability.SYNCED;
    }
    Optional<StoredRewindOperation> operation =
        store.read(tx -> tx.rewinds().byExternalId(report.operation()));
    if (report.replayed() || operation.isEmpty() || !operation.get().done()) {
      // a receipt asked for again may be of a run from another boot (after a restart), whose
      // writes may be lost: marked synced only once the next rewind in the workspace has checked
      // it, or synced it in this boot (makeFinishedDurable). A run's own report is of this boot
      return false;
    }
    StoredTurn rewindTurn =
        store.read(tx -> tx.turns().byId(operation.get().rewindTurnId())).orElseThrow();
    try (WorkspaceHandles.Lease lease = workspaces.borrow(rewindTurn.workspaceId())) {
      return recovery.syncAndMark(List.of(operation.get()), lease.boundary());
    }
  }

  /**
   * {@link #makeDurable}, on a thread of its own after the caller has gone on (the service's: it
   * answers, then syncs). One that fails or never runs leaves the operation unsynced, which the
   * next rewind of the workspace takes care of.
   */
  public void makeDurableLater(RewindReport report) {
    if (report.durability() == RewindReport.Durability.IN_PLACE) {
      syncs.later(report.operation(), () -> makeDurable(report));
    }
  }

  /** Waits (a while) for the syncs {@link #makeDurableLater} was asked for. */
  @Override
  public void close() {
    syncs.close();
  }

  /**
   * Makes durable the finished rewinds of the workspace whose end never was (their sync failed, or
   * their process died before it), before a new one decides on the files they wrote: one found from
   * another boot first has what a power loss took from it redone from the store ({@link
   * PowerLossRecovery}), and {@code started} is told what was redone; then one sync for all of
   * them. One another process is making durable right now is left to it.
   */
  private void makeFinishedDurable(
      long workspaceId, WorkspaceBoundary boundary, RewindStarted started) {
    List<StoredRewindOperation> settled = new ArrayList<>();
    for (StoredRewindOperation operation :
        store.read(tx -> tx.rewinds().doneUnsyncedIn(workspaceId))) {
      if (!recovery.mayBeFromAnotherBoot(operation)) {
        settled.add(operation);
        continue;
      }
      try {
        claims.claim(operation);
      } catch (RequestException busy) {
        continue; // another process checks it now, and marks it when its own sync is made
      }
      Map<WorkspacePath, String> redone =
          claims.releasingAfter(
              List.of(operation),
              () ->
                  recovery.redoFinished(
                      operation,
                      store.read(tx -> tx.turns().byId(operation.rewindTurnId())).orElseThrow(),
                      boundary));
      settled.add(operation);
      if (!redone.isEmpty()) {
        started.recovered(operation.externalId(), redone);
      }
    }
    recovery.syncAndMark(settled, boundary);
  }

  /**
   * A hunk is one hunk of one file of one turn, reversed only where its context matches: it takes
   * one path, no {@code --to}, no tool call, and no {@code --force} (which would write the
   * after-state without the hunk over whatever the file holds now, the very thing a hunk rewind
   * exists not to do).
   */
  private static void requireOneHunk(RewindRequest request, int number) {
    String problem =
        number < 1
            ? "hunks are numbered from 1: there is no hunk " + number
            : request.paths().size() != 1
                ? "a hunk is of one file: name exactly one path with it"
                : request.to()
                    ? "a hunk is of one turn: --hunk does not go with --to"
                    : request.beforeToolCall().isPresent()
                        ? "--hunk does not go with --before-tool-call"
                        : request.force()
                            ? "--hunk does not go with --force: a hunk is reversed only where its"
                                + " context still matches (rewind the path to replace the file)"
                            : null;
    if (problem != null) {
      throw new RequestException(RequestException.Problem.BAD_INPUT, problem);
    }
  }

  /**
   * Whether a rewind's dry run finds nothing to put back: no path to write or found at its
   * before-state already, no directory to make, remove or give its mode back. Then the run is that
   * dry run: a rewind that would only skip must not leave a rewind turn of no files behind, nor
   * mark its turns rewound while their changes are all still there. (The run decides every path
   * again; if the workspace changed between the two looks so that nothing is put back after all,
   * {@link TurnStandings} still marks nothing.)
   */
  private static boolean putsNothingBack(RewindReport dryRun) {
    return dryRun.restored().isEmpty()
        && dryRun.merged().isEmpty()
        && dryRun.createdDirectories().isEmpty()
        && dryRun.removedDirectories().isEmpty()
        && dryRun.directoryModes().isEmpty();
  }

  /** A dry run's report as the run's: what the run that writes nothing did. */
  private static RewindReport asRun(RewindReport dryRun) {
    return new RewindReport(
        dryRun.operation(),
        false,
        false,
        dryRun.turns(),
        dryRun.restored(),
        dryRun.merged(),
        dryRun.skipped(),
        dryRun.unchanged(),
        Optional.empty(),
        dryRun.createdDirectories(),
        dryRun.removedDirectories(),
        dryRun.directoryModes(),
        dryRun.paths(),
        dryRun.deleted(),
        dryRun.changedBy(),
        dryRun.beforeToolCall(),
        dryRun.notes(),
        dryRun.hunk(),
        Map.of(), // it merges nothing
        RewindReport.Durability.NOTHING_WRITTEN);
  }

  /**
   * The operation a request stored, or found stored by another request that ran at the same time;
   * with the stored contents of the plan it stored ({@link Plan#contents}: those the dry run
   * decided with, unless the plan was made again), which its run then does not load again (loading
   * them twice was a thirtieth of a rewind's samples, docs/performance.md).
   */
  private record Persisted(
      StoredRewindOperation operation, boolean created, Map<Sha256, byte[]> contents) {}

  /**
   * An operation that another request, running at the same time as this one, stored after this one
   * looked (two processes that rewind the same turns at once both find none when they look): the
   * operation of the same id, or an unfinished one covering the request's turns. It is resumed (or
   * its receipt returned), or the request is refused, as when it is found before planning.
   */
  private static Optional<StoredRewindOperation> operationStoredMeanwhile(
      StoreTransaction tx, String operationId, RewindRequest request, NamedPaths named) {
    Optional<StoredRewindOperation> sameId = tx.rewinds().byExternalId(operationId);
    if (sameId.isPresent()) {
      requireSameRequest(sameId.get(), request, named);
      return sameId;
    }
    Optional<StoredRewindOperation> covering = unfinishedCovering(tx, request);
    covering.ifPresent(operation -> requireResumable(operation, request, named));
    return covering;
  }

  /**
   * @param resumed whether an earlier run of the operation may have left staged files behind
   */
  private RewindReport apply(
      StoredRewindOperation operation, boolean force, boolean resumed, RewindStarted started) {
    StoredTurn rewindTurn =
        store.read(tx -> tx.turns().byId(operation.rewindTurnId())).orElseThrow();
    try (WorkspaceHandles.Lease lease = workspaces.borrow(rewindTurn.workspaceId())) {
      return apply(
          operation, force, resumed, started, rewindTurn, lease.boundary(), Map.of(), Map.of());
    }
  }

  /**
   * @param read what the dry run just before read of each path, which the run decides on (a resumed
   *     run has none)
   * @param loaded the stored contents the stored plan loaded and checked, by hash ({@link
   *     Plan#contents}), which the run does not load again (a resumed run has none)
   */
  private RewindReport apply(
      StoredRewindOperation operation,
      boolean force,
      boolean resumed,
      RewindStarted started,
      StoredTurn rewindTurn,
      WorkspaceBoundary boundary,
      Map<WorkspacePath, Observation> read,
      Map<Sha256, byte[]> loaded) {
    started.started(operation.externalId(), resumed);
    journal.apply(operation, force, resumed, rewindTurn, boundary, read, loaded);
    return reports.receipt(
        store.read(tx -> tx.rewinds().byExternalId(operation.externalId())).orElseThrow(),
        false,
        false);
  }

  private RewindReport resume(StoredRewindOperation operation, RewindStarted started) {
    claims.claim(operation);
    return claims.releasingAfter(
        List.of(operation),
        () -> {
          // another process may have finished it between the look that found it and this claim
          StoredRewindOperation now =
              store.read(tx -> tx.rewinds().byExternalId(operation.externalId())).orElseThrow();
          return now.done()
              ? reports.receipt(now, true, false)
              : apply(operation, operation.force(), true, started);
        });
  }

  /**
   * An operation still applying (interrupted, or running now) that rewinds one of the turns the
   * request names: a second rewind of those turns would find their files half-written and leave the
   * first one's staged files behind, so it resumes that operation instead, or is refused.
   */
  private static Optional<StoredRewindOperation> unfinishedCovering(
      StoreTransaction tx, RewindRequest request) {
    return tx.turns()
        .byExternalId(request.turn())
        .flatMap(
            target -> {
              Set<String> requested = new HashSet<>();
              if (request.to()) {
                tx.turns().ofSession(target.sessionId()).stream()
                    .filter(turn -> turn.seq() >= target.seq())
                    .forEach(turn -> requested.add(turn.externalId()));
              } else {
                requested.add(target.externalId());
              }
              return tx.rewinds().applyingIn(target.sessionId()).stream()
                  .filter(operation -> operation.turns().stream().anyMatch(requested::contains))
                  .findFirst();
            });
  }

  /**
   * The same request as the unfinished operation's (the same turn, scope, force and named paths),
   * with no other operation id: it resumes the operation.
   */
  private static void requireResumable(
      StoredRewindOperation operation, RewindRequest request, NamedPaths named) {
    boolean same = sameRequest(operation, request, named);
    if (same && request.operation().isEmpty()) {
      return;
    }
    throw new RequestException(
        RequestException.Problem.WRONG_STATE,
        "turn '"
            + request.turn()
            + "' is part of rewind operation '"
            + operation.externalId()
            + "' (a rewind of turn '"
            + operation.targetTurn()
            + "'"
            + (operation.scope().equals("to") ? " and every later turn" : "")
            + (operation.force() ? ", with --force" : "")
            + (operation.pathScoped() ? ", of paths " + shown(operation) : "")
            + operation.hunk().map(hunk -> ", hunk " + hunk).orElse("")
            + operation
                .beforeToolCall()
                .map(call -> ", to before tool call '" + call + "'")
                .orElse("")
            + "), which has not finished; finish it first: turndiff rewind"
            + " --turn "
            + operation.targetTurn()
            + (operation.scope().equals("to") ? " --to" : "")
            + (operation.force() ? " --force" : "")
            + operation.beforeToolCall().map(call -> " --before-tool-call " + call).orElse("")
            + " --operation "
            + operation.externalId()
            + (operation.hunk().isPresent()
                ? " --hunk " + operation.paths().getFirst().display() + ":" + operation.hunk().get()
                : operation.pathScoped()
                    ? " "
                        + String.join(
                            " ", operation.paths().stream().map(WorkspacePath::display).toList())
                    : ""));
  }

  private static boolean sameRequest(
      StoredRewindOperation operation, RewindRequest request, NamedPaths named) {
    return operation.targetTurn().equals(request.turn())
        && operation.scope().equals(request.scope())
        && operation.force() == request.force()
        && operation.paths().equals(named.paths())
        && operation.beforeToolCall().equals(request.beforeToolCall())
        && operation.hunk().equals(request.hunk());
  }

  private static String shown(StoredRewindOperation operation) {
    return operation.paths().stream()
        .map(path -> "'" + path.display() + "'")
        .collect(Collectors.joining(", "));
  }

  private static void requireSameRequest(
      StoredRewindOperation operation, RewindRequest request, NamedPaths named) {
    if (!sameRequest(operation, request, named)) {
      throw new RequestException(
          RequestException.Problem.BAD_INPUT,
          "operation '"
              + operation.externalId()
              + "' was a rewind of turn '"
              + operation.targetTurn()
              + "' ("
              + operation.scope()
              + (operation.force() ? ", force" : "")
              + (operation.pathScoped() ? ", paths " + shown(operation) : "")
              + operation.hunk().map(hunk -> ", hunk " + hunk).orElse("")
              + operation
                  .beforeToolCall()
                  .map(call -> ", before tool call '" + call + "'")
                  .orElse("")
              + "), not this request");
    }
  }
}
