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
import io.turndiff.model.MadeDuring;
import io.turndiff.model.Reason;
import io.turndiff.model.Sha256;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.jooq.tables.Snapshot;
import io.turndiff.store.jooq.tables.records.FileChangeRecord;
import io.turndiff.store.jooq.tables.records.SnapshotRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.SelectOnConditionStep;
import org.jooq.impl.DSL;

/** File changes: one row per path per turn, the first before-state of the path in the turn. */
public final class FileChanges {

  /** A change's before-snapshot, as {@link #selectWithSnapshots} joins it. */
  private static final Snapshot BEFORE = SNAPSHOT.as("before_snapshot");

  /** A change's after-snapshot (none yet: its columns null), as {@link #selectWithSnapshots}. */
  private static final Snapshot AFTER = SNAPSHOT.as("after_snapshot");

  /** What {@link #selectWithSnapshots} selects, in its order. */
  private static final Field<?>[] WITH_SNAPSHOTS =
      Stream.of(FILE_CHANGE.fields(), BEFORE.fields(), AFTER.fields())
          .flatMap(Arrays::stream)
          .toArray(Field<?>[]::new);

  private final DSLContext dsl;
  private final PreparedQueries prepared;
  private final SharedChanges shared;

  FileChanges(DSLContext dsl, PreparedQueries prepared, SharedChanges shared) {
    this.dsl = dsl;
    this.prepared = prepared;
    this.shared = shared;
  }

  /** The id of the turn's file change for {@code path}, if the path has one. */
  public Optional<Long> idOf(long turnId, WorkspacePath path) {
    return prepared
        .get(
            "file_change.id",
            q ->
                q.select(FILE_CHANGE.ID)
                    .from(FILE_CHANGE)
                    .where(
                        FILE_CHANGE
                            .TURN_ID
                            .eq(DSL.param("turn", Long.class))
                            .and(FILE_CHANGE.PATH.eq(DSL.param("path", byte[].class)))))
        .bind("turn", turnId)
        .bind("path", path.bytes())
        .firstLong();
  }

  /**
   * Which of {@code paths} the turn has a file change for: for a call naming many paths, one query
   * per {@link KeysFound#PER_QUERY} of them instead of {@link #idOf} a path.
   */
  public Set<WorkspacePath> recordedAmong(long turnId, Collection<WorkspacePath> paths) {
    return KeysFound.among(
        paths,
        WorkspacePath::bytes,
        some ->
            dsl.select(FILE_CHANGE.PATH)
                .from(FILE_CHANGE)
                .where(FILE_CHANGE.TURN_ID.eq(turnId).and(FILE_CHANGE.PATH.in(some)))
                .fetch(FILE_CHANGE.PATH));
  }

  /** Records the before-state of a path in a turn. */
  public long begin(
      long turnId,
      WorkspacePath path,
      Optional<GivenPath> via,
      DetectedBy detectedBy,
      long beforeSnapshotId) {
    return prepared
        .insertReturningKey(
            "file_change.insert",
            q ->
                q.insertInto(FILE_CHANGE)
                    .set(FILE_CHANGE.TURN_ID, DSL.param("turn", Long.class))
                    .set(FILE_CHANGE.PATH, DSL.param("path", byte[].class))
                    .set(FILE_CHANGE.VIA, DSL.param("via", byte[].class))
                    .set(FILE_CHANGE.DETECTED_BY, DSL.param("detected", String.class))
                    .set(FILE_CHANGE.BEFORE_SNAPSHOT_ID, DSL.param("before", Long.class))
                    .set(FILE_CHANGE.MADE_DURING, DSL.param("during", String.class))
                    .returning(FILE_CHANGE.ID))
        .bind("turn", turnId)
        .bind("path", path.bytes())
        .bind("via", via.map(GivenPath::bytes).orElse(null))
        .bind("detected", detectedBy.code())
        .bind("before", beforeSnapshotId)
        .bind("during", madeDuring(detectedBy).code())
        .insert()
        .orElseThrow();
  }

  /** A path's first before-state in a turn, to record ({@link #beginAll}). */
  public record Begin(
      long turnId,
      WorkspacePath path,
      Optional<GivenPath> via,
      DetectedBy detectedBy,
      long beforeSnapshotId) {}

  private static final MultiRowInsert<Begin> BEGIN_ROWS =
      new MultiRowInsert<>(
          "file_change.insert.rows",
          FILE_CHANGE,
          List.of(
              FILE_CHANGE.TURN_ID,
              FILE_CHANGE.PATH,
              FILE_CHANGE.VIA,
              FILE_CHANGE.DETECTED_BY,
              FILE_CHANGE.BEFORE_SNAPSHOT_ID,
              FILE_CHANGE.MADE_DURING),
          false);

  private static final MultiRowInsert<long[]> LINK_ROWS =
      new MultiRowInsert<>(
          "file_change_tool_call.insert.rows",
          FILE_CHANGE_TOOL_CALL,
          List.of(FILE_CHANGE_TOOL_CALL.FILE_CHANGE_ID, FILE_CHANGE_TOOL_CALL.TOOL_CALL_ID),
          true);

  /**
   * Records each of {@code begins} as {@link #begin} records one, in multi-row statements; returns
   * their rows in the same order. The paths must be new to their turns.
   */
  public long[] beginAll(List<Begin> begins) {
    return BEGIN_ROWS.insertReturningKeys(
        prepared,
        begins,
        begin ->
            new Object[] {
              begin.turnId(),
              begin.path().bytes(),
              begin.via().map(GivenPath::bytes).orElse(null),
              begin.detectedBy().code(),
              begin.beforeSnapshotId(),
              madeDuring(begin.detectedBy()).code()
            },
        FILE_CHANGE.ID);
  }

  /**
   * Links each change to a tool call ({@code links}: pairs of a change's row and a call's row), as
   * {@link #linkToolCall} links one, in multi-row statements.
   */
  public void linkToolCalls(List<long[]> links) {
    LINK_ROWS.insert(prepared, links, link -> new Object[] {link[0], link[1]});
  }

  /** A snapshot's tool call named the path; a scan's change is attributed by attribute(). */
  private static MadeDuring madeDuring(DetectedBy detectedBy) {
    return detectedBy == DetectedBy.SNAPSHOT ? MadeDuring.NAMED : MadeDuring.UNKNOWN;
  }

  /**
   * The rows of the turn's file changes of {@code paths}, by path: for a fold of many paths, one
   * query per {@link KeysFound#PER_QUERY} of them instead of {@link #idOf} a path.
   */
  public Map<WorkspacePath, Long> idsOf(long turnId, Collection<WorkspacePath> paths) {
    Map<WorkspacePath, Long> ids = new HashMap<>();
    KeysFound.inQueries(
        paths,
        some ->
            dsl.select(FILE_CHANGE.PATH, FILE_CHANGE.ID)
                .from(FILE_CHANGE)
                .where(
                    FILE_CHANGE
                        .TURN_ID
                        .eq(turnId)
                        .and(FILE_CHANGE.PATH.in(some.stream().map(WorkspacePath::bytes).toList())))
                .forEach(row -> ids.put(WorkspacePath.fromStored(row.value1()), row.value2())));
    return ids;
  }

  /**
   * Notes that a tool call snapshotted the path (again), or was in flight while a scan found it
   * changed; the change's first before-state stays. Returns whether the call is new to the change.
   */
  public boolean linkToolCall(long fileChangeId, long toolCallId) {
    return prepared
            .get(
                "file_change_tool_call.insert",
                q ->
                    q.insertInto(FILE_CHANGE_TOOL_CALL)
                        .set(FILE_CHANGE_TOOL_CALL.FILE_CHANGE_ID, DSL.param("change", Long.class))
                        .set(FILE_CHANGE_TOOL_CALL.TOOL_CALL_ID, DSL.param("call", Long.class))
                        .onConflictDoNothing())
            .bind("change", fileChangeId)
            .bind("call", toolCallId)
            .update()
        > 0;
  }

  /**
   * Keeps, on the change's link to a later tool call ({@link #linkToolCall}), the before-state that
   * call found: what a rewind to before that call puts back (issue 24). The first call's is the
   * change's own before-state and needs none.
   */
  public void keepCallBefore(long fileChangeId, long toolCallId, long beforeSnapshotId) {
    dsl.update(FILE_CHANGE_TOOL_CALL)
        .set(FILE_CHANGE_TOOL_CALL.BEFORE_SNAPSHOT_ID, beforeSnapshotId)
        .where(
            FILE_CHANGE_TOOL_CALL
                .FILE_CHANGE_ID
                .eq(fileChangeId)
                .and(FILE_CHANGE_TOOL_CALL.TOOL_CALL_ID.eq(toolCallId)))
        .execute();
  }

  /**
   * The tool calls of each of {@code fileChanges} (by its row), oldest call first, each with the
   * before-state it found when it is kept ({@link #keepCallBefore}).
   */
  public Map<Long, List<StoredCallBefore>> callsBefore(Collection<Long> fileChanges) {
    Map<Long, List<StoredCallBefore>> byChange = new LinkedHashMap<>();
    if (fileChanges.isEmpty()) {
      return byChange;
    }
    var before = SNAPSHOT.as("call_before");
    dsl.select(FILE_CHANGE_TOOL_CALL.FILE_CHANGE_ID, FILE_CHANGE_TOOL_CALL.BEFORE_SNAPSHOT_ID)
        .select(TOOL_CALL.fields())
        .select(before.fields())
        .from(FILE_CHANGE_TOOL_CALL)
        .join(TOOL_CALL)
        .on(TOOL_CALL.ID.eq(FILE_CHANGE_TOOL_CALL.TOOL_CALL_ID))
        .leftJoin(before)
        .on(before.ID.eq(FILE_CHANGE_TOOL_CALL.BEFORE_SNAPSHOT_ID))
        .where(FILE_CHANGE_TOOL_CALL.FILE_CHANGE_ID.in(fileChanges))
        .orderBy(TOOL_CALL.ID)
        .forEach(
            row -> {
              Optional<Long> beforeRow =
                  Optional.ofNullable(row.get(FILE_CHANGE_TOOL_CALL.BEFORE_SNAPSHOT_ID));
              byChange
                  .computeIfAbsent(
                      row.get(FILE_CHANGE_TOOL_CALL.FILE_CHANGE_ID), id -> new ArrayList<>())
                  .add(
                      new StoredCallBefore(
                          ToolCalls.toStored(row.into(TOOL_CALL)),
                          beforeRow,
                          beforeRow.map(id -> Snapshots.toSnapshot(row.into(before)))));
            });
    return byChange;
  }

  /**
   * Notes which tool calls the change a scan found was made during: {@code during}, and the shell
   * calls in flight then (rows of {@code tool_call}, empty unless {@link MadeDuring#CALLS}).
   */
  public void attribute(long fileChangeId, MadeDuring during, List<Long> callRows) {
    // A finish attributes every change it stores, one statement each: kept prepared rather than
    // rendered per call.
    prepared
        .get(
            "file_change.attribute",
            q ->
                q.update(FILE_CHANGE)
                    .set(FILE_CHANGE.MADE_DURING, DSL.param("during", String.class))
                    .where(FILE_CHANGE.ID.eq(DSL.param("change", Long.class))))
        .bind("during", during.code())
        .bind("change", fileChangeId)
        .update();
    callRows.forEach(call -> linkToolCall(fileChangeId, call));
  }

  /**
   * Marks the change a scan found at a file git ignores ({@link StoredFileChange#ignoredByGit}):
   * the scan's verdict, kept with the record because the file's ignore rules may change later while
   * what the record holds does not.
   */
  public void markIgnoredByGit(long fileChangeId) {
    dsl.update(FILE_CHANGE)
        .set(FILE_CHANGE.IGNORED_BY_GIT, 1L)
        .where(FILE_CHANGE.ID.eq(fileChangeId))
        .execute();
  }

  /**
   * A change's completion: its after-state's row, its kind and, unless its diff is pending, its
   * line counts and diff.
   */
  public record Completion(
      long fileChangeId,
      long afterSnapshotId,
      ChangeKind change,
      long linesAdded,
      long linesRemoved,
      Optional<Sha256> diff,
      boolean diffPending) {}

  /**
   * A change a scan found, recorded whole at once: its turn and path, the rows of its before- and
   * after-snapshot, its completion's kind, line counts and diff (none while its diff is pending),
   * what it was made during ({@link #attribute}) and whether it is a file git ignores.
   */
  public record Found(
      long turnId,
      WorkspacePath path,
      long beforeSnapshotId,
      long afterSnapshotId,
      ChangeKind change,
      long linesAdded,
      long linesRemoved,
      Optional<Sha256> diff,
      boolean diffPending,
      MadeDuring madeDuring,
      boolean ignoredByGit) {}

  private static final MultiRowInsert<Found> FOUND_ROWS =
      new MultiRowInsert<>(
          "file_change.insert.found",
          FILE_CHANGE,
          List.of(
              FILE_CHANGE.TURN_ID,
              FILE_CHANGE.PATH,
              FILE_CHANGE.DETECTED_BY,
              FILE_CHANGE.BEFORE_SNAPSHOT_ID,
              FILE_CHANGE.AFTER_SNAPSHOT_ID,
              FILE_CHANGE.CHANGE,
              FILE_CHANGE.LINES_ADDED,
              FILE_CHANGE.LINES_REMOVED,
              FILE_CHANGE.DIFF_SHA256,
              FILE_CHANGE.DIFF_PENDING,
              FILE_CHANGE.MADE_DURING,
              FILE_CHANGE.IGNORED_BY_GIT),
          false);

  /**
   * Records each of {@code found} as {@link #begin} (detected by scan), {@link #attribute}, {@link
   * #markIgnoredByGit} and {@link #complete} or {@link #completeWithDiffPending} would, each row
   * written once, whole, in multi-row statements (the links to the calls a change was made during
   * are the caller's: {@link #linkToolCalls}); returns their rows in the same order. The paths must
   * be new to their turns. A change recorded and then completed writes its row twice and moves it
   * in the indexes of its after-state and of pending diffs; a scan knows both states before it
   * writes either.
   */
  public long[] recordFound(List<Found> found) {
    return FOUND_ROWS.insertReturningKeys(
        prepared,
        found,
        change ->
            new Object[] {
              change.turnId(),
              change.path().bytes(),
              DetectedBy.SCAN.code(),
              change.beforeSnapshotId(),
              change.afterSnapshotId(),
              change.change().code(),
              change.diffPending() ? null : change.linesAdded(),
              change.diffPending() ? null : change.linesRemoved(),
              change.diffPending() ? null : change.diff().map(Sha256::hex).orElse(null),
              change.diffPending() ? 1L : 0L,
              change.madeDuring().code(),
              change.ignoredByGit() ? 1L : 0L
            },
        FILE_CHANGE.ID);
  }

  /**
   * Completes each of {@code completions} as {@link #complete} or {@link #completeWithDiffPending}
   * does one, the same prepared statements run as JDBC batches: what a finish of many files does.
   */
  public void completeAll(List<Completion> completions) {
    if (completions.size() == 1) {
      complete(completions.getFirst());
      return;
    }
    PreparedQuery withDiff = null;
    PreparedQuery pending = null;
    for (Completion completion : completions) {
      if (completion.diffPending()) {
        pending = bindCompletePending(completion);
        pending.addBatch();
      } else {
        withDiff = bindComplete(completion);
        withDiff.addBatch();
      }
    }
    if (withDiff != null) {
      withDiff.runBatch();
    }
    if (pending != null) {
      pending.runBatch();
    }
  }

  /** Completes one change ({@link Completion}). */
  public void complete(Completion completion) {
    (completion.diffPending() ? bindCompletePending(completion) : bindComplete(completion))
        .update();
  }

  private PreparedQuery bindComplete(Completion completion) {
    return prepared
        .get(
            "file_change.complete",
            q ->
                q.update(FILE_CHANGE)
                    .set(FILE_CHANGE.AFTER_SNAPSHOT_ID, DSL.param("after", Long.class))
                    .set(FILE_CHANGE.CHANGE, DSL.param("change", String.class))
                    .set(FILE_CHANGE.LINES_ADDED, DSL.param("added", Long.class))
                    .set(FILE_CHANGE.LINES_REMOVED, DSL.param("removed", Long.class))
                    .set(FILE_CHANGE.DIFF_SHA256, DSL.param("diff", String.class))
                    .where(FILE_CHANGE.ID.eq(DSL.param("id", Long.class))))
        .bind("after", completion.afterSnapshotId())
        .bind("change", completion.change().code())
        .bind("added", completion.linesAdded())
        .bind("removed", completion.linesRemoved())
        .bind("diff", completion.diff().map(Sha256::hex).orElse(null))
        .bind("id", completion.fileChangeId());
  }

  private PreparedQuery bindCompletePending(Completion completion) {
    return prepared
        .get(
            "file_change.complete_pending",
            q ->
                q.update(FILE_CHANGE)
                    .set(FILE_CHANGE.AFTER_SNAPSHOT_ID, DSL.param("after", Long.class))
                    .set(FILE_CHANGE.CHANGE, DSL.param("change", String.class))
                    .set(FILE_CHANGE.DIFF_PENDING, DSL.inline(1L))
                    .where(FILE_CHANGE.ID.eq(DSL.param("id", Long.class))))
        .bind("after", completion.afterSnapshotId())
        .bind("change", completion.change().code())
        .bind("id", completion.fileChangeId());
  }

  /** Records the after-state, the change and its diff. */
  public void complete(
      long fileChangeId,
      long afterSnapshotId,
      ChangeKind change,
      long linesAdded,
      long linesRemoved,
      Optional<Sha256> diff) {
    complete(
        new Completion(
            fileChangeId, afterSnapshotId, change, linesAdded, linesRemoved, diff, false));
  }

  /**
   * Records the after-state and the change, leaving the line diff for later ({@link #storeDiff}):
   * the row is marked as having its diff pending.
   */
  public void completeWithDiffPending(long fileChangeId, long afterSnapshotId, ChangeKind change) {
    complete(new Completion(fileChangeId, afterSnapshotId, change, 0, 0, Optional.empty(), true));
  }

  /**
   * Stores the line diff of a change whose diff is pending (its blob must be stored already), and
   * marks it computed; returns whether it was still pending (another writer may have stored the
   * same diff, or the turn may have been collected meanwhile).
   */
  public boolean storeDiff(
      long fileChangeId, long linesAdded, long linesRemoved, Optional<Sha256> diff) {
    return dsl.update(FILE_CHANGE)
            .set(FILE_CHANGE.LINES_ADDED, linesAdded)
            .set(FILE_CHANGE.LINES_REMOVED, linesRemoved)
            .set(FILE_CHANGE.DIFF_SHA256, diff.map(Sha256::hex).orElse(null))
            .set(FILE_CHANGE.DIFF_PENDING, 0L)
            .where(FILE_CHANGE.ID.eq(fileChangeId).and(FILE_CHANGE.DIFF_PENDING.eq(1L)))
            .execute()
        == 1;
  }

  /** The turn's changes whose line diff is pending, ordered by path bytes. */
  public List<StoredFileChange> diffPendingOfTurn(long turnId) {
    List<StoredFileChange> changes =
        select(FILE_CHANGE.TURN_ID.eq(turnId).and(FILE_CHANGE.DIFF_PENDING.eq(1L)));
    changes.sort((a, b) -> a.path().compareTo(b.path()));
    return changes;
  }

  /** The changes among the turns {@code turnIds} whose line diff is pending. */
  public List<StoredFileChange> diffPendingOfTurns(List<Long> turnIds) {
    return turnIds.isEmpty()
        ? List.of()
        : select(FILE_CHANGE.TURN_ID.in(turnIds).and(FILE_CHANGE.DIFF_PENDING.eq(1L)));
  }

  /** The turns that have a change whose line diff is pending, oldest first. */
  public List<Long> turnsWithDiffsPending() {
    return dsl.selectDistinct(FILE_CHANGE.TURN_ID)
        .from(FILE_CHANGE)
        .where(FILE_CHANGE.DIFF_PENDING.eq(1L))
        .orderBy(FILE_CHANGE.TURN_ID)
        .fetch(FILE_CHANGE.TURN_ID);
  }

  /**
   * How many file changes the turn has: what a finish compares with the records it read, to see
   * that no snapshot call added one meanwhile, without reading them again.
   */
  public int countOfTurn(long turnId) {
    return prepared
        .get(
            "file_change.count_of_turn",
            q ->
                q.selectCount()
                    .from(FILE_CHANGE)
                    .where(FILE_CHANGE.TURN_ID.eq(DSL.param("turn", Long.class))))
        .bind("turn", turnId)
        .firstLong()
        .map(Math::toIntExact)
        .orElse(0);
  }

  /**
   * A file change of which a state was not captured (its snapshot kept the file's metadata only),
   * and why: the before-state's reason, else the after-state's.
   */
  public record Uncaptured(WorkspacePath path, Reason reason) {}

  /**
   * The turn's changes a state of which was not captured, ordered by path bytes: those whose
   * before- or after-state is kept as metadata only (a snapshot row with a reason other than {@code
   * directory}, docs/store-layout.md "Snapshot rows"). What a prompt's note says of the previous
   * turn at every begin; only the paths and the two reasons are read, not the turn's every change
   * with its snapshots, tool calls and sharing turns as {@link #ofTurn} reads them.
   */
  public List<Uncaptured> uncapturedOfTurn(long turnId) {
    return prepared
        .get(
            "file_change.uncaptured",
            q -> {
              var before = SNAPSHOT.as("before_snapshot");
              var after = SNAPSHOT.as("after_snapshot");
              // the before-state's reason when it was not captured, else the after-state's: the
              // change is one of the turn's uncaptured exactly when the reason so chosen is
              Field<String> reason =
                  DSL.when(metadataOnly(before.REASON), before.REASON).otherwise(after.REASON);
              return q.select(FILE_CHANGE.PATH, reason)
                  .from(FILE_CHANGE)
                  .join(before)
                  .on(before.ID.eq(FILE_CHANGE.BEFORE_SNAPSHOT_ID))
                  .leftJoin(after)
                  .on(after.ID.eq(FILE_CHANGE.AFTER_SNAPSHOT_ID))
                  .where(FILE_CHANGE.TURN_ID.eq(DSL.param("turn", Long.class)))
                  .and(metadataOnly(reason));
            })
        .bind("turn", turnId)
        .rows(
            row ->
                new Uncaptured(
                    WorkspacePath.fromStored(row.getBytes(1)), Reason.fromCode(row.getString(2))))
        .stream()
        .sorted(Comparator.comparing(Uncaptured::path))
        .toList();
  }

  /**
   * Whether a snapshot's reason makes it one of metadata only: a reason, and not a directory's (a
   * directory is recorded as what it is, with reason {@code directory}).
   */
  private static Condition metadataOnly(Field<String> reason) {
    return reason.isNotNull().and(reason.ne(DSL.inline(Reason.DIRECTORY.code())));
  }

  /** The turn's file changes with their snapshots, ordered by path bytes. */
  public List<StoredFileChange> ofTurn(long turnId) {
    // Prepared once per connection: every finish reads its turn's records, and jOOQ's building and
    // SQLite's preparing of this three-table select cost more than reading a turn's few rows
    // (docs/performance.md, "A begin's and a finish's lookups prepared"). The records' calls and
    // sharers are still asked through jOOQ, and only when the turn has records.
    List<Record> rows =
        prepared
            .get(
                "file_change.ofTurn",
                q ->
                    selectWithSnapshots(q)
                        .where(FILE_CHANGE.TURN_ID.eq(DSL.param("turn", Long.class))))
            .bind("turn", turnId)
            .records(dsl, WITH_SNAPSHOTS, row -> row);
    List<StoredFileChange> changes = withCallsAndSharers(rows);
    changes.sort((a, b) -> a.path().compareTo(b.path()));
    return changes;
  }

  /**
   * The changes the turns {@code turnIds} recorded of any of {@code paths}, with their snapshots
   * (one query, whatever the turns recorded elsewhere), ordered by turn and path.
   */
  public List<StoredFileChange> ofTurnsAt(
      Collection<Long> turnIds, Collection<WorkspacePath> paths) {
    if (turnIds.isEmpty() || paths.isEmpty()) {
      return List.of();
    }
    List<StoredFileChange> changes =
        select(
            FILE_CHANGE
                .TURN_ID
                .in(turnIds)
                .and(FILE_CHANGE.PATH.in(paths.stream().map(WorkspacePath::bytes).toList())));
    changes.sort(
        Comparator.comparingLong(StoredFileChange::turnId).thenComparing(StoredFileChange::path));
    return changes;
  }

  /**
   * Every change in the workspace's sessions recorded under {@code path}, or for a path given
   * exactly as {@code given} (its {@code via}: a name that led elsewhere through a symlink), oldest
   * turn first.
   */
  public List<StoredFileChange> ofPath(long workspaceId, WorkspacePath path, GivenPath given) {
    List<Long> turns =
        dsl.select(TURN.ID)
            .from(TURN)
            .join(SESSION)
            .on(SESSION.ID.eq(TURN.SESSION_ID))
            .where(SESSION.WORKSPACE_ID.eq(workspaceId))
            .fetch(TURN.ID);
    List<StoredFileChange> changes =
        select(
            FILE_CHANGE
                .TURN_ID
                .in(turns)
                .and(FILE_CHANGE.PATH.eq(path.bytes()).or(FILE_CHANGE.VIA.eq(given.bytes()))));
    changes.sort(
        Comparator.comparingLong(StoredFileChange::turnId).thenComparing(StoredFileChange::path));
    return changes;
  }

  private List<StoredFileChange> select(Condition condition) {
    return withCallsAndSharers(selectWithSnapshots(dsl).where(condition).fetch());
  }

  /** A change's columns, then its before-snapshot's, then its after-snapshot's (or nulls). */
  private static SelectOnConditionStep<Record> selectWithSnapshots(DSLContext dsl) {
    return dsl.select(WITH_SNAPSHOTS)
        .from(FILE_CHANGE)
        .join(BEFORE)
        .on(BEFORE.ID.eq(FILE_CHANGE.BEFORE_SNAPSHOT_ID))
        .leftJoin(AFTER)
        .on(AFTER.ID.eq(FILE_CHANGE.AFTER_SNAPSHOT_ID));
  }

  /**
   * The changes {@code rows} of {@link #selectWithSnapshots} hold, with their calls and sharers.
   */
  private List<StoredFileChange> withCallsAndSharers(List<Record> rows) {
    List<Long> ids = rows.stream().map(row -> row.get(FILE_CHANGE.ID)).toList();
    Map<Long, List<StoredToolCall>> toolCalls = toolCallsOf(ids);
    Map<Long, List<SharedChanges.SharedTurn>> shared = this.shared.of(ids);
    List<StoredFileChange> changes = new ArrayList<>(rows.size());
    for (Record row : rows) {
      SnapshotRecord beforeRow = row.into(BEFORE);
      SnapshotRecord afterRow = row.get(AFTER.ID) == null ? null : row.into(AFTER);
      changes.add(
          toStored(
              row.into(FILE_CHANGE),
              beforeRow,
              afterRow,
              toolCalls.getOrDefault(row.get(FILE_CHANGE.ID), List.of()),
              shared.getOrDefault(row.get(FILE_CHANGE.ID), List.of())));
    }
    return changes;
  }

  private Map<Long, List<StoredToolCall>> toolCallsOf(List<Long> fileChanges) {
    Map<Long, List<StoredToolCall>> byChange = new LinkedHashMap<>();
    // prepared per length of its IN list (KeysFound.preparedIn): rendered by jOOQ at every read of
    // a turn's changes it was 1.6 % of a 57-file rewind's wall time. All of one change's calls fall
    // in one list, in the calls' order
    KeysFound.inQueries(
        fileChanges,
        some ->
            KeysFound.preparedIn(
                    prepared,
                    "file_change_tool_call.of",
                    some,
                    Long.class,
                    (q, changes) ->
                        q.select(CALLS_OF_CHANGES)
                            .from(FILE_CHANGE_TOOL_CALL)
                            .join(TOOL_CALL)
                            .on(TOOL_CALL.ID.eq(FILE_CHANGE_TOOL_CALL.TOOL_CALL_ID))
                            .where(FILE_CHANGE_TOOL_CALL.FILE_CHANGE_ID.in(changes))
                            .orderBy(TOOL_CALL.ID))
                .records(dsl, CALLS_OF_CHANGES, row -> row)
                .forEach(
                    row ->
                        byChange
                            .computeIfAbsent(
                                row.get(FILE_CHANGE_TOOL_CALL.FILE_CHANGE_ID),
                                id -> new ArrayList<>())
                            .add(ToolCalls.toStored(row.into(TOOL_CALL)))));
    return byChange;
  }

  /** A file change's id, then the columns of one of its tool calls. */
  private static final Field<?>[] CALLS_OF_CHANGES =
      Stream.concat(
              Stream.of(FILE_CHANGE_TOOL_CALL.FILE_CHANGE_ID), Arrays.stream(TOOL_CALL.fields()))
          .toArray(Field<?>[]::new);

  private static StoredFileChange toStored(
      FileChangeRecord row,
      SnapshotRecord before,
      SnapshotRecord after,
      List<StoredToolCall> toolCalls,
      List<SharedChanges.SharedTurn> alsoPossible) {
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
        toolCalls.stream().map(StoredToolCall::externalId).toList(),
        row.getDiffPending() == 1,
        alsoPossible,
        MadeDuring.fromCode(row.getMadeDuring()),
        toolCalls,
        row.getIgnoredByGit() == 1);
  }
}
