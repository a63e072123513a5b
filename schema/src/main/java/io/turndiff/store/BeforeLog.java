package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.BEFORE_LOG;
import static io.turndiff.store.jooq.Tables.BLOB;
import static io.turndiff.store.jooq.Tables.FILE_CHANGE;
import static io.turndiff.store.jooq.Tables.SNAPSHOT;
import static io.turndiff.store.jooq.Tables.TURN;

import io.turndiff.model.DetectedBy;
import io.turndiff.model.GivenPath;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.jooq.tables.records.BeforeLogRecord;
import io.turndiff.store.jooq.tables.records.SnapshotRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.IntStream;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Query;
import org.jooq.impl.DSL;

/**
 * The before log: where a snapshot call appends the before-states it read, one row a path, and from
 * which the next other transaction on the store folds them into the tool call, file change,
 * snapshot and blob tables ({@link Store} folds before it runs any other work, read or write, but
 * the work that reads or writes none of those rows: {@link Store#readWithoutFolding}).
 *
 * <p>Why a log: a before-state only has to survive a killed runtime, and a SQLite commit costs what
 * it writes. Recording the before-state in its tables dirties about fifteen pages (each row and a
 * page of each of their indexes); appending a row here dirties the log's last page, a page of its
 * one index and the content's overflow pages, and is as durable as any other commit (the WAL at
 * {@code synchronous=NORMAL}). The content is logged as it was read, raw: the fold compresses it,
 * so the call does not wait for zstd. The fold does the work once for every row appended since the
 * last one, in the transaction of whoever comes next: the turn's finish, a scan, a query of the
 * panel or the CLI, the service's start after a crash. So every reader sees the folded truth, and a
 * folded row is gone from the log in the same commit that recorded it.
 *
 * <p>What it does not do: a store that cannot be written (a read-only file or folder) cannot fold,
 * so a reader of it sees the tables as the last fold left them, without the logged calls.
 */
public final class BeforeLog {

  private final DSLContext dsl;
  private final PreparedQueries prepared;

  /**
   * The contents this transaction's fold stored, as they were logged raw ({@link #foldedBases}):
   * the finish that folded them compresses its after-states against them without reading them back
   * from the blob table and decompressing them.
   */
  private final Map<Sha256, byte[]> storedRaw = new HashMap<>();

  BeforeLog(DSLContext dsl, PreparedQueries prepared) {
    this.dsl = dsl;
    this.prepared = prepared;
  }

  /**
   * One logged before-state: the tool call that named the path, when, the state it saw, the symlink
   * it was reached through, and the content it read, when it read one the store may not hold: kept
   * raw ({@link BlobEncoder#unencoded}) for the fold to compress, or compressed whole.
   */
  public record Entry(
      long turnId,
      String toolCall,
      Optional<String> toolName,
      long calledAtMillis,
      Snapshot before,
      Optional<GivenPath> via,
      Optional<EncodedBlob> content) {}

  /** Appends {@code entry}: one row, no other table touched; a statement prepared once. */
  public void append(Entry entry) {
    PreparedQuery insert = prepared.get("before_log.insert", BeforeLog::insert);
    Object[] values = values(entry);
    for (int column = 0; column < LOG_COLUMNS.size(); column++) {
      insert.bind(LOG_COLUMNS.get(column).getName(), values[column]);
    }
    insert.update();
  }

  /**
   * Appends {@code entries}, the before-states one call read: one row each, in multi-row statements
   * ({@link MultiRowInsert}), so that a call naming many paths pays one statement per 64 of them
   * instead of one a path. A call of one path takes {@link #append}, its own statement.
   */
  public void appendAll(List<Entry> entries) {
    if (entries.size() == 1) {
      append(entries.getFirst());
      return;
    }
    MULTI_ROW.insert(prepared, entries, BeforeLog::values);
  }

  /** The log's columns but its key, in the order {@link #values} gives them. */
  private static final List<Field<?>> LOG_COLUMNS =
      Arrays.stream(BEFORE_LOG.fields()).filter(field -> !field.equals(BEFORE_LOG.ID)).toList();

  /**
   * The snapshot table's column of each log column's name (null for the log's own): looked up once,
   * since jOOQ's look-up of a field by name costs microseconds a time, on the path of every call.
   */
  private static final Field<?>[] SNAPSHOT_FIELDS =
      LOG_COLUMNS.stream().map(column -> SNAPSHOT.field(column.getName())).toArray(Field<?>[]::new);

  private static final MultiRowInsert<Entry> MULTI_ROW =
      new MultiRowInsert<>("before_log.insert.rows", BEFORE_LOG, LOG_COLUMNS, false);

  /**
   * A logged content's whole encoding: the log holds contents on their own, raw or compressed
   * without a dictionary (a before-state has no base a call knows of, and the log has no column for
   * a dictionary).
   */
  private static EncodedBlob.Whole whole(EncodedBlob content) {
    EncodedBlob.Whole whole =
        content
            .whole()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "a before-state's content is logged whole, not as a delta: "
                            + content.sha256()));
    if (whole.dictionary().isPresent()) {
      throw new IllegalArgumentException(
          "a before-state's content is logged without a dictionary: " + content.sha256());
    }
    return whole;
  }

  /** The row of {@code entry}: a value for each of {@link #LOG_COLUMNS}, in their order. */
  private static Object[] values(Entry entry) {
    SnapshotRecord snapshot = Snapshots.row(entry.before());
    Optional<EncodedBlob> content = entry.content();
    Object[] values = new Object[LOG_COLUMNS.size()];
    for (int column = 0; column < values.length; column++) {
      Field<?> field = LOG_COLUMNS.get(column);
      values[column] =
          switch (field.getName()) {
            case "turn_id" -> entry.turnId();
            case "tool_call" -> entry.toolCall();
            case "tool_name" -> entry.toolName().orElse(null);
            case "called_at" -> entry.calledAtMillis();
            case "via" -> entry.via().map(GivenPath::bytes).orElse(null);
            case "content_size" -> content.map(EncodedBlob::size).orElse(null);
            case "content_encoding" -> content.map(blob -> whole(blob).encoding()).orElse(null);
            case "content_data" -> content.map(blob -> whole(blob).data()).orElse(null);
            // the snapshot's own columns, under the same names
            default -> snapshot.get(SNAPSHOT_FIELDS[column]);
          };
    }
    return values;
  }

  /** The insert of a log row: a parameter for every column but its key, named as the column. */
  private static Query insert(DSLContext dsl) {
    Map<Field<?>, Field<?>> parameters = new LinkedHashMap<>();
    for (Field<?> column : BEFORE_LOG.fields()) {
      if (!column.equals(BEFORE_LOG.ID)) {
        parameters.put(column, DSL.param(column.getName(), column.getType()));
      }
    }
    return dsl.insertInto(BEFORE_LOG).set(parameters);
  }

  /**
   * What a call that names one path asks before it logs the path's before-state, in one prepared
   * query: whether the turn holds a before-state of the path already, folded into its records or
   * logged ({@link FileChanges#idOf}, or a row of this log), and whether the store holds the
   * content read ({@link Blobs#contains}; false when none was read). One statement instead of
   * three: each statement the driver runs costs its step, its result's column names and, in
   * auto-commit mode, a {@code BEGIN} it tries after the step, about 1.5 µs here, on a call of
   * about 60 µs (JMH {@code SnapshotCall}, 2026-12-05).
   */
  public PathSight sightOf(long turnId, WorkspacePath path, Optional<Sha256> content) {
    return prepared
        .get(
            "before_log.sight",
            q ->
                q.select(
                    DSL.field(
                        DSL.exists(
                                DSL.selectOne()
                                    .from(FILE_CHANGE)
                                    .where(
                                        FILE_CHANGE
                                            .TURN_ID
                                            .eq(DSL.param("turn", Long.class))
                                            .and(
                                                FILE_CHANGE.PATH.eq(
                                                    DSL.param("path", byte[].class)))))
                            .or(
                                DSL.exists(
                                    DSL.selectOne()
                                        .from(BEFORE_LOG)
                                        .where(
                                            BEFORE_LOG
                                                .TURN_ID
                                                .eq(DSL.param("logTurn", Long.class))
                                                .and(
                                                    BEFORE_LOG.PATH.eq(
                                                        DSL.param("logPath", byte[].class))))))),
                    DSL.field(
                        DSL.exists(
                            DSL.selectOne()
                                .from(BLOB)
                                .where(BLOB.SHA256.eq(DSL.param("sha", String.class)))))))
        // the turn and the path are bound twice, under two names: jOOQ's extractParams keeps one
        // entry per name, so a name used twice would not match PreparedQuery's count of
        // placeholders
        .bind("turn", turnId)
        .bind("path", path.bytes())
        .bind("logTurn", turnId)
        .bind("logPath", path.bytes())
        .bind("sha", content.map(Sha256::hex).orElse(null))
        .first(row -> new PathSight(row.getBoolean(1), row.getBoolean(2)))
        .orElseThrow();
  }

  /**
   * What {@link #sightOf} found.
   *
   * @param pathHeld the turn holds a before-state of the path already: this one is not its first
   * @param contentHeld the store holds the content read: the log refers to it instead of holding it
   */
  public record PathSight(boolean pathHeld, boolean contentHeld) {}

  /**
   * Which of {@code paths} the log holds a before-state of in the turn (not yet folded): for a call
   * naming many paths, one query per {@link KeysFound#PER_QUERY} of them instead of {@link
   * #sightOf} a path.
   */
  public Set<WorkspacePath> holding(long turnId, Collection<WorkspacePath> paths) {
    return KeysFound.among(
        paths,
        WorkspacePath::bytes,
        some ->
            dsl.select(BEFORE_LOG.PATH)
                .from(BEFORE_LOG)
                .where(BEFORE_LOG.TURN_ID.eq(turnId).and(BEFORE_LOG.PATH.in(some)))
                .fetch(BEFORE_LOG.PATH));
  }

  /** Whether the log holds anything to fold: one look at its first row. */
  public boolean isEmpty() {
    return prepared
        .get("before_log.any", q -> q.select(BEFORE_LOG.ID).from(BEFORE_LOG).limit(DSL.inline(1)))
        .firstLong()
        .isEmpty();
  }

  /**
   * Folds every logged before-state into the turn's records, in the order they were appended, and
   * empties the log; returns how many were folded. Each is recorded as a snapshot call records it
   * when it is not logged: the tool call taken (at the time it was called), the content stored, and
   * the path's file change begun with this state, unless the turn has one already, in which case
   * the first state stays and this call's state is kept on its link to the change (issue 24). A row
   * whose turn is gone is dropped (no transaction deletes a turn without folding first, so none
   * is).
   *
   * <p>A big turn's finish folds a row for every path its calls named (a thousand, for a turn of a
   * thousand files), so the rows are folded together, in a few statements per table: the contents
   * ({@code Blobs.putAll}), the tool calls ({@code ToolCalls.recordAll}), which paths the turns
   * hold already, and for each path new to its turn its snapshot, its file change and its link, in
   * multi-row inserts. A row of a path that its turn held before, or that an earlier row of the log
   * begins, is folded after them, one at a time ({@link #foldAgain}): what it does depends on what
   * the rows before it did, and it is rare (a path two calls of a turn named).
   */
  int fold(StoreTransaction tx) {
    if (isEmpty()) {
      return 0; // the common case, on every write: one prepared look
    }
    List<BeforeLogRecord> rows = dsl.selectFrom(BEFORE_LOG).orderBy(BEFORE_LOG.ID).fetch();
    Set<Long> turns =
        Set.copyOf(
            dsl.select(TURN.ID)
                .from(TURN)
                .where(
                    TURN.ID.in(rows.stream().map(BeforeLogRecord::getTurnId).distinct().toList()))
                .fetch(TURN.ID));
    foldAll(tx, rows.stream().filter(row -> turns.contains(row.getTurnId())).toList());
    dsl.deleteFrom(BEFORE_LOG).where(BEFORE_LOG.ID.le(rows.getLast().getId())).execute();
    return rows.size();
  }

  /**
   * The contents the fold of this transaction stored in the blob table (each the store did not hold
   * yet, stored whole: depth 0), as the delta bases a finish compresses its after-states against
   * ({@link Blobs#deltaBasesOf} would read and decode the same bytes): the bytes the snapshot calls
   * read and logged raw, under the hash they computed while reading them. A content the store held
   * already, or that a call logged compressed, is not among them (its depth is the store's).
   */
  public Map<Sha256, DeltaBase> foldedBases() {
    Map<Sha256, DeltaBase> bases = new HashMap<>();
    storedRaw.forEach(
        (sha256, content) -> bases.put(sha256, new DeltaBase(sha256, content, OptionalLong.of(0))));
    return bases;
  }

  /** Folds {@code rows}, whose turns exist, in order ({@link #fold}). */
  private static void foldAll(StoreTransaction tx, List<BeforeLogRecord> rows) {
    List<Snapshot> befores = rows.stream().map(BeforeLog::before).toList();
    List<EncodedBlob> contents = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      BeforeLogRecord row = rows.get(i);
      if (row.getContentData() != null) {
        contents.add(
            new EncodedBlob(
                befores.get(i).storedContent().orElseThrow(),
                row.getContentSize(),
                row.getContentEncoding(),
                row.getContentData()));
      }
    }
    tx.blobs().putAll(compressed(tx, contents, tx.beforeLog().storedRaw));
    long[] calls =
        tx.toolCalls()
            .recordAll(
                rows.stream()
                    .map(
                        row ->
                            new ToolCalls.Call(
                                row.getTurnId(),
                                row.getToolCall(),
                                Optional.ofNullable(row.getToolName()),
                                row.getCalledAt()))
                    .toList());
    // which rows begin their path's change: the first of a path its turn does not hold yet
    Map<Long, List<WorkspacePath>> pathsByTurn = new LinkedHashMap<>();
    for (int i = 0; i < rows.size(); i++) {
      pathsByTurn
          .computeIfAbsent(rows.get(i).getTurnId(), turn -> new ArrayList<>())
          .add(befores.get(i).path());
    }
    Map<Long, Set<WorkspacePath>> held = new HashMap<>();
    pathsByTurn.forEach(
        (turn, paths) ->
            held.put(turn, new HashSet<>(tx.fileChanges().idsOf(turn, paths).keySet())));
    List<Integer> first = new ArrayList<>();
    List<Integer> again = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      (held.get(rows.get(i).getTurnId()).add(befores.get(i).path()) ? first : again).add(i);
    }
    long[] snapshots = tx.snapshots().insertAll(first.stream().map(befores::get).toList());
    long[] changes =
        tx.fileChanges()
            .beginAll(
                IntStream.range(0, first.size())
                    .mapToObj(
                        n -> {
                          BeforeLogRecord row = rows.get(first.get(n));
                          return new FileChanges.Begin(
                              row.getTurnId(),
                              befores.get(first.get(n)).path(),
                              Optional.ofNullable(row.getVia()).map(GivenPath::of),
                              DetectedBy.SNAPSHOT,
                              snapshots[n]);
                        })
                    .toList());
    tx.fileChanges()
        .linkToolCalls(
            IntStream.range(0, first.size())
                .mapToObj(n -> new long[] {changes[n], calls[first.get(n)]})
                .toList());
    for (int i : again) {
      foldAgain(tx, rows.get(i).getTurnId(), befores.get(i), calls[i]);
    }
  }

  /** From this many logged contents the fold compresses them on the common pool. */
  private static final int PARALLEL_CONTENTS = 8;

  /**
   * The logged contents the store lacks, each once, compressed as the blob table keeps them: a
   * snapshot call logs what it read raw ({@link BlobEncoder#unencoded}), so that its caller does
   * not wait for zstd (a fifth of a one-path call's time in a big turn's profile); the fold, which
   * meets a turn's calls together at its finish, compresses them on the common pool. A row logged
   * compressed (by an older version) is stored as it is.
   */
  private static List<EncodedBlob> compressed(
      StoreTransaction tx, List<EncodedBlob> logged, Map<Sha256, byte[]> storedRaw) {
    if (logged.isEmpty()) {
      return List.of();
    }
    Map<Sha256, EncodedBlob> unique = new LinkedHashMap<>();
    logged.forEach(blob -> unique.putIfAbsent(blob.sha256(), blob));
    unique.keySet().removeAll(tx.blobs().containedAmong(unique.keySet()));
    // a list, not the map's values: their spliterator would hand the first 1,024 to one thread
    List<EncodedBlob> missing = List.copyOf(unique.values());
    // what the blob table is given below, whole, each content once: their raw bytes, for the finish
    for (EncodedBlob blob : missing) {
      blob.whole()
          .filter(whole -> whole.encoding().equals(BlobCodec.RAW) && blob.delta().isEmpty())
          .ifPresent(whole -> storedRaw.put(blob.sha256(), whole.data()));
    }
    return (missing.size() < PARALLEL_CONTENTS ? missing.stream() : missing.parallelStream())
        .map(BlobEncoder::compressedIfRaw)
        .toList();
  }

  /**
   * Folds a row of a path its turn has a change of: the first before-state stays; a call new to the
   * change keeps its own on its link (issue 24).
   */
  private static void foldAgain(StoreTransaction tx, long turnId, Snapshot before, long call) {
    long existing = tx.fileChanges().idOf(turnId, before.path()).orElseThrow();
    if (tx.fileChanges().linkToolCall(existing, call)) {
      tx.fileChanges().keepCallBefore(existing, call, tx.snapshots().insert(before));
    }
  }

  private static Snapshot before(BeforeLogRecord row) {
    return Snapshots.toSnapshot(row.into(SnapshotRecord.class));
  }
}
