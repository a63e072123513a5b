package io.turndiff.capture;

import io.turndiff.boundary.Observation;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.capture.record.AfterStateRead;
import io.turndiff.capture.record.ChangeRecorder;
import io.turndiff.capture.record.DirectorySide;
import io.turndiff.capture.track.DirectoryDelta;
import io.turndiff.capture.track.PathChange;
import io.turndiff.capture.track.Tracker;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.DetectedBy;
import io.turndiff.model.DirectoryState;
import io.turndiff.model.MadeDuring;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.TurnState;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.DeltaBase;
import io.turndiff.store.Store;
import io.turndiff.store.StoreTransaction;
import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredTurn;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * One attempt at finishing a turn: everything read before the store's write lock is taken (the
 * turn's records, the scan of a tracked workspace, the after-states read and their new content
 * compressed, the directories), then {@link #store} in one transaction, which gives up (empty) when
 * the turn's records or the workspace's index moved since they were read; the caller then makes a
 * new attempt.
 *
 * <p>What the scan found is the finishing turn's alone only when no other turn could have made it;
 * otherwise {@link CandidateTurns} records it in every turn that could have, with the tool calls in
 * flight while it was made.
 */
final class TurnFinish {

  /** Turns with more files than this read and diff them on several cores. */
  private static final int PARALLEL_FINISH_FILES = 8;

  private final Tracker tracker;
  private final ChangeRecorder recorder;
  private final StoredTurn turn;

  /**
   * The turn's records: paths its tool calls named, and changes other turns' scans placed in it.
   */
  private final List<StoredFileChange> recorded;

  /** The tracked workspace's scan, when it is tracked. */
  private final Optional<Tracker.Comparison> scanned;

  /**
   * The contents the scan compressed ({@link Tracker.Comparison#contentsCompressed}): stored, or
   * stored by {@code Tracker.absorb} before this finish's rows. A change to one refers to it by its
   * hash: the finish's own encoding of it (a delta of the before-state) would be dropped by {@code
   * Blobs.put}/{@code putAll}, which keep the content stored first (docs/performance.md, "A Stop's
   * one commit").
   */
  private final Set<Sha256> scannedContents;

  /**
   * The records a tool call's snapshot began at files git ignores, which the store does not mark
   * yet (the scan marks the records it makes).
   */
  private final List<StoredFileChange> namedIgnoredByGit;

  /** Changes the scan found at paths the turn has a record of, with their records. */
  private final List<Found> rescanned;

  /** Changes the scan found at paths the turn has no record of, with their before-states. */
  private final List<Found> found;

  private final List<ChangeRecorder.Completed> completed;
  private final List<ChangeRecorder.Detected> detected;
  private final Map<WorkspacePath, Optional<DirectoryState>> directoriesAfter;
  private final List<DirectoryState> firstSights;
  private final List<DirectoryDelta> scannedDirectories;

  /** A change the scan found, with the before-state the index gives it. */
  private record Found(PathChange change, Snapshot before, Optional<StoredFileChange> record) {
    WorkspacePath path() {
      return change.path();
    }
  }

  /** Reads everything the attempt stores (no store write, no lock held). */
  TurnFinish(
      Store store,
      Tracker tracker,
      ChangeRecorder recorder,
      WorkspaceBoundary boundary,
      StoredTurn turn) {
    this.tracker = tracker;
    this.recorder = recorder;
    this.turn = turn;
    // the turn's logged before-states folded first, their contents kept as the calls read them
    Map<Sha256, DeltaBase> folded = store.fold();
    this.recorded = store.read(tx -> tx.fileChanges().ofTurn(turn.id()));
    this.scanned =
        tracker.isTracked(turn.workspaceId())
            ? Optional.of(tracker.changes(turn.workspaceId()))
            : Optional.empty();
    this.scannedContents = scanned.map(Tracker.Comparison::contentsCompressed).orElse(Set.of());
    this.namedIgnoredByGit = scanned.isPresent() ? namedIgnoredByGit(boundary) : List.of();
    List<Found> all = scannedChanges(boundary, store.clock().instant());
    this.found = all.stream().filter(change -> change.record().isEmpty()).toList();
    this.rescanned = all.stream().filter(change -> change.record().isPresent()).toList();
    Map<Sha256, DeltaBase> beforeContents = beforeContents(store, folded);
    AfterStateRead afterStates = new AfterStateRead(store, boundary);
    this.completed = completeRecorded(afterStates, beforeContents);
    this.scannedDirectories =
        scanned
            .map(
                comparison ->
                    Tracker.directories(comparison, found.stream().map(Found::path).toList()))
            .orElse(List.of());
    this.directoriesAfter = directoriesAfter(store, boundary);
    this.firstSights = directorySidesOf(completed, directoriesAfter);
    this.detected = detectFound(afterStates, beforeContents);
  }

  /**
   * The turn's records a tool call's snapshot began at a file git ignores: marked so at the finish
   * as a scan's record is when it is made, by the tracker's rules (the snapshot call itself, which
   * the runtime waits on before each tool, reads no ignore file). A workspace that is not tracked
   * has no record marked, the scan's included; nor has a record of a path outside the workspace.
   */
  private List<StoredFileChange> namedIgnoredByGit(WorkspaceBoundary boundary) {
    List<StoredFileChange> unmarked =
        recorded.stream()
            .filter(change -> change.detectedBy() != DetectedBy.SCAN && !change.ignoredByGit())
            // a record of a path outside the workspace (a write through a link out) has no place
            // under the workspace's ignore rules: it is not judged, and so never marked
            .filter(change -> !change.path().isOutside())
            .toList();
    Set<WorkspacePath> ignored =
        tracker.ignoredByGit(
            turn.workspaceId(), boundary, unmarked.stream().map(StoredFileChange::path).toList());
    return unmarked.stream().filter(change -> ignored.contains(change.path())).toList();
  }

  /** Each change the scan found, with its before-state and the turn's record of it, if any. */
  private List<Found> scannedChanges(WorkspaceBoundary boundary, Instant now) {
    Map<WorkspacePath, StoredFileChange> byPath = new HashMap<>();
    recorded.forEach(change -> byPath.put(change.path(), change));
    return scanned.map(Tracker.Comparison::changes).orElse(List.of()).stream()
        .map(
            change ->
                new Found(
                    change,
                    Tracker.before(change, boundary, now),
                    Optional.ofNullable(byPath.get(change.path()))))
        .toList();
  }

  /**
   * The before-states' contents: the bases the after-states are stored as deltas of. The line diffs
   * are not computed here: nothing the runtime waits for needs them (the afterFinish listener
   * computes them once the turn is stored). A content the fold before this attempt stored is taken
   * as the snapshot call read it ({@code folded}, depth 0: stored whole); the others are read from
   * the blob table and decoded. A change only the scan found whose content the scan compressed is
   * stored as the scan encoded it ({@link #scannedContents}): its before-state is no delta's base,
   * and is not read (reading and decoding the ten before-states of a watched Stop was 8 % of its
   * CPU at 250,000 files: docs/performance.md, "A Stop's one commit").
   */
  private Map<Sha256, DeltaBase> beforeContents(Store store, Map<Sha256, DeltaBase> folded) {
    List<Snapshot> befores =
        new ArrayList<>(recorded.stream().map(StoredFileChange::before).toList());
    found.stream()
        .filter(change -> !change.change().holdsNowOneOf(scannedContents))
        .forEach(change -> befores.add(change.before()));
    Map<Sha256, DeltaBase> bases = new HashMap<>();
    List<Snapshot> toRead = new ArrayList<>();
    for (Snapshot before : befores) {
      Optional<Sha256> content = before.storedContent();
      if (content.isPresent() && folded.containsKey(content.get())) {
        bases.put(content.get(), folded.get(content.get()));
      } else {
        toRead.add(before);
      }
    }
    if (!toRead.isEmpty()) {
      bases.putAll(store.read(tx -> tx.blobs().deltaBasesOf(toRead)));
    }
    return bases;
  }

  /**
   * The after-state of every path the turn recorded, classified, its new content compressed unless
   * the scan compressed it.
   */
  private List<ChangeRecorder.Completed> completeRecorded(
      AfterStateRead afterStates, Map<Sha256, DeltaBase> beforeContents) {
    return inParallel(
        recorded,
        change ->
            recorder.completeWithDiffPending(
                change,
                afterStates.of(change.path(), change.before()),
                beforeContents,
                scannedContents));
  }

  /**
   * The after-state of every path only the scan found, classified; its content was compressed by
   * the scan, as a rule.
   */
  private List<ChangeRecorder.Detected> detectFound(
      AfterStateRead afterStates, Map<Sha256, DeltaBase> beforeContents) {
    return inParallel(
        IntStream.range(0, found.size()).boxed().toList(),
        i -> {
          Found change = found.get(i);
          Observation after = afterStates.of(change.path(), change.before(), change.change().now());
          return recorder.detectWithDiffPending(
              change.path(),
              change.before(),
              after,
              beforeContents,
              scannedContents,
              change.change().ignoredByGit());
        });
  }

  /** The state now of each directory the turn recorded. */
  private Map<WorkspacePath, Optional<DirectoryState>> directoriesAfter(
      Store store, WorkspaceBoundary boundary) {
    Map<WorkspacePath, Optional<DirectoryState>> after = new LinkedHashMap<>();
    store
        .read(tx -> tx.directoryChanges().ofTurn(turn.id()))
        .forEach(
            directory ->
                after.put(directory.path(), DirectorySide.now(boundary, directory.path())));
    return after;
  }

  /**
   * The directory side of each recorded path that was a directory when the turn first saw it or
   * when it finished, or that the turn recorded as a directory above another path: a file replaced
   * by a directory is a directory the turn created, a directory replaced by a file one it removed
   * (their files are records of their own). The path's record holds the turn's first sight of it (a
   * directory recorded above a later snapshot's path was seen after it, so the record's state
   * replaces it) and its last; its after-state is put in {@code directoriesAfter}. A path whose
   * presence was unknown at first sight is left as the directory records have it.
   */
  private static List<DirectoryState> directorySidesOf(
      List<ChangeRecorder.Completed> completed,
      Map<WorkspacePath, Optional<DirectoryState>> directoriesAfter) {
    List<DirectoryState> firstSights = new ArrayList<>();
    for (ChangeRecorder.Completed done : completed) {
      Snapshot before = done.change().before();
      Snapshot after = done.after().snapshot();
      WorkspacePath path = done.change().path();
      if (!before.isDirectory() && !after.isDirectory() && !directoriesAfter.containsKey(path)) {
        continue;
      }
      Optional<DirectoryState> first = DirectorySide.of(before);
      if (first.isPresent()) {
        firstSights.add(first.get());
        directoriesAfter.put(path, DirectorySide.of(after));
      }
    }
    return firstSights;
  }

  // ---- the transaction
  // --------------------------------------------------------------------------------

  /**
   * Stores the attempt within {@code tx} and closes the turn; empty (nothing written) when a
   * snapshot call, or another turn's begin or finish, gave the turn a record meanwhile, or another
   * scan wrote the workspace's index meanwhile: the caller reads again.
   */
  Optional<TurnSummary> store(StoreTransaction tx) {
    // the row this finish read, checked by its id, external id and start together: the same id
    // may have been collected and begun again meanwhile. Once it holds, that row is the turn
    // open now, and what the finish reads of it (its ids, workspace, sequence and start) never
    // changes on a row, so it is not read again here
    CaptureService.requireStillOpen(tx, turn);
    if (tx.fileChanges().countOfTurn(turn.id()) != completed.size()) {
      return Optional.empty();
    }
    if (scanned.isPresent() && !tracker.absorb(tx, turn.workspaceId(), scanned.get())) {
      return Optional.empty();
    }
    // the open turns' records are read only when the scan found a change to place among them
    Optional<CandidateTurns> candidates =
        rescanned.isEmpty() && detected.isEmpty()
            ? Optional.empty()
            : Optional.of(
                CandidateTurns.openIn(
                    tx, turn.workspaceId(), tracker.watches(), turn.id(), recorded));
    recorder.storeAll(tx, completed);
    namedIgnoredByGit.forEach(change -> tx.fileChanges().markIgnoredByGit(change.id()));
    candidates.ifPresent(this::shareRescanned);
    List<ChangeRecorder.Detected> stored =
        candidates.map(found -> storeFound(tx, turn, found)).orElse(List.of());
    storeDirectories(tx, turn);
    // a call whose end never came (its runtime sent no Post for it) ends with its turn
    tx.toolCalls().endAll(turn.id());
    tx.turns().markFinished(turn.id());
    return Optional.of(summarize(turn, stored));
  }

  /**
   * A path the turn has a record of that changed since the index was written: the other turns that
   * could have made that change get it too (a path the turn's own tool call named included: another
   * session's shell could have written it as well).
   */
  private void shareRescanned(CandidateTurns candidates) {
    for (Found change : rescanned) {
      candidates.place(
          change.path(),
          change.before(),
          change.change().ignoredByGit(),
          Optional.of(
              new CandidateTurns.TurnRecord(turn.id(), change.record().orElseThrow().id())));
    }
  }

  /**
   * Stores each change only the scan found, in this turn when it could have made it (a turn whose
   * runtime brackets its shell calls did not, when none of its calls was in flight and another
   * turn's was), and in every other turn that could have; a path a tool call of another open turn
   * named is that turn's, and this one's too only when its shell could have written it. Returns
   * what this turn recorded.
   */
  private List<ChangeRecorder.Detected> storeFound(
      StoreTransaction tx, StoredTurn current, CandidateTurns candidates) {
    // whether this turn could have made a change depends on the open turns and their records as
    // the transaction read them, which placing a change in the other turns does not alter: so
    // this turn's changes are stored first, all at once, and then each is placed
    List<Integer> ours = new ArrayList<>(detected.size());
    for (int i = 0; i < detected.size(); i++) {
      if (candidates.couldHaveMade(current, detected.get(i).path())) {
        ours.add(i);
      }
    }
    List<ChangeRecorder.Detected> stored = ours.stream().map(detected::get).toList();
    MadeDuring during = candidates.duringOf(current.id());
    long[] rows = recorder.recordFound(tx, current.id(), stored, during);
    candidates.linkToCallsInFlight(rows, during);
    int next = 0; // the next of this turn's changes, and of their rows
    for (int i = 0; i < detected.size(); i++) {
      ChangeRecorder.Detected change = detected.get(i);
      Optional<CandidateTurns.TurnRecord> record = Optional.empty();
      if (next < ours.size() && ours.get(next) == i) {
        record = Optional.of(new CandidateTurns.TurnRecord(current.id(), rows[next++]));
      }
      candidates.place(change.path(), found.get(i).before(), change.ignoredByGit(), record);
    }
    return stored;
  }

  /** The directories the turn recorded and those the scan saw appear, go or change mode. */
  private void storeDirectories(StoreTransaction tx, StoredTurn current) {
    firstSights.forEach(first -> tx.directoryChanges().recordFirstState(current.id(), first));
    tx.directoryChanges().completeAll(current.id(), directoriesAfter);
    recordScannedDirectories(tx, current.id(), scannedDirectories);
  }

  /**
   * Records each directory a scan saw appear, go or change mode in the turn {@code turnRow}, as the
   * index had it and as the scan found it (a finish's, and an outside turn's: {@link
   * OutsideChanges}).
   */
  static void recordScannedDirectories(
      StoreTransaction tx, long turnRow, List<DirectoryDelta> directories) {
    for (DirectoryDelta directory : directories) {
      tx.directoryChanges().recordBefore(turnRow, directory.before());
      tx.directoryChanges()
          .complete(turnRow, directory.after().path(), Optional.of(directory.after()));
    }
  }

  /** {@code work} over {@code items} in order; spread over the common pool when there are many. */
  private static <T, R> List<R> inParallel(List<T> items, Function<T, R> work) {
    return items.size() < PARALLEL_FINISH_FILES
        ? items.stream().map(work).toList()
        : items.parallelStream().map(work).toList();
  }

  private TurnSummary summarize(StoredTurn current, List<ChangeRecorder.Detected> stored) {
    Map<ChangeKind, Integer> counts = new EnumMap<>(ChangeKind.class);
    int notRestorable = 0;
    int diffsPending = 0;
    int byScan = stored.size();
    for (ChangeRecorder.Completed done : completed) {
      counts.merge(done.kind(), 1, Integer::sum);
      diffsPending += done.diffPending() ? 1 : 0;
      byScan += done.change().detectedBy() == DetectedBy.SCAN ? 1 : 0;
      // the change being completed has no kind yet: an unknown one cannot be put back whatever its
      // before-state; a directory is put back by the directory records (restorable() says so)
      if ((!done.change().restorable() || done.kind() == ChangeKind.UNKNOWN)
          && done.kind() != ChangeKind.UNCHANGED) {
        notRestorable++;
      }
    }
    for (ChangeRecorder.Detected found : stored) {
      counts.merge(found.kind(), 1, Integer::sum);
      diffsPending += found.diffPending() ? 1 : 0;
      if (!found.before().captured() || found.kind() == ChangeKind.UNKNOWN) {
        notRestorable++;
      }
    }
    return new TurnSummary(
        current.externalId(),
        current.sessionExternalId(),
        current.seq(),
        TurnState.FINISHED,
        completed.size() + stored.size(),
        counts,
        diffsPending,
        notRestorable,
        byScan);
  }
}
