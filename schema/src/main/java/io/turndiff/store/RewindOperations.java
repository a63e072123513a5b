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
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.InsertResultStep;
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
    long id =
        prepared
            .insertReturningKey("rewind_operation.create", RewindOperations::insertQuery)
            .bind("external_id", externalId)
            .bind("session", sessionId)
            .bind("target_turn", targetTurnId)
            .bind("scope", scope)
            .bind("force", force ? 1L : 0L)
            .bind("rewind_turn", rewindTurnId)
            .bind("created_at", clock.millis())
            .bind("before_tool_call", beforeToolCall.orElse(null))
            .bind("hunk", hunk.map(Integer::longValue).orElse(null))
            .insert()
            .orElseThrow();
    PreparedQuery turnRow =
        prepared.get(
            "rewind_operation.createTurn",
            q ->
                q.insertInto(REWIND_OPERATION_TURN)
                    .set(REWIND_OPERATION_TURN.OPERATION_ID, DSL.param("operation", Long.class))
                    .set(REWIND_OPERATION_TURN.TURN_ID, DSL.param("turn", Long.class)));
    for (long turnId : turnIds) {
      turnRow.bind("operation", id).bind("turn", turnId).addBatch();
    }
    turnRow.runBatch();
    PreparedQuery pathRow =
        prepared.get(
            "rewind_operation.createPath",
            q ->
                q.insertInto(REWIND_OPERATION_PATH)
                    .set(REWIND_OPERATION_PATH.OPERATION_ID, DSL.param("operation", Long.class))
                    .set(REWIND_OPERATION_PATH.PATH, DSL.param("path", byte[].class)));
    for (WorkspacePath path : paths) {
      pathRow.bind("operation", id).bind("path", path.bytes()).addBatch();
    }
    pathRow.runBatch();
    return byExternalId(externalId).orElseThrow();
  }

  private static InsertResultStep<?> insertQuery(DSLContext q) {
    return q.insertInto(REWIND_OPERATION)
        .set(REWIND_OPERATION.EXTERNAL_ID, DSL.param("external_id", String.class))
        .set(REWIND_OPERATION.SESSION_ID, DSL.param("session", Long.class))
        .set(REWIND_OPERATION.TARGET_TURN_ID, DSL.param("target_turn", Long.class))
        .set(REWIND_OPERATION.SCOPE, DSL.param("scope", String.class))
        .set(REWIND_OPERATION.FORCE, DSL.param("force", Long.class))
        .set(REWIND_OPERATION.STATE, DSL.inline("applying"))
        .set(REWIND_OPERATION.REWIND_TURN_ID, DSL.param("rewind_turn", Long.class))
        .set(REWIND_OPERATION.CREATED_AT, DSL.param("created_at", Long.class))
        .set(REWIND_OPERATION.BEFORE_TOOL_CALL, DSL.param("before_tool_call", String.class))
        .set(REWIND_OPERATION.HUNK, DSL.param("hunk", Long.class))
        .returning(REWIND_OPERATION.ID);
  }

  public Optional<StoredRewindOperation> byExternalId(String externalId) {
    return operations(
            prepared
                .get(
                    "rewind_operation.byExternalId",
                    q ->
                        q.select(RewindOperationRow.COLUMNS)
                            .from(REWIND_OPERATION)
                            .where(
                                REWIND_OPERATION.EXTERNAL_ID.eq(
                                    DSL.param("external_id", String.class))))
                .bind("external_id", externalId))
        .stream()
        .findFirst();
  }

  /**
   * The operation that rewound {@code turnId} as a whole, if one did (a rewind of some of its
   * paths, or to before one of its tool calls, does not rewind the turn).
   */
  public Optional<StoredRewindOperation> thatRewound(long turnId) {
    return operations(
            prepared
                .get(
                    "rewind_operation.thatRewound",
                    q ->
                        q.select(RewindOperationRow.COLUMNS)
                            .from(REWIND_OPERATION)
                            .join(REWIND_OPERATION_TURN)
                            .on(REWIND_OPERATION_TURN.OPERATION_ID.eq(REWIND_OPERATION.ID))
                            .where(REWIND_OPERATION_TURN.TURN_ID.eq(DSL.param("turn", Long.class)))
                            .and(REWIND_OPERATION.BEFORE_TOOL_CALL.isNull())
                            .andNotExists(
                                q.selectOne()
                                    .from(REWIND_OPERATION_PATH)
                                    .where(
                                        REWIND_OPERATION_PATH.OPERATION_ID.eq(REWIND_OPERATION.ID)))
                            .orderBy(REWIND_OPERATION.ID.desc())
                            .limit(DSL.inline(1)))
                .bind("turn", turnId))
        .stream()
        .findFirst();
  }

  /**
   * The finished rewinds of some paths of turn {@code turnId} alone (scope {@code turn}), oldest
   * first; not a rewind of one hunk, which put back only part of its path.
   */
  public List<StoredRewindOperation> pathRewindsDoneOf(long turnId) {
    return operations(
        prepared
            .get(
                "rewind_operation.pathRewindsDoneOf",
                q ->
                    q.select(RewindOperationRow.COLUMNS)
                        .from(REWIND_OPERATION)
                        .where(
                            REWIND_OPERATION
                                .TARGET_TURN_ID
                                .eq(DSL.param("turn", Long.class))
                                .and(REWIND_OPERATION.SCOPE.eq(DSL.inline("turn")))
                                .and(REWIND_OPERATION.STATE.eq(DSL.inline("done")))
                                .and(REWIND_OPERATION.HUNK.isNull())
                                .andExists(
                                    q.selectOne()
                                        .from(REWIND_OPERATION_PATH)
                                        .where(
                                            REWIND_OPERATION_PATH.OPERATION_ID.eq(
                                                REWIND_OPERATION.ID))))
                        .orderBy(REWIND_OPERATION.ID))
            .bind("turn", turnId));
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
    List<RewindOperationRow> rows = new ArrayList<>();
    KeysFound.inQueries(
        turnIds,
        some ->
            rows.addAll(
                KeysFound.preparedIn(
                        prepared,
                        "rewind_operation.recordedBy",
                        some,
                        Long.class,
                        (q, turns) ->
                            q.select(RewindOperationRow.COLUMNS)
                                .from(REWIND_OPERATION)
                                .where(REWIND_OPERATION.REWIND_TURN_ID.in(turns)))
                    .rows(RewindOperationRow::read)));
    // in the operations' order, over every list the turns were asked in
    rows.sort(Comparator.comparingLong(RewindOperationRow::id));
    Map<Long, StoredRewindOperation> byTurn = new LinkedHashMap<>();
    rows.stream().map(this::toStored).forEach(op -> byTurn.put(op.rewindTurnId(), op));
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

  /**
   * Whether any entry of the operation has one of {@code statuses}: the statuses are written into
   * the statement, one statement per set of them (a rewind asks two sets).
   */
  private boolean anyEntry(long operationId, RewindStatus... statuses) {
    List<String> codes = Arrays.stream(statuses).map(RewindStatus::code).toList();
    return prepared
        .get(
            "rewind_entry.any." + String.join(".", codes),
            q ->
                q.selectOne()
                    .where(
                        DSL.exists(
                            q.selectOne()
                                .from(REWIND_ENTRY)
                                .where(
                                    REWIND_ENTRY
                                        .OPERATION_ID
                                        .eq(DSL.param("operation", Long.class))
                                        .and(
                                            REWIND_ENTRY.STATUS.in(
                                                codes.stream().map(DSL::inline).toList()))))))
        .bind("operation", operationId)
        .firstLong()
        .isPresent();
  }

  private boolean anyDirectory(long operationId, StoredRewindDirectory.Status status) {
    return prepared
        .get(
            "rewind_directory.any." + status.code(),
            q ->
                q.selectOne()
                    .where(
                        DSL.exists(
                            q.selectOne()
                                .from(REWIND_DIRECTORY)
                                .where(
                                    REWIND_DIRECTORY
                                        .OPERATION_ID
                                        .eq(DSL.param("operation", Long.class))
                                        .and(
                                            REWIND_DIRECTORY.STATUS.eq(
                                                DSL.inline(status.code())))))))
        .bind("operation", operationId)
        .firstLong()
        .isPresent();
  }

  private StoredRewindOperation requireById(long operationId) {
    return operations(
            prepared
                .get(
                    "rewind_operation.byId",
                    q ->
                        q.select(RewindOperationRow.COLUMNS)
                            .from(REWIND_OPERATION)
                            .where(REWIND_OPERATION.ID.eq(DSL.param("id", Long.class))))
                .bind("id", operationId))
        .stream()
        .findFirst()
        .orElseThrow(() -> new StoreException("no rewind operation " + operationId));
  }

  /** The operations of a session that are still applying: interrupted, or running now. */
  public List<StoredRewindOperation> applyingIn(long sessionId) {
    return operations(
        prepared
            .get(
                "rewind_operation.applyingIn",
                q ->
                    q.select(RewindOperationRow.COLUMNS)
                        .from(REWIND_OPERATION)
                        .where(
                            REWIND_OPERATION
                                .SESSION_ID
                                .eq(DSL.param("session", Long.class))
                                .and(REWIND_OPERATION.STATE.eq(DSL.inline("applying"))))
                        .orderBy(REWIND_OPERATION.ID))
            .bind("session", sessionId));
  }

  /**
   * The process that last took the operation on ({@code pid:start time in epoch ms}), if one did.
   */
  public Optional<String> runner(long operationId) {
    return columnOf(operationId, REWIND_OPERATION.RUNNER);
  }

  /** One text column of the operation's row, when it is not NULL. */
  private Optional<String> columnOf(long operationId, Field<String> column) {
    return prepared
        .get(
            "rewind_operation.column." + column.getName(),
            q ->
                q.select(column)
                    .from(REWIND_OPERATION)
                    .where(REWIND_OPERATION.ID.eq(DSL.param("id", Long.class))))
        .bind("id", operationId)
        .firstText();
  }

  public void setRunner(long operationId, String runner) {
    prepared
        .get(
            "rewind_operation.setRunner",
            q ->
                q.update(REWIND_OPERATION)
                    .set(REWIND_OPERATION.RUNNER, DSL.param("runner", String.class))
                    .where(REWIND_OPERATION.ID.eq(DSL.param("id", Long.class))))
        .bind("runner", runner)
        .bind("id", operationId)
        .update();
  }

  /**
   * Clears the operation's runner when it is still {@code runner}: no process applies the operation
   * now.
   */
  public void clearRunner(long operationId, String runner) {
    prepared
        .get(
            "rewind_operation.clearRunner",
            q ->
                q.update(REWIND_OPERATION)
                    .set(REWIND_OPERATION.RUNNER, DSL.inline((String) null))
                    .where(
                        REWIND_OPERATION
                            .ID
                            .eq(DSL.param("id", Long.class))
                            .and(REWIND_OPERATION.RUNNER.eq(DSL.param("runner", String.class)))))
        .bind("id", operationId)
        .bind("runner", runner)
        .update();
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
   * them, where one statement per entry and mark was about a fifth of a 57-file rewind's
   * statements; prepared once for each length {@link #listLength} gives.
   */
  public void mark(Map<Long, Mark> byEntry) {
    Map<Mark, List<Long>> byMark = new LinkedHashMap<>();
    byEntry.forEach((id, mark) -> byMark.computeIfAbsent(mark, m -> new ArrayList<>()).add(id));
    byMark.forEach(
        (mark, ids) -> {
          for (int from = 0; from < ids.size(); from += MultiRowInsert.ROWS) {
            List<Long> some = ids.subList(from, Math.min(ids.size(), from + MultiRowInsert.ROWS));
            int length = KeysFound.listLength(some.size());
            PreparedQuery statement =
                prepared.get(
                    "rewind_entry.mark." + length,
                    q ->
                        q.update(REWIND_ENTRY)
                            .set(REWIND_ENTRY.STATUS, DSL.param("status", String.class))
                            .set(REWIND_ENTRY.REASON, DSL.param("reason", String.class))
                            .set(REWIND_ENTRY.DETAIL, DSL.param("detail", String.class))
                            .set(REWIND_ENTRY.MERGED_SHA256, DSL.param("merged", String.class))
                            .where(REWIND_ENTRY.ID.in(idParameters(length))));
            statement
                .bind("status", mark.status().code())
                .bind("reason", mark.reason().orElse(null))
                .bind("detail", mark.detail().orElse(null))
                .bind("merged", mark.merged().map(Sha256::hex).orElse(null));
            for (int i = 0; i < length; i++) {
              statement.bind("id" + i, some.get(i < some.size() ? i : 0));
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
   * per 64 entries, the list a power of two long as {@link #mark}'s is (the first entry named again
   * in the {@code CASE} with its own name, which sets it once).
   */
  public void journalTemporaryNames(Map<Long, String> namesByEntry) {
    List<Map.Entry<Long, String>> names = new ArrayList<>(namesByEntry.entrySet());
    for (int from = 0; from < names.size(); from += MultiRowInsert.ROWS) {
      List<Map.Entry<Long, String>> some =
          names.subList(from, Math.min(names.size(), from + MultiRowInsert.ROWS));
      int length = KeysFound.listLength(some.size());
      PreparedQuery statement =
          prepared.get(
              "rewind_entry.journalTemporaryNames." + length,
              q -> {
                var byId =
                    DSL.choose(REWIND_ENTRY.ID)
                        .when(DSL.param("case0", Long.class), DSL.param("name0", String.class));
                for (int i = 1; i < length; i++) {
                  byId =
                      byId.when(
                          DSL.param("case" + i, Long.class), DSL.param("name" + i, String.class));
                }
                return q.update(REWIND_ENTRY)
                    .set(REWIND_ENTRY.TEMPORARY_NAME, byId.otherwise(REWIND_ENTRY.TEMPORARY_NAME))
                    .where(REWIND_ENTRY.ID.in(idParameters(length)));
              });
      for (int i = 0; i < length; i++) {
        Map.Entry<Long, String> name = some.get(i < some.size() ? i : 0);
        statement
            .bind("case" + i, name.getKey())
            .bind("name" + i, name.getValue())
            .bind("id" + i, name.getKey());
      }
      statement.update();
    }
  }

  public List<StoredRewindEntry> entries(long operationId) {
    return prepared
        .get(
            "rewind_entry.ofOperation",
            q ->
                q.select(ENTRY_COLUMNS)
                    .from(REWIND_ENTRY)
                    .join(TARGET)
                    .on(TARGET.ID.eq(REWIND_ENTRY.TARGET_SNAPSHOT_ID))
                    .leftJoin(EXPECTED)
                    .on(EXPECTED.ID.eq(REWIND_ENTRY.EXPECTED_SNAPSHOT_ID))
                    .where(REWIND_ENTRY.OPERATION_ID.eq(DSL.param("operation", Long.class)))
                    .orderBy(REWIND_ENTRY.ID))
        .bind("operation", operationId)
        .records(dsl, ENTRY_COLUMNS, RewindOperations::toEntry);
  }

  private static final Snapshot TARGET = SNAPSHOT.as("target_snapshot");
  private static final Snapshot EXPECTED = SNAPSHOT.as("expected_snapshot");

  /** An entry's columns, then its target snapshot's, then its expected snapshot's. */
  private static final Field<?>[] ENTRY_COLUMNS =
      Stream.of(REWIND_ENTRY.fields(), TARGET.fields(), EXPECTED.fields())
          .flatMap(Arrays::stream)
          .toArray(Field<?>[]::new);

  private static StoredRewindEntry toEntry(Record row) {
    RewindEntryRecord entry = row.into(REWIND_ENTRY);
    return new StoredRewindEntry(
        entry.getId(),
        WorkspacePath.fromStored(entry.getPath()),
        Snapshots.toSnapshot(row.into(TARGET)),
        row.get(EXPECTED.ID) == null
            ? Optional.empty()
            : Optional.of(Snapshots.toSnapshot(row.into(EXPECTED))),
        RewindStatus.fromCode(entry.getStatus()),
        Optional.ofNullable(entry.getReason()),
        Optional.ofNullable(entry.getDetail()),
        Optional.ofNullable(entry.getMergedSha256()).map(Sha256::new),
        Optional.ofNullable(entry.getTemporaryName()));
  }

  public void markDone(long operationId) {
    prepared
        .get(
            "rewind_operation.markDone",
            q ->
                q.update(REWIND_OPERATION)
                    .set(REWIND_OPERATION.STATE, DSL.inline("done"))
                    .set(REWIND_OPERATION.FINISHED_AT, DSL.param("finished_at", Long.class))
                    .where(REWIND_OPERATION.ID.eq(DSL.param("id", Long.class))))
        .bind("finished_at", clock.millis())
        .bind("id", operationId)
        .update();
  }

  /**
   * Notes the boot the operation is being applied in ({@code /proc/sys/kernel/random/boot_id}), and
   * that its writes are not synced yet: written in the journal's commit before its first change to
   * the workspace, so that a power loss at any later moment leaves a row that says which boot may
   * have lost them.
   */
  public void runningInBoot(long operationId, Optional<String> bootId) {
    prepared
        .get(
            "rewind_operation.runningInBoot",
            q ->
                q.update(REWIND_OPERATION)
                    .set(REWIND_OPERATION.BOOT_ID, DSL.param("boot_id", String.class))
                    .set(REWIND_OPERATION.SYNCED, DSL.inline(0L))
                    .where(REWIND_OPERATION.ID.eq(DSL.param("id", Long.class))))
        .bind("boot_id", bootId.orElse(null))
        .bind("id", operationId)
        .update();
  }

  /**
   * The operation finished and everything it wrote is known to be on the disk: one syncfs after it
   * all, or a check in a later boot that found it there (PowerLossRecovery). Never checked again.
   */
  public void markSynced(long operationId) {
    prepared
        .get(
            "rewind_operation.markSynced",
            q ->
                q.update(REWIND_OPERATION)
                    .set(REWIND_OPERATION.SYNCED, DSL.inline(1L))
                    .where(REWIND_OPERATION.ID.eq(DSL.param("id", Long.class))))
        .bind("id", operationId)
        .update();
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
    return operations(
        prepared
            .get(
                "rewind_operation.doneUnsyncedIn",
                q ->
                    q.select(RewindOperationRow.COLUMNS)
                        .from(REWIND_OPERATION)
                        .join(SESSION)
                        .on(SESSION.ID.eq(REWIND_OPERATION.SESSION_ID))
                        .where(SESSION.WORKSPACE_ID.eq(DSL.param("workspace", Long.class)))
                        .and(REWIND_OPERATION.STATE.eq(DSL.inline("done")))
                        .and(REWIND_OPERATION.SYNCED.eq(DSL.inline(0L)))
                        .orderBy(REWIND_OPERATION.ID))
            .bind("workspace", workspaceId));
  }

  /**
   * The operations whose rows {@code query} selects ({@link RewindOperationRow#COLUMNS} first),
   * each with its turns and paths: read whole before the look-ups of each, which run statements of
   * their own on the same connection.
   */
  private List<StoredRewindOperation> operations(PreparedQuery query) {
    return query.rows(RewindOperationRow::read).stream().map(this::toStored).toList();
  }

  /**
   * The operation of {@code row} with its turns (newest first) and paths: four queries of three
   * prepared statements (the turns, a turn's external id run for the target and the rewind turn,
   * the paths). A rewind reads its operation and those of the turns it settles many times; rendered
   * by jOOQ at each call, the four were 1.8 % of a 57-file rewind's wall time (docs/performance.md,
   * "A rewind's statements prepared").
   */
  private StoredRewindOperation toStored(RewindOperationRow row) {
    List<String> turns =
        prepared
            .get(
                "rewind_operation.turnsOf",
                q ->
                    q.select(TURN.EXTERNAL_ID)
                        .from(REWIND_OPERATION_TURN)
                        .join(TURN)
                        .on(TURN.ID.eq(REWIND_OPERATION_TURN.TURN_ID))
                        .where(
                            REWIND_OPERATION_TURN.OPERATION_ID.eq(
                                DSL.param("operation", Long.class)))
                        .orderBy(TURN.SEQ.desc()))
            .bind("operation", row.id())
            .rows(turn -> turn.getString(1));
    List<WorkspacePath> paths =
        prepared
            .get(
                "rewind_operation.pathsOf",
                q ->
                    q.select(REWIND_OPERATION_PATH.PATH)
                        .from(REWIND_OPERATION_PATH)
                        .where(
                            REWIND_OPERATION_PATH.OPERATION_ID.eq(
                                DSL.param("operation", Long.class))))
            .bind("operation", row.id())
            .rows(path -> WorkspacePath.fromStored(path.getBytes(1)));
    return new StoredRewindOperation(
        row.id(),
        row.externalId(),
        row.sessionId(),
        externalIdOfTurn(row.targetTurnId()),
        row.scope(),
        row.force(),
        row.done(),
        row.rewindTurnId(),
        externalIdOfTurn(row.rewindTurnId()),
        turns,
        paths.stream().sorted().toList(),
        row.beforeToolCall(),
        row.hunk());
  }

  private String externalIdOfTurn(long turnId) {
    return prepared
        .get(
            "rewind_operation.turnExternalId",
            q ->
                q.select(TURN.EXTERNAL_ID)
                    .from(TURN)
                    .where(TURN.ID.eq(DSL.param("id", Long.class))))
        .bind("id", turnId)
        .firstText()
        .orElse(null);
  }
}
