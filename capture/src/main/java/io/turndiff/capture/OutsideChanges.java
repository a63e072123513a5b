package io.turndiff.capture;

import io.turndiff.boundary.Observation;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.capture.record.AfterStateRead;
import io.turndiff.capture.record.ChangeRecorder;
import io.turndiff.capture.track.DirectoryDelta;
import io.turndiff.capture.track.PathChange;
import io.turndiff.capture.track.Tracker;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.ExternalIds;
import io.turndiff.model.MadeDuring;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.TurnKind;
import io.turndiff.store.DeltaBase;
import io.turndiff.store.Store;
import io.turndiff.store.StoreTransaction;
import io.turndiff.store.StoredSession;
import io.turndiff.store.StoredTurn;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a tracked workspace's scan found at a turn's begin, ready to be stored as a turn "outside
 * any turn" (issue 22 item 6) should no turn be open that could have made it: the user's own edits
 * between turns, or a tool that ran with no hooks.
 *
 * <p>Without it those changes would only be taken into the index, and the history would jump from
 * one agent turn's after-state to the next one's before-state with nothing in between: a rewind's
 * conflict could not say who made it, and {@code blame} would credit the user's lines to nobody.
 * Recorded as a finished turn of its own, of kind {@link TurnKind#OUTSIDE}, in the session of the
 * turn that is beginning and numbered just before it, the change is in the timeline where it
 * happened, byte for byte: its before-states are the index's (the baseline the last turn left), its
 * after-states what the scan read.
 *
 * <p>Everything is read here, before the write transaction (after-states read, new content
 * compressed), as a turn's finish does, so that the store's write lock is never held while the file
 * system is slow; {@link #storeIn} only writes rows.
 */
final class OutsideChanges {

  /** Nothing to record: a begin that found no change, or one whose changes an open turn took. */
  static final OutsideChanges NONE = new OutsideChanges(List.of(), List.of());

  /** The changed files, classified; a change the scan found that classifies as unchanged is not. */
  private final List<ChangeRecorder.Detected> files;

  /** The directories that appeared, went or changed mode, and those above the changed files. */
  private final List<DirectoryDelta> directories;

  private OutsideChanges(List<ChangeRecorder.Detected> files, List<DirectoryDelta> directories) {
    this.files = List.copyOf(files);
    this.directories = List.copyOf(directories);
  }

  /**
   * Reads the after-state of each change {@code comparison} found (the one the scan took when it
   * has one, else the path now), whose before-state is {@code befores}' at the same index.
   */
  static OutsideChanges read(
      Store store,
      ChangeRecorder recorder,
      WorkspaceBoundary boundary,
      Tracker.Comparison comparison,
      List<Snapshot> befores) {
    List<PathChange> changes = comparison.changes();
    // stored, or stored by Tracker.absorb before the rows of these changes (storeIn)
    Set<Sha256> scannedContents = comparison.contentsCompressed();
    Map<Sha256, DeltaBase> bases = basesOf(store, changes, befores, scannedContents);
    List<ChangeRecorder.Detected> files = new ArrayList<>();
    AfterStateRead afterStates = new AfterStateRead(store, boundary);
    for (int i = 0; i < changes.size(); i++) {
      PathChange change = changes.get(i);
      Observation after = afterStates.of(change.path(), befores.get(i), change.now());
      ChangeRecorder.Detected detected =
          recorder.detectWithDiffPending(
              change.path(), befores.get(i), after, bases, scannedContents, change.ignoredByGit());
      if (detected.kind() != ChangeKind.UNCHANGED) {
        files.add(detected);
      }
    }
    if (files.isEmpty()) {
      // Only directories changed (the runtime's own folders made between turns, an empty folder, a
      // mode): the index takes them as before, and the timeline gains no turn that lists no file.
      // A real Claude Code session made exactly such a turn, "outside any turn, 0 files", between
      // two prompts of two sessions at once (ClaudeCodeHooksIT).
      return NONE;
    }
    List<DirectoryDelta> directories =
        Tracker.directories(comparison, files.stream().map(ChangeRecorder.Detected::path).toList());
    return new OutsideChanges(files, directories);
  }

  /**
   * The stored contents of the before-states whose change needs a delta base: not one whose
   * after-state the scan compressed, which is stored as the scan encoded it ({@link
   * PathChange#holdsNowOneOf}), as a finish reads them ({@code TurnFinish.beforeContents}).
   */
  private static Map<Sha256, DeltaBase> basesOf(
      Store store, List<PathChange> changes, List<Snapshot> befores, Set<Sha256> scanned) {
    List<Snapshot> needed = new ArrayList<>();
    for (int i = 0; i < changes.size(); i++) {
      if (!changes.get(i).holdsNowOneOf(scanned)) {
        needed.add(befores.get(i));
      }
    }
    return needed.isEmpty() ? Map.of() : store.read(tx -> tx.blobs().deltaBasesOf(needed));
  }

  boolean isEmpty() {
    return files.isEmpty() && directories.isEmpty();
  }

  /**
   * Records the changes as a finished turn of kind {@code outside} in {@code session}, the next in
   * it (the turn beginning now takes the number after), within {@code tx}; returns its row, for the
   * line diffs left pending. Nothing is written when there is nothing to record.
   */
  Optional<StoredTurn> storeIn(
      StoreTransaction tx, ChangeRecorder recorder, StoredSession session) {
    if (isEmpty()) {
      return Optional.empty();
    }
    StoredTurn outside = tx.turns().begin(ExternalIds.generate("turn"), session, TurnKind.OUTSIDE);
    // no agent turn could have made them: made during no call known
    recorder.recordFound(tx, outside.id(), files, MadeDuring.UNKNOWN);
    TurnFinish.recordScannedDirectories(tx, outside.id(), directories);
    tx.turns().markFinished(outside.id());
    return Optional.of(outside);
  }
}
