package io.turndiff.capture;

import io.turndiff.model.DetectedBy;
import io.turndiff.model.MadeDuring;
import io.turndiff.model.Snapshot;
import io.turndiff.model.TurnKind;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.StoreTransaction;
import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredToolCall;
import io.turndiff.store.StoredTurn;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The turns that could have made a change a scan found, during which tool calls, and its place in
 * each of them (issue 27: two agents in one workspace).
 *
 * <p>A scan knows only the interval a change was made in: since the index was last written. Every
 * begin and every finish of a turn in a tracked workspace writes the index, so each agent turn open
 * in the workspace now was open through all of that interval, and any of them could have made the
 * change; a turn that finished or began in it wrote the index at that moment. While the service
 * watches the workspace, the Pre and the Post hook of every shell call write the index too ({@link
 * CaptureService#beginShellCall}, {@link CaptureService#endShellCall}), so the shell calls in
 * flight now were in flight through all of the interval as well, and none other was:
 *
 * <ul>
 *   <li>with shell calls in flight, the change is theirs ({@link MadeDuring#CALLS}: one call, or
 *       several overlapping, all named), recorded in their turns;
 *   <li>with none, it was made outside any call ({@link MadeDuring#OUTSIDE}: an editor's save
 *       during a turn): recorded in the open turns as such, which a rewind does not revert without
 *       saying so;
 *   <li>a turn whose runtime has not bracketed a shell call yet (no Post hooks, the CLI, a turn
 *       before its first shell call) could have made it whatever was in flight: it keeps it, with
 *       no call ({@link MadeDuring#UNKNOWN}).
 * </ul>
 *
 * Without the watcher the calls' hooks write no index, an interval spans calls, and which call made
 * a change is not known: each open turn gets it with no call ({@link MadeDuring#UNKNOWN}), never a
 * guess. Which of several candidate turns made it is not known either, and is never guessed: the
 * change is recorded in each of them, and each record names the others ({@code
 * file_change_shared}).
 *
 * <p>A path a tool call of an open turn named is that turn's (its finish records it from its own
 * before-state), but the tool call does not say the change is its alone: another session's shell
 * could have written the path too (its {@code sed} over the file the first session's edit tool
 * wrote). So every other turn that could have made a change with its shell (a call of it in flight,
 * or calls not known) records the path as well, shared with the namer's record, and a rewind of the
 * namer leaves it as the other session's work unless forced. A turn that could only have made it
 * outside any call is no candidate for a named path: the tool call explains the change better than
 * an editor's save.
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
  private final Map<Long, Map<WorkspacePath, StoredFileChange>> records = new HashMap<>();

  /** The turns that could have made a change found now, each with how its record says so. */
  private final Map<StoredTurn, MadeDuring> owners = new LinkedHashMap<>();

  /** The shell calls in flight through the interval (their rows), when calls are known. */
  private final List<Long> inFlight;

  /** The same calls, as stored. */
  private final List<StoredToolCall> callsInFlight;

  private CandidateTurns(
      StoreTransaction tx,
      List<StoredTurn> open,
      boolean callsKnown,
      Map<Long, List<StoredFileChange>> readAlready) {
    this.tx = tx;
    for (StoredTurn turn : open) {
      Map<WorkspacePath, StoredFileChange> byPath = new HashMap<>();
      List<StoredFileChange> read = readAlready.get(turn.id());
      (read != null ? read : tx.fileChanges().ofTurn(turn.id()))
          .forEach(change -> byPath.put(change.path(), change));
      records.put(turn.id(), byPath);
    }
    List<Long> ids = open.stream().map(StoredTurn::id).toList();
    List<StoredToolCall> calls = callsKnown ? tx.toolCalls().inFlight(ids) : List.of();
    Set<Long> bracketing = callsKnown ? tx.toolCalls().bracketing(ids) : Set.of();
    this.inFlight = calls.stream().map(StoredToolCall::id).toList();
    this.callsInFlight = calls;
    Set<Long> calling = Set.copyOf(calls.stream().map(StoredToolCall::turnId).toList());
    for (StoredTurn turn : open) {
      if (calling.contains(turn.id())) {
        owners.put(turn, MadeDuring.CALLS);
      } else if (!bracketing.contains(turn.id())) {
        owners.put(turn, MadeDuring.UNKNOWN);
      } else if (calls.isEmpty()) {
        owners.put(turn, MadeDuring.OUTSIDE);
      }
      // else: its runtime brackets its calls, none of them was in flight, another's was
    }
  }

  /**
   * The agent turns open in the workspace, within {@code tx}; {@code callsKnown} when the calls in
   * flight stayed the same through the interval (the service watches the workspace).
   */
  static CandidateTurns openIn(StoreTransaction tx, long workspaceId, boolean callsKnown) {
    return new CandidateTurns(tx, openAgentTurns(tx, workspaceId), callsKnown, Map.of());
  }

  /**
   * As {@link #openIn(StoreTransaction, long, boolean)}, given the records of the turn {@code
   * turnId} as they are in {@code tx} ({@code records}): a finish read its own turn's before the
   * lock, and saw in the transaction that it has no other (the count), so they are not read again.
   * What is used of them (path, how each was detected, its row) does not change while it lives.
   */
  static CandidateTurns openIn(
      StoreTransaction tx,
      long workspaceId,
      boolean callsKnown,
      long turnId,
      List<StoredFileChange> records) {
    return new CandidateTurns(
        tx, openAgentTurns(tx, workspaceId), callsKnown, Map.of(turnId, records));
  }

  /**
   * Whether an agent turn is open in the workspace, within {@code tx}: a candidate for a change.
   */
  static boolean anyOpenIn(StoreTransaction tx, long workspaceId) {
    return !openAgentTurns(tx, workspaceId).isEmpty();
  }

  private static List<StoredTurn> openAgentTurns(StoreTransaction tx, long workspaceId) {
    return tx.turns().open().stream()
        .filter(turn -> turn.workspaceId() == workspaceId)
        .filter(turn -> turn.kind() == TurnKind.AGENT)
        .toList();
  }

  /** Whether no turn could have made a change found now. */
  boolean isEmpty() {
    return owners.isEmpty();
  }

  /**
   * Whether {@code turn} could have made a change found now at {@code path}: it is a candidate, and
   * when a tool call of an open turn named the path, one that could have made it with its shell.
   */
  boolean couldHaveMade(StoredTurn turn, WorkspacePath path) {
    return owners.entrySet().stream()
        .anyMatch(
            owner ->
                owner.getKey().id() == turn.id()
                    && (owner.getValue() != MadeDuring.OUTSIDE || namersOf(path).isEmpty()));
  }

  /** The records the tool calls of open turns made of {@code path}, by turn. */
  private Map<Long, Long> namersOf(WorkspacePath path) {
    Map<Long, Long> namers = new LinkedHashMap<>();
    records.forEach(
        (turnId, byPath) -> {
          StoredFileChange change = byPath.get(path);
          if (change != null && change.detectedBy() == DetectedBy.SNAPSHOT) {
            namers.put(turnId, change.id());
          }
        });
    return namers;
  }

  /**
   * Records a change a scan found at {@code path}, whose before-state was {@code before}, in every
   * turn that could have made it (a turn that has a record of the path keeps it: its first
   * before-state wins, and what it was made during), beside {@code stored}, the record a finishing
   * turn has of it (recorded by the finish as made {@link #duringOf}), and beside the records of
   * the turns whose tool calls named the path, whose change it is too; notes what each new record
   * was made during, then marks each record shared with every other turn when there is more than
   * one. A new record is marked as one of a file git ignores when {@code ignoredByGit}.
   */
  void place(
      WorkspacePath path, Snapshot before, boolean ignoredByGit, Optional<TurnRecord> stored) {
    Map<Long, Long> namers = namersOf(path);
    Map<Long, Long> recordOfTurn = new LinkedHashMap<>(namers);
    stored.ifPresent(record -> recordOfTurn.put(record.turnId(), record.changeId()));
    owners.forEach(
        (turn, during) -> {
          if (!recordOfTurn.containsKey(turn.id())
              && (during != MadeDuring.OUTSIDE || namers.isEmpty())) {
            recordOfTurn.put(turn.id(), recordIn(turn, path, before, ignoredByGit, during));
          }
        });
    if (recordOfTurn.size() < 2) {
      return;
    }
    recordOfTurn.forEach(
        (turnId, changeId) ->
            recordOfTurn.keySet().stream()
                .filter(other -> !other.equals(turnId))
                .forEach(other -> tx.sharedChanges().record(changeId, other)));
  }

  /**
   * Notes a change found at {@code path} during shell calls in flight, of a path their turn has a
   * record of already (a tool call named it, or an earlier call changed it): each such call is
   * linked to its turn's record with {@code before}, the state the path was in when the interval
   * began (the index's), as the before-state that call found (issue 24: a rewind to before the call
   * puts it back). The record's first before-state, and what it was made during, stay; a call
   * linked already keeps what it found first.
   */
  void noteLaterCalls(WorkspacePath path, Snapshot before) {
    Optional<Long> beforeRow = Optional.empty();
    for (StoredToolCall call : callsInFlight) {
      StoredFileChange existing = records.getOrDefault(call.turnId(), Map.of()).get(path);
      if (existing == null || existing.toolCalls().contains(call.externalId())) {
        continue;
      }
      if (tx.fileChanges().linkToolCall(existing.id(), call.id())) {
        if (beforeRow.isEmpty()) {
          beforeRow = Optional.of(tx.snapshots().insert(before));
        }
        tx.fileChanges().keepCallBefore(existing.id(), call.id(), beforeRow.get());
      }
    }
  }

  /** What the record of the turn {@code turnId} was made during. */
  MadeDuring duringOf(long turnId) {
    return owners.entrySet().stream()
        .filter(owner -> owner.getKey().id() == turnId)
        .map(Map.Entry::getValue)
        .findFirst()
        .orElse(MadeDuring.UNKNOWN);
  }

  /** The turn's record of {@code path}, begun from {@code before} when it has none. */
  private long recordIn(
      StoredTurn turn,
      WorkspacePath path,
      Snapshot before,
      boolean ignoredByGit,
      MadeDuring during) {
    StoredFileChange existing = records.get(turn.id()).get(path);
    if (existing != null) {
      return existing.id();
    }
    long beforeRow = tx.snapshots().insert(before);
    long row =
        tx.fileChanges().begin(turn.id(), path, Optional.empty(), DetectedBy.SCAN, beforeRow);
    if (ignoredByGit) {
      tx.fileChanges().markIgnoredByGit(row);
    }
    attribute(row, during);
    return row;
  }

  /** Notes what the change {@code changeId} was made during (nothing to note when not known). */
  void attribute(long changeId, MadeDuring during) {
    if (during != MadeDuring.UNKNOWN) {
      tx.fileChanges()
          .attribute(changeId, during, during == MadeDuring.CALLS ? inFlight : List.of());
    }
  }

  /**
   * Links each of the changes {@code changeIds}, recorded as made {@code during} (their rows say
   * so), to the shell calls in flight when that is {@link MadeDuring#CALLS}: the links {@link
   * #attribute} writes for one, in multi-row statements.
   */
  void linkToCallsInFlight(long[] changeIds, MadeDuring during) {
    if (during != MadeDuring.CALLS) {
      return;
    }
    List<long[]> links = new ArrayList<>(changeIds.length * inFlight.size());
    for (long change : changeIds) {
      inFlight.forEach(call -> links.add(new long[] {change, call}));
    }
    tx.fileChanges().linkToolCalls(links);
  }

  /** A file change row of a turn. */
  record TurnRecord(long turnId, long changeId) {}
}
