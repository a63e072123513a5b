package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.FILE_CHANGE;
import static io.turndiff.store.jooq.Tables.FILE_CHANGE_TOOL_CALL;
import static io.turndiff.store.jooq.Tables.SESSION;
import static io.turndiff.store.jooq.Tables.SNAPSHOT;
import static io.turndiff.store.jooq.Tables.TOOL_CALL;
import static io.turndiff.store.jooq.Tables.TURN;

import io.turndiff.model.ChangeKind;
import io.turndiff.model.DetectedBy;
import io.turndiff.model.GivenPath;
import io.turndiff.model.Sha256;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.jooq.tables.records.FileChangeRecord;
import io.turndiff.store.jooq.tables.records.SnapshotRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Record;

/** File changes: one row per path per turn, the first before-state of the path in the turn. */
public final class FileChanges {

  private final DSLContext dsl;
  private final Snapshots snapshots;

  FileChanges(DSLContext dsl, Snapshots snapshots) {
    this.dsl = dsl;
    this.snapshots = snapshots;
  }

  /** The id of the turn's file change for {@code path}, if the path has one. */
  public Optional<Long> idOf(long turnId, WorkspacePath path) {
    return dsl.select(FILE_CHANGE.ID).from(FILE_CHANGE)
        .where(FILE_CHANGE.TURN_ID.eq(turnId).and(FILE_CHANGE.PATH.eq(path.bytes())))
        .fetchOptional(FILE_CHANGE.ID);
  }

  /** Records the before-state of a path in a turn. */
  public long begin(long turnId, WorkspacePath path, Optional<GivenPath> via, DetectedBy detectedBy,
                    long beforeSnapshotId) {
    FileChangeRecord row = dsl.newRecord(FILE_CHANGE);
    row.setTurnId(turnId);
    row.setPath(path.bytes());
    row.setVia(via.map(GivenPath::bytes).orElse(null));
    row.setDetectedBy(detectedBy.code());
    row.setBeforeSnapshotId(beforeSnapshotId);
    row.store();
    return row.getId();
  }

  /** Notes that a tool call snapshotted the path (again); the first call's before-state stays. */
  public void linkToolCall(long fileChangeId, long toolCallId) {
    dsl.insertInto(FILE_CHANGE_TOOL_CALL)
        .set(FILE_CHANGE_TOOL_CALL.FILE_CHANGE_ID, fileChangeId)
        .set(FILE_CHANGE_TOOL_CALL.TOOL_CALL_ID, toolCallId)
        .onConflictDoNothing()
        .execute();
  }

  /** Records the after-state, the change and its diff. */
  public void complete(long fileChangeId, long afterSnapshotId, ChangeKind change, long linesAdded,
                       long linesRemoved, Optional<Sha256> diff) {
    dsl.update(FILE_CHANGE)
        .set(FILE_CHANGE.AFTER_SNAPSHOT_ID, afterSnapshotId)
        .set(FILE_CHANGE.CHANGE, change.code())
        .set(FILE_CHANGE.LINES_ADDED, linesAdded)
        .set(FILE_CHANGE.LINES_REMOVED, linesRemoved)
        .set(FILE_CHANGE.DIFF_SHA256, diff.map(Sha256::hex).orElse(null))
        .where(FILE_CHANGE.ID.eq(fileChangeId))
        .execute();
  }

  /** The turn's file changes with their snapshots, ordered by path bytes. */
  public List<StoredFileChange> ofTurn(long turnId) {
    List<StoredFileChange> changes = select(FILE_CHANGE.TURN_ID.eq(turnId));
    changes.sort((a, b) -> a.path().compareTo(b.path()));
    return changes;
  }

  /** Every change to {@code path} in the workspace's sessions, oldest turn first. */
  public List<StoredFileChange> ofPath(long workspaceId, WorkspacePath path) {
    List<Long> turns = dsl.select(TURN.ID).from(TURN).join(SESSION).on(SESSION.ID.eq(TURN.SESSION_ID))
        .where(SESSION.WORKSPACE_ID.eq(workspaceId)).fetch(TURN.ID);
    List<StoredFileChange> changes = select(FILE_CHANGE.PATH.eq(path.bytes()).and(FILE_CHANGE.TURN_ID.in(turns)));
    changes.sort((a, b) -> Long.compare(a.turnId(), b.turnId()));
    return changes;
  }

  private List<StoredFileChange> select(Condition condition) {
    var before = SNAPSHOT.as("before_snapshot");
    var after = SNAPSHOT.as("after_snapshot");
    List<Record> rows = dsl.select(FILE_CHANGE.fields())
        .select(before.fields())
        .select(after.fields())
        .from(FILE_CHANGE)
        .join(before).on(before.ID.eq(FILE_CHANGE.BEFORE_SNAPSHOT_ID))
        .leftJoin(after).on(after.ID.eq(FILE_CHANGE.AFTER_SNAPSHOT_ID))
        .where(condition)
        .fetch();
    Map<Long, List<String>> toolCalls = toolCallsOf(rows.stream().map(row -> row.get(FILE_CHANGE.ID)).toList());
    List<StoredFileChange> changes = new ArrayList<>(rows.size());
    for (Record row : rows) {
      SnapshotRecord beforeRow = row.into(before);
      SnapshotRecord afterRow = row.get(after.ID) == null ? null : row.into(after);
      changes.add(toStored(row.into(FILE_CHANGE), beforeRow, afterRow,
          toolCalls.getOrDefault(row.get(FILE_CHANGE.ID), List.of())));
    }
    return changes;
  }

  private Map<Long, List<String>> toolCallsOf(List<Long> fileChanges) {
    Map<Long, List<String>> byChange = new LinkedHashMap<>();
    if (fileChanges.isEmpty()) {
      return byChange;
    }
    dsl.select(FILE_CHANGE_TOOL_CALL.FILE_CHANGE_ID, TOOL_CALL.EXTERNAL_ID)
        .from(FILE_CHANGE_TOOL_CALL)
        .join(TOOL_CALL).on(TOOL_CALL.ID.eq(FILE_CHANGE_TOOL_CALL.TOOL_CALL_ID))
        .where(FILE_CHANGE_TOOL_CALL.FILE_CHANGE_ID.in(fileChanges))
        .orderBy(TOOL_CALL.ID)
        .forEach(row -> byChange.computeIfAbsent(row.value1(), id -> new ArrayList<>()).add(row.value2()));
    return byChange;
  }

  private static StoredFileChange toStored(FileChangeRecord row, SnapshotRecord before, SnapshotRecord after,
                                           List<String> toolCalls) {
    return new StoredFileChange(
        row.getId(),
        row.getTurnId(),
        WorkspacePath.fromStored(row.getPath()),
        Optional.ofNullable(row.getVia()).map(GivenPath::of),
        DetectedBy.fromCode(row.getDetectedBy()),
        row.getBeforeSnapshotId(),
        Snapshots.toSnapshot(before),
        Optional.ofNullable(row.getAfterSnapshotId()),
        Optional.ofNullable(after).map(Snapshots::toSnapshot),
        Optional.ofNullable(row.getChange()).map(ChangeKind::fromCode),
        row.getLinesAdded() == null ? 0 : row.getLinesAdded(),
        row.getLinesRemoved() == null ? 0 : row.getLinesRemoved(),
        Optional.ofNullable(row.getDiffSha256()).map(Sha256::new),
        List.copyOf(toolCalls));
  }
}
