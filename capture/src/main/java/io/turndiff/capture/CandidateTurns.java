package io.turndiff.capture;

import io.turndiff.model.DetectedBy;
import io.turndiff.model.Snapshot;
import io.turndiff.model.TurnKind;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.StoreTransaction;
import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredTurn;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The turns that could have made a change a scan found, and its place in each of them (issue 27:
 * two agents in one workspace).
 *
 * <p>A scan knows only the interval a change was made in: since the index was last written. Every
 * begin and every finish of a turn in a tracked workspace writes the index, so each agent turn open
 * in the workspace now was open through all of that interval, and any of them could have made the
 * change; a turn that finished or began in it wrote the index at that moment. Which one did it is
 * not known, and is never guessed: the change is recorded in each of them, and each record names
 * the others ({@code file_change_shared}). The one exception is a path a tool call of one of them
 * named: that call's turn made it (its finish records it from its own before-state).
 *
 * <p>A candidate turn that is not the one finishing gets the change as a record without an
 * after-state, detected by scan, whose before-state is the index's; its own finish completes it, as
 * it completes the paths its tool calls named. A rewind turn is never a candidate: what a rewind
 * writes is recorded by the rewind itself.
 *
 * <p>Used inside the write transaction that writes the index, so that what the scan found and who
 * could have made it are one commit.
 */
final class CandidateTurns {

  private final StoreTransaction tx;
  private final List<StoredTurn> open;
  private final Map<Long, Map<WorkspacePath, StoredFileChange>> records = new HashMap<>();

  private CandidateTurns(StoreTransaction tx, List<StoredTurn> open) {
    this.tx = tx;
    this.open = open;
    for (StoredTurn turn : open) {
      Map<WorkspacePath, StoredFileChange> byPath = new HashMap<>();
      tx.fileChanges().ofTurn(turn.id()).forEach(change -> byPath.put(change.path(), change));
      records.put(turn.id(), byPath);
    }
  }

  /** The agent turns open in the workspace, within {@code tx}. */
  static CandidateTurns openIn(StoreTransaction tx, long workspaceId) {
    return new CandidateTurns(tx, openAgentTurns(tx, workspaceId, Optional.empty()));
  }

  /** The agent turns open in {@code finishing}'s workspace but {@code finishing}, within tx. */
  static CandidateTurns besides(StoreTransaction tx, StoredTurn finishing) {
    return new CandidateTurns(
        tx, openAgentTurns(tx, finishing.workspaceId(), Optional.of(finishing.id())));
  }

  private static List<StoredTurn> openAgentTurns(
      StoreTransaction tx, long workspaceId, Optional<Long> except) {
    return tx.turns().open().stream()
        .filter(turn -> turn.workspaceId() == workspaceId)
        .filter(turn -> turn.kind() == TurnKind.AGENT)
        .filter(turn -> except.filter(id -> id == turn.id()).isEmpty())
        .toList();
  }

  boolean isEmpty() {
    return open.isEmpty();
  }

  /** Whether a tool call of one of these turns named {@code path}: the change is that turn's. */
  boolean namedByAToolCall(WorkspacePath path) {
    return records.values().stream()
        .map(byPath -> byPath.get(path))
        .anyMatch(change -> change != null && change.detectedBy() == DetectedBy.SNAPSHOT);
  }

  /**
   * Records a change a scan found at {@code path}, whose before-state was {@code before}, in every
   * one of these turns (a turn that has a record of the path keeps it: its first before-state
   * wins), beside {@code stored}, the record a finishing turn made of it; then marks each record
   * shared with every other turn when there is more than one.
   */
  void place(WorkspacePath path, Snapshot before, Optional<TurnRecord> stored) {
    Map<Long, Long> recordOfTurn = new LinkedHashMap<>();
    stored.ifPresent(record -> recordOfTurn.put(record.turnId(), record.changeId()));
    for (StoredTurn turn : open) {
      recordOfTurn.put(turn.id(), recordIn(turn, path, before));
    }
    if (recordOfTurn.size() < 2) {
      return;
    }
    recordOfTurn.forEach(
        (turnId, changeId) ->
            recordOfTurn.keySet().stream()
                .filter(other -> !other.equals(turnId))
                .forEach(other -> tx.sharedChanges().record(changeId, other)));
  }

  /** The turn's record of {@code path}, begun from {@code before} when it has none. */
  private long recordIn(StoredTurn turn, WorkspacePath path, Snapshot before) {
    StoredFileChange existing = records.get(turn.id()).get(path);
    if (existing != null) {
      return existing.id();
    }
    long beforeRow = tx.snapshots().insert(before);
    return tx.fileChanges().begin(turn.id(), path, Optional.empty(), DetectedBy.SCAN, beforeRow);
  }

  /** A file change row of a turn. */
  record TurnRecord(long turnId, long changeId) {}
}
