package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.REWIND_DIRECTORY;
import static io.turndiff.store.jooq.Tables.REWIND_ENTRY;
import static io.turndiff.store.jooq.Tables.REWIND_OPERATION;
import static io.turndiff.store.jooq.Tables.REWIND_OPERATION_PATH;
import static io.turndiff.store.jooq.Tables.REWIND_OPERATION_TURN;
import static io.turndiff.store.jooq.Tables.SESSION;
import static io.turndiff.store.jooq.Tables.SNAPSHOT;
import static io.turndiff.store.jooq.Tables.TURN;

import io.turndiff.model.RewindStatus;
import io.turndiff.model.Sha256;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.jooq.tables.Snapshot;
import io.turndiff.store.jooq.tables.records.RewindEntryRecord;
import io.turndiff.store.jooq.tables.records.RewindOperationRecord;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.Query;
import org.jooq.Record;
import org.jooq.impl.DSL;

/** Rewind operations: their plan, their per-file journal, and their receipt. */
public final class RewindOperations {

  private final DSLContext dsl;
  private final InstantSource clock;
  private final PreparedQueries prepared;

  RewindOperations(DSLContext dsl, InstantSource clock, PreparedQueries prepared) {
    this.dsl = dsl;
    this.clock = clock;
    this.prepared = prepared;
  }

  public StoredRewindOperation create(
      String externalId,
      long sessionId,
      long targetTurnId,
      String scope,
      boolean force,
      long rewindTurnId,
      List<Long> turnIds,
      List<WorkspacePath> paths,
      Optional<String> beforeToolCall,
      Optional<Integer> hunk) {
    RewindOperationRecord row = dsl.newRecord(REWIND_OPERATION);
    row.setBeforeToolCall(beforeToolCall.orElse(null));
    row.setHunk(hunk.map(Integer::longValue).orElse(null));
    row.setExternalId(externalId);
    row.setSessionId(sessionId);
    row.setTargetTurnId(targetTurnId);
    row.setScope(scope);
    row.setForce(force ? 1L : 0L);
    row.setState("applying");
    row.setRewindTurnId(rewindTurnId);
    row.setCreatedAt(clock.millis());
    row.store();
    for (long turnId : turnIds) {
      dsl.insertInto(REWIND_OPERATION_TURN)
          .set(REWIND_OPERATION_TURN.OPERATION_ID, row.getId())
          .set(REWIND_OPERATION_TURN.TURN_ID, turnId)
          .execute();
    }
    for (WorkspacePath path : paths) {
      dsl.insertInto(REWIND_OPERATION_PATH)
          .set(REWIND_OPERATION_PATH.OPERATION_ID, row.getId())
          .set(REWIND_OPERATION_PATH.PATH, path.bytes())
          .execute();
    }
    return byExternalId(externalId).orElseThrow();
  }

  public Optional<StoredRewindOperation> byExternalId(String externalId) {
    return dsl.selectFrom(REWIND_OPERATION)
        .where(REWIND_OPERATION.EXTERNAL_ID.eq(externalId))
        .fetchOptional()
        .map(this::toStored);
  }

  /**
   * The operation that rewound {@code turnId} as a whole, if one did (a rewind of some of its
   * paths, or to before one of its tool calls, does not rewind the turn).
   */
  public Optional<StoredRewindOperation> thatRewound(long turnId) {
    return dsl.select(REWIND_OPERATION.fields())
        .from(REWIND_OPERATION)
        .join(REWIND_OPERATION_TURN)
        .on(REWIND_OPERATION_TURN.OPERATION_ID.eq(REWIND_OPERATION.ID))
        .where(REWIND_OPERATION_TURN.TURN_ID.eq(turnId))
        .and(REWIND_OPERATION.BEFORE_TOOL_CALL.isNull())
        .andNotExists(
            dsl.selectOne()
                .from(REWIND_OPERATION_PATH)
                .where(REWIND_OPERATION_PATH.OPERATION_ID.eq(REWIND_OPERATION.ID)))
        .orderBy(REWIND_OPERATION.ID.desc())
        .limit(1)
        .fetchOptional()
        .map(row -> toStored(row.into(REWIND_OPERATION)));
  }

  /**
   * The finished rewinds of some paths of turn {@code turnId} alone (scope {@code turn}), oldest
   * first; not a rewind of one hunk, which put back only part of its path.
   */
  public List<StoredRewindOperation> pathRewindsDoneOf(long turnId) {
    return dsl.selectFrom(REWIND_OPERATION)
        .where(
            REWIND_OPERATION
                .TARGET_TURN_ID
                .eq(turnId)
                .and(REWIND_OPERATION.SCOPE.eq("turn"))
                .and(REWIND_OPERATION.STATE.eq("done"))
                .and(REWIND_OPERATION.HUNK.isNull())
                .andExists(
                    dsl.selectOne()
                        .from(REWIND_OPERATION_PATH)
                        .where(REWIND_OPERATION_PATH.OPERATION_ID.eq(REWIND_OPERATION.ID))))
        .orderBy(REWIND_OPERATION.ID)
        .fetch(this::toStored);
  }

  /**
   * The finished operations that rewound (all or some paths of) each of the turns {@code turnIds},
   * oldest first, by turn row id; a turn no finished operation rewound is not in the map.
   */
  public Map<Long, List<StoredRewindOperation>> doneCovering(Collection<Long> turnIds) {
    Map<Long, StoredRewindOperation> operations = new HashMap<>();
    Map<Long, List<StoredRewindOperation>> byTurn = new LinkedHashMap<>();
    // prepared per length of its IN list, as every prompt asks it of the turn before (whether a
    // rewind undid it): rendered by jOOQ each time it took 5 % of a watched begin's wall time at
    // 250,000 files (docs/performance.md, "A begin's statements prepared"). A turn's rows fall in
    // one list, in the operations' order, so each turn's operations stay oldest first
    KeysFound.inQueries(
        turnIds,
        some ->
            KeysFound.preparedIn(
                    prepared,
                    "rewind_operation.doneCovering",
                    some,
                    Long.class,
                    RewindOperations::doneCoveringQuery)
                .rows(row -> new Covering(row.getLong(1), row.getLong(2)))
                .forEach(
                    covering ->
                        byTurn
                            .computeIfAbsent(covering.turnId(), turn -> new ArrayList<>())
                            .add(
                                operations.computeIfAbsent(
                                    covering.operationId(), this::requireById))));
    return byTurn;
  }

  /** A turn a done operation rewound: a row of {@link #doneCoveringQuery}. */
  private record Covering(long turnId, long operationId) {}

  /**
   * The done operations that rewound any of {@code turns}, a row for each turn and operation, in
   * the operations' order.
   */
  private static Query doneCoveringQuery(DSLContext dsl, List<Param<Long>> turns) {
    return dsl.select(REWIND_OPERATION_TURN.TURN_ID, REWIND_OPERATION.ID)
        .from(REWIND_OPERATION)
        .join(REWIND_OPERATION_TURN)
        .on(REWIND_OPERATION_TURN.OPERATION_ID.eq(REWIND_OPERATION.ID))
        .where(
            REWIND_OPERATION_TURN
                .TURN_ID
                .in(turns)
                .and(REWIND_OPERATION.STATE.eq(DSL.inline("done"))))
        .orderBy(REWIND_OPERATION.ID);
  }

  /**
   * The operation each rewind turn among {@code turnIds} records (finished or not), by turn row id.
   */
  public Map<Long, StoredRewindOperation> recordedBy(Collection<Long> turnIds) {
    Map<Long, StoredRewindOperation> byTurn = new LinkedHashMap<>();
    dsl.selectFrom(REWIND_OPERATION)
        .where(REWIND_OPERATION.REWIND_TURN_ID.in(turnIds))
        .orderBy(REWIND_OPERATION.ID)
        .fetch(this::toStored)
        .forEach(operation -> byTurn.put(operation.rewindTurnId(), operation));
    return byTurn;
  }

  /**
   * Whether the operation left nothing behind: no path and no directory skipped (what its report
   * calls {@code complete}).
   */
  public boolean complete(long operationId) {
    return !anyEntry(operationId, RewindStatus.SKIPPED)
        && !anyDirectory(operationId, StoredRewindDirectory.Status.SKIPPED);
  }

  /**
   * Whether the operation put anything back: a path restored (written, or found holding its
   * before-state already) or merged, or a directory made, removed or given its mode back. Two
   * look-ups of one row each, where loading the journal's entries with their snapshots to ask the
   * same was 17% of a rewind's samples in a chain of undone rewinds (each rewind settles every
   * level of the chain it undoes, docs/performance.md).
   */
  public boolean putAnythingBack(long operationId) {
    return anyEntry(operationId, RewindStatus.RESTORED, RewindStatus.MERGED)
        || anyDirectory(operationId, StoredRewindDirectory.Status.DONE);
  }

  private boolean anyEntry(long operationId, RewindStatus... statuses) {
    return dsl.fetchExists(
        dsl.selectOne()
            .from(REWIND_ENTRY)
            .where(
                REWIND_ENTRY
                    .OPERATION_ID
                    .eq(operationId)
                    .and(
                        REWIND_ENTRY.STATUS.in(
                            Arrays.stream(statuses).map(RewindStatus::code).toList()))));
  }

  private boolean anyDirectory(long operationId, StoredRewindDirectory.Status status) {
    return dsl.fetchExists(
        dsl.selectOne()
            .from(REWIND_DIRECTORY)
            .where(
                REWIND_DIRECTORY
                    .OPERATION_ID
                    .eq(operationId)
                    .and(REWIND_DIRECTORY.STATUS.eq(status.code()))));
  }

  private StoredRewindOperation requireById(long operationId) {
    return toStored(
        dsl.selectFrom(REWIND_OPERATION).where(REWIND_OPERATION.ID.eq(operationId)).fetchSingle());
  }

  /** The operations of a session that are still applying: interrupted, or running now. */
  public List<StoredRewindOperation> applyingIn(long sessionId) {
    return dsl.selectFrom(REWIND_OPERATION)
        .where(REWIND_OPERATION.SESSION_ID.eq(sessionId).and(REWIND_OPERATION.STATE.eq("applying")))
        .orderBy(REWIND_OPERATION.ID)
        .fetch(this::toStored);
  }

  /**
   * The process that last took the operation on ({@code pid:start time in epoch ms}), if one did.
   */
  public Optional<String> runner(long operationId) {
    return columnOf(operationId, REWIND_OPERATION.RUNNER);
  }

  /** One column of the operation's row, when it is not NULL. */
  private <T> Optional<T> columnOf(long operationId, Field<T> column) {
    return Optional.ofNullable(
        dsl.select(column)
            .from(REWIND_OPERATION)
            .where(REWIND_OPERATION.ID.eq(operationId))
            .fetchOne(column));
  }

  public void setRunner(long operationId, String runner) {
    dsl.update(REWIND_OPERATION)
        .set(REWIND_OPERATION.RUNNER, runner)
        .where(REWIND_OPERATION.ID.eq(operationId))
        .execute();
  }

  /**
   * Clears the operation's runner when it is still {@code runner}: no process applies the operation
   * now.
   */
  public void clearRunner(long operationId, String runner) {
    dsl.update(REWIND_OPERATION)
        .setNull(REWIND_OPERATION.RUNNER)
        .where(REWIND_OPERATION.ID.eq(operationId).and(REWIND_OPERATION.RUNNER.eq(runner)))
        .execute();
  }

  /**
   * A plan's journal entries, in order, as multi-row statements ({@link MultiRowInsert}: one per 64
   * entries, where one statement per entry was a sixth of a 57-file rewind's statements).
   */
  public void addEntries(long operationId, List<NewEntry> entries) {
    ENTRY_ROWS.insert(
        prepared,
        entries,
        entry ->
            new Object[] {
              operationId,
              entry.path().bytes(),
              entry.targetSnapshotId(),
              entry.expectedSnapshotId().orElse(null),
              entry.status().code(),
              entry.reason().orElse(null),
              entry.detail().orElse(null)
            });
  }

  /** One journal entry as a plan adds it ({@link #addEntries}). */
  public record NewEntry(
      WorkspacePath path,
      long targetSnapshotId,
      Optional<Long> expectedSnapshotId,
      RewindStatus status,
      Optional<String> reason,
      Optional<String> detail) {}

  private static final MultiRowInsert<NewEntry> ENTRY_ROWS =
      new MultiRowInsert<>(
          "rewind_entry.insert.rows",
          REWIND_ENTRY,
          List.of(
              REWIND_ENTRY.OPERATION_ID,
              REWIND_ENTRY.PATH,
              REWIND_ENTRY.TARGET_SNAPSHOT_ID,
              REWIND_ENTRY.EXPECTED_SNAPSHOT_ID,
              REWIND_ENTRY.STATUS,
              REWIND_ENTRY.REASON,
              REWIND_ENTRY.DETAIL),
          false);

  /** Where one entry moves on to in the journal ({@link #mark(Map)}). */
  public record Mark(
      RewindStatus status,
      Optional<String> reason,
      Optional<String> detail,
      Optional<Sha256> merged) {}

  /** Moves one entry on in the journal; a rewind marks each of its paths twice, prepared once. */
  public void mark(
      long entryId,
      RewindStatus status,
      Optional<String> reason,
      Optional<String> detail,
      Optional<Sha256> merged) {
    mark(Map.of(entryId, new Mark(status, reason, detail, merged)));
  }

  /**
   * Moves many entries on at once: the entries that move to the same {@link Mark} (a rewind's paths
   * mostly all do: started, then restored) by one {@code UPDATE .. WHERE id IN (..)} per 64 of
   * them, each size prepared once, where one statement per entry and mark was about a fifth of a
   * 57-file rewind's statements.
   */
  public void mark(Map<Long, Mark> byEntry) {
    Map<Mark, List<Long>> byMark = new LinkedHashMap<>();
    byEntry.forEach((id, mark) -> byMark.computeIfAbsent(mark, m -> new ArrayList<>()).add(id));
    byMark.forEach(
        (mark, ids) -> {
          for (int from = 0; from < ids.size(); from += MultiRowInsert.ROWS) {
            List<Long> some = ids.subList(from, Math.min(ids.size(), from + MultiRowInsert.ROWS));
            PreparedQuery statement =
                prepared.get(
                    "rewind_entry.mark." + some.size(),
                    q ->
                        q.update(REWIND_ENTRY)
                            .set(REWIND_ENTRY.STATUS, DSL.param("status", String.class))
                            .set(REWIND_ENTRY.REASON, DSL.param("reason", String.class))
                            .set(REWIND_ENTRY.DETAIL, DSL.param("detail", String.class))
                            .set(REWIND_ENTRY.MERGED_SHA256, DSL.param("merged", String.class))
                            .where(REWIND_ENTRY.ID.in(idParameters(some.size()))));
            statement
                .bind("status", mark.status().code())
                .bind("reason", mark.reason().orElse(null))
                .bind("detail", mark.detail().orElse(null))
                .bind("merged", mark.merged().map(Sha256::hex).orElse(null));
            for (int i = 0; i < some.size(); i++) {
              statement.bind("id" + i, some.get(i));
            }
            statement.update();
          }
        });
  }

  private static List<Field<Long>> idParameters(int count) {
    List<Field<Long>> ids = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      ids.add(DSL.param("id" + i, Long.class));
    }
    return ids;
  }

  /**
   * Journals, per entry, the temporary name its new content is about to be staged under: before the
   * file is created, so that a run killed before it renamed or removed the file leaves a name the
   * next run finds. One {@code UPDATE .. SET temporary_name = CASE id WHEN .. END WHERE id IN (..)}
   * per 64 entries, each size prepared once.
   */
  public void journalTemporaryNames(Map<Long, String> namesByEntry) {
    List<Map.Entry<Long, String>> names = new ArrayList<>(namesByEntry.entrySet());
    for (int from = 0; from < names.size(); from += MultiRowInsert.ROWS) {
      List<Map.Entry<Long, String>> some =
          names.subList(from, Math.min(names.size(), from + MultiRowInsert.ROWS));
      PreparedQuery statement =
          prepared.get(
              "rewind_entry.temporary_names." + some.size(),
              q -> {
                var byId =
                    DSL.choose(REWIND_ENTRY.ID)
                        .when(DSL.param("case0", Long.class), DSL.param("name0", String.class));
                for (int i = 1; i < some.size(); i++) {
                  byId =
                      byId.when(
                          DSL.param("case" + i, Long.class), DSL.param("name" + i, String.class));
                }
                return q.update(REWIND_ENTRY)
                    .set(REWIND_ENTRY.TEMPORARY_NAME, byId.otherwise(REWIND_ENTRY.TEMPORARY_NAME))
                    .where(REWIND_ENTRY.ID.in(idParameters(some.size())));
              });
      for (int i = 0; i < some.size(); i++) {
        statement
            .bind("case" + i, some.get(i).getKey())
            .bind("name" + i, some.get(i).getValue())
            .bind("id" + i, some.get(i).getKey());
      }
      statement.update();
    }
  }

  public List<StoredRewindEntry> entries(long operationId) {
    var target = SNAPSHOT.as("target_snapshot");
    var expected = SNAPSHOT.as("expected_snapshot");
    return dsl.select(REWIND_ENTRY.fields())
        .select(target.fields())
        .select(expected.fields())
        .from(REWIND_ENTRY)
        .join(target)
        .on(target.ID.eq(REWIND_ENTRY.TARGET_SNAPSHOT_ID))
        .leftJoin(expected)
        .on(expected.ID.eq(REWIND_ENTRY.EXPECTED_SNAPSHOT_ID))
        .where(REWIND_ENTRY.OPERATION_ID.eq(operationId))
        .orderBy(REWIND_ENTRY.ID)
        .fetch(row -> toEntry(row, target, expected));
  }

  private static StoredRewindEntry toEntry(Record row, Snapshot target, Snapshot expected) {
    RewindEntryRecord entry = row.into(REWIND_ENTRY);
    return new StoredRewindEntry(
        entry.getId(),
        WorkspacePath.fromStored(entry.getPath()),
        Snapshots.toSnapshot(row.into(target)),
        row.get(expected.ID) == null
            ? Optional.empty()
            : Optional.of(Snapshots.toSnapshot(row.into(expected))),
        RewindStatus.fromCode(entry.getStatus()),
        Optional.ofNullable(entry.getReason()),
        Optional.ofNullable(entry.getDetail()),
        Optional.ofNullable(entry.getMergedSha256()).map(Sha256::new),
        Optional.ofNullable(entry.getTemporaryName()));
  }

  public void markDone(long operationId) {
    dsl.update(REWIND_OPERATION)
        .set(REWIND_OPERATION.STATE, "done")
        .set(REWIND_OPERATION.FINISHED_AT, clock.millis())
        .where(REWIND_OPERATION.ID.eq(operationId))
        .execute();
  }

  /**
   * Notes the boot the operation is being applied in ({@code /proc/sys/kernel/random/boot_id}), and
   * that its writes are not synced yet: written in the journal's commit before its first change to
   * the workspace, so that a power loss at any later moment leaves a row that says which boot may
   * have lost them.
   */
  public void runningInBoot(long operationId, Optional<String> bootId) {
    dsl.update(REWIND_OPERATION)
        .set(REWIND_OPERATION.BOOT_ID, bootId.orElse(null))
        .set(REWIND_OPERATION.SYNCED, 0L)
        .where(REWIND_OPERATION.ID.eq(operationId))
        .execute();
  }

  /**
   * The operation finished and everything it wrote is known to be on the disk: one syncfs after it
   * all, or a check in a later boot that found it there (PowerLossRecovery). Never checked again.
   */
  public void markSynced(long operationId) {
    dsl.update(REWIND_OPERATION)
        .set(REWIND_OPERATION.SYNCED, 1L)
        .where(REWIND_OPERATION.ID.eq(operationId))
        .execute();
  }

  /** The boot the operation was last applied in, if the system told one. */
  public Optional<String> bootId(long operationId) {
    return columnOf(operationId, REWIND_OPERATION.BOOT_ID);
  }

  /**
   * The finished operations of a workspace whose writes were never made durable (the syncfs at
   * their end failed, or the process died between their finish and it), oldest first.
   */
  public List<StoredRewindOperation> doneUnsyncedIn(long workspaceId) {
    return dsl.select(REWIND_OPERATION.fields())
        .from(REWIND_OPERATION)
        .join(SESSION)
        .on(SESSION.ID.eq(REWIND_OPERATION.SESSION_ID))
        .where(SESSION.WORKSPACE_ID.eq(workspaceId))
        .and(REWIND_OPERATION.STATE.eq("done"))
        .and(REWIND_OPERATION.SYNCED.eq(0L))
        .orderBy(REWIND_OPERATION.ID)
        .fetch(row -> toStored(row.into(REWIND_OPERATION)));
  }

  private StoredRewindOperation toStored(RewindOperationRecord row) {
    List<String> turns =
        dsl.select(TURN.EXTERNAL_ID)
            .from(REWIND_OPERATION_TURN)
            .join(TURN)
            .on(TURN.ID.eq(REWIND_OPERATION_TURN.TURN_ID))
            .where(REWIND_OPERATION_TURN.OPERATION_ID.eq(row.getId()))
            .orderBy(TURN.SEQ.desc())
            .fetch(TURN.EXTERNAL_ID);
    String targetTurn =
        dsl.select(TURN.EXTERNAL_ID)
            .from(TURN)
            .where(TURN.ID.eq(row.getTargetTurnId()))
            .fetchOne(TURN.EXTERNAL_ID);
    String rewindTurn =
        dsl.select(TURN.EXTERNAL_ID)
            .from(TURN)
            .where(TURN.ID.eq(row.getRewindTurnId()))
            .fetchOne(TURN.EXTERNAL_ID);
    List<WorkspacePath> paths =
        dsl
            .select(REWIND_OPERATION_PATH.PATH)
            .from(REWIND_OPERATION_PATH)
            .where(REWIND_OPERATION_PATH.OPERATION_ID.eq(row.getId()))
            .fetch(REWIND_OPERATION_PATH.PATH)
            .stream()
            .map(WorkspacePath::fromStored)
            .sorted()
            .toList();
    return new StoredRewindOperation(
        row.getId(),
        row.getExternalId(),
        row.getSessionId(),
        targetTurn,
        row.getScope(),
        row.getForce() == 1L,
        row.getState().equals("done"),
        row.getRewindTurnId(),
        rewindTurn,
        turns,
        paths,
        Optional.ofNullable(row.getBeforeToolCall()),
        Optional.ofNullable(row.getHunk()).map(Long::intValue));
  }
}
