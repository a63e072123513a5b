package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.FILE_CHANGE;
import static io.turndiff.store.jooq.Tables.SESSION;
import static io.turndiff.store.jooq.Tables.SNAPSHOT;
import static io.turndiff.store.jooq.Tables.TURN;

import io.turndiff.model.ChangeKind;
import io.turndiff.model.DetectedBy;
import io.turndiff.model.Reason;
import io.turndiff.model.RequestException;
import io.turndiff.model.RuntimeProcess;
import io.turndiff.model.TurnEnding;
import io.turndiff.model.TurnKind;
import io.turndiff.model.TurnState;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.Query;
import org.jooq.Record;
import org.jooq.SelectOnConditionStep;
import org.jooq.impl.DSL;

/** Turns, numbered from 1 within their session. */
public final class Turns {

  /**
   * A row of {@link #listing}: the turn's columns ({@link TurnRow#COLUMNS}), then its counts in the
   * order the query selects them (a sum is read as a long: SQLite's and PostgreSQL's numerics
   * alike).
   */
  private static final PreparedQuery.RowReader<TurnListing> TURN_LISTING =
      row -> {
        int counts = TurnRow.COLUMNS.length;
        return new TurnListing(
            TurnRow.read(row),
            row.getInt(counts + 1),
            row.getInt(counts + 2),
            row.getLong(counts + 3),
            row.getLong(counts + 4),
            row.getInt(counts + 5),
            row.getInt(counts + 6));
      };

  private final DSLContext dsl;
  private final InstantSource clock;
  private final PreparedQueries prepared;

  Turns(DSLContext dsl, InstantSource clock, PreparedQueries prepared) {
    this.dsl = dsl;
    this.clock = clock;
    this.prepared = prepared;
  }

  /**
   * The state of {@code turn} now, empty when the store no longer holds it (a prepared statement:
   * it runs on every snapshot call).
   *
   * <p>The row is found by its id, its external id and when it began, together. A caller holds a
   * turn it read earlier, and meanwhile another process may have finished and collected it; SQLite
   * then gives its id (the largest rowid) to the next turn begun, and by its id alone a call would
   * find that other turn open and record into it. A hook's generated external ids count a session's
   * turns, so the next turn may take the external id too. The start tells them apart: the old turn
   * was finished, collected and the new one begun after it, each a commit of its own (a collection
   * alone takes milliseconds). Only a store clock (the system's) set back meanwhile, or all of it
   * within one millisecond, could give the new row the old one's start; then the two would match,
   * as they would by their id alone. Declaring {@code turn.id} {@code AUTOINCREMENT} (a rebuilt
   * table) would end the reuse itself.
   */
  public Optional<TurnState> state(StoredTurn turn) {
    return prepared
        .get(
            "turn.state",
            q ->
                q.select(TURN.STATE)
                    .from(TURN)
                    .where(TURN.ID.eq(DSL.param("id", Long.class)))
                    .and(TURN.EXTERNAL_ID.eq(DSL.param("external", String.class)))
                    .and(TURN.BEGAN_AT.eq(DSL.param("began", Long.class))))
        .bind("id", turn.id())
        .bind("external", turn.externalId())
        .bind("began", turn.beganAt().toEpochMilli())
        .firstText()
        .map(TurnState::fromCode);
  }

  /**
   * Opens a new turn as the next in its session. Its two statements, as the lookups below, are
   * prepared once per connection: every prompt's begin runs them.
   */
  public StoredTurn begin(String externalId, StoredSession session, TurnKind kind) {
    long last =
        prepared
            .get(
                "turn.lastSeq",
                q ->
                    q.select(DSL.coalesce(DSL.max(TURN.SEQ), DSL.inline(0L)))
                        .from(TURN)
                        .where(TURN.SESSION_ID.eq(DSL.param("session", Long.class))))
            .bind("session", session.id())
            .firstLong()
            .orElseThrow();
    long id =
        prepared
            .insertReturningKey(
                "turn.begin",
                q ->
                    q.insertInto(TURN)
                        .set(TURN.EXTERNAL_ID, DSL.param("external_id", String.class))
                        .set(TURN.SESSION_ID, DSL.param("session", Long.class))
                        .set(TURN.SEQ, DSL.param("seq", Long.class))
                        .set(TURN.KIND, DSL.param("kind", String.class))
                        .set(TURN.STATE, DSL.inline(TurnState.OPEN.code()))
                        .set(TURN.BEGAN_AT, DSL.param("began", Long.class))
                        .returning(TURN.ID))
            .bind("external_id", externalId)
            .bind("session", session.id())
            .bind("seq", last + 1)
            .bind("kind", kind.code())
            .bind("began", clock.millis())
            .insert()
            .orElseThrow();
    return byId(id).orElseThrow();
  }

  /**
   * The turn {@code externalId} names. This lookup, {@link #byId} and {@link #open} run as
   * statements prepared once per connection: a hook asks them several times a call, and jOOQ's
   * building, rendering and binding of a statement cost more than SQLite's lookup of a row or a few
   * (docs/performance.md, "The turns' lookups prepared, the open turns indexed").
   */
  public Optional<StoredTurn> byExternalId(String externalId) {
    return firstTurn(
        prepared
            .get(
                "turn.byExternalId",
                q -> select(q).where(TURN.EXTERNAL_ID.eq(DSL.param("external_id", String.class))))
            .bind("external_id", externalId));
  }

  /**
   * The turn a request names by its external id.
   *
   * @throws RequestException {@link RequestException.Problem#UNKNOWN_TURN}, naming it, when there
   *     is none
   */
  public StoredTurn require(String externalId) {
    return byExternalId(externalId)
        .orElseThrow(
            () ->
                new RequestException(
                    RequestException.Problem.UNKNOWN_TURN,
                    "turn '" + externalId + "' does not exist"));
  }

  /**
   * The turns whose external id begins with {@code prefix}, at most {@code limit}, in the order
   * they began: what a person's shortened id may name ({@code turndiff show --turn turn-3f2a}). The
   * prefix is compared as text, never as a pattern, so {@code _} and {@code %} mean themselves.
   */
  public List<StoredTurn> withIdPrefix(String prefix, int limit) {
    return PreparedQuery.rowsOf(
        select()
            .where(DSL.substring(TURN.EXTERNAL_ID, 1, prefix.length()).eq(prefix))
            .orderBy(TURN.ID)
            .limit(limit),
        TurnRow::read);
  }

  public Optional<StoredTurn> byId(long id) {
    return firstTurn(
        prepared
            .get("turn.byId", q -> select(q).where(TURN.ID.eq(DSL.param("id", Long.class))))
            .bind("id", id));
  }

  /** The turns of a session in order. */
  public List<StoredTurn> ofSession(long sessionId) {
    // rendered by jOOQ, not a prepared statement as the lookups above: a session's turns are many
    // rows, whose reading dwarfs the rendering (TurnLookupBenchmark.turnsOfSession,
    // docs/performance.md); read by position all the same
    return PreparedQuery.rowsOf(
        select().where(TURN.SESSION_ID.eq(sessionId)).orderBy(TURN.SEQ), TurnRow::read);
  }

  /**
   * The turn numbered {@code seq} in session {@code sessionId}, if there is one: one row through
   * the session's unique (session, number) index. A hook asks what came just before the turn it
   * began; reading the session's every turn for that made each hook cost more the longer its
   * session ran (docs/performance.md, "A hook's questions sized to their answers").
   */
  public Optional<StoredTurn> inSession(long sessionId, long seq) {
    return firstTurn(
        prepared
            .get(
                "turn.inSession",
                q ->
                    select(q)
                        .where(TURN.SESSION_ID.eq(DSL.param("session", Long.class)))
                        .and(TURN.SEQ.eq(DSL.param("seq", Long.class))))
            .bind("session", sessionId)
            .bind("seq", seq));
  }

  /**
   * The last turn of kind {@code kind} numbered before {@code seq} in session {@code sessionId}:
   * the store walks the session's (session, number) index back from {@code seq} and stops at the
   * first turn of that kind, instead of the caller reading the session's every turn to keep the
   * last.
   */
  public Optional<StoredTurn> lastOfKindBefore(long sessionId, long seq, TurnKind kind) {
    return firstTurn(
        prepared
            .get(
                "turn.lastOfKindBefore",
                q ->
                    select(q)
                        .where(TURN.SESSION_ID.eq(DSL.param("session", Long.class)))
                        .and(TURN.SEQ.lt(DSL.param("seq", Long.class)))
                        .and(TURN.KIND.eq(DSL.param("kind", String.class)))
                        .orderBy(TURN.SEQ.desc())
                        .limit(DSL.inline(1)))
            .bind("session", sessionId)
            .bind("seq", seq)
            .bind("kind", kind.code()));
  }

  /** How many turns session {@code sessionId} has, counted by the store, not read. */
  public long countOfSession(long sessionId) {
    return prepared
        .get(
            "turn.countOfSession",
            q ->
                q.selectCount()
                    .from(TURN)
                    .where(TURN.SESSION_ID.eq(DSL.param("session", Long.class))))
        .bind("session", sessionId)
        .firstLong()
        .orElse(0L);
  }

  /**
   * The turns still open, in every session, oldest first: what a service has in flight. Read
   * through the index of the open turns (V29), whatever the number of turns the store keeps.
   */
  public List<StoredTurn> open() {
    return prepared.get("turn.open", Turns::openQuery).rows(TurnRow::read);
  }

  /**
   * The query of {@link #open}. The state is written into it, not bound: SQLite plans through a
   * partial index only a query that names the index's condition as the index does.
   */
  static Query openQuery(DSLContext dsl) {
    return select(dsl)
        .where(TURN.STATE.eq(DSL.inline(TurnState.OPEN.code())))
        .orderBy(TURN.BEGAN_AT, TURN.ID);
  }

  /**
   * The turns of the workspace's sessions other than {@code sessionId} that were open at some
   * moment between {@code from} and {@code to} (inclusive, in the store's milliseconds; a turn
   * still open is open until now): who else was working in the workspace meanwhile (issue 27). This
   * is the one overlap rule: the panel's "while session B was working" asks it for a turn's own
   * span, a rewind's check for other sessions' work ({@link #ofOtherSessionsSince}) from the first
   * rewound turn's begin until now.
   */
  public List<StoredTurn> ofOtherSessionsBetween(
      long workspaceId, long sessionId, Instant from, Instant to) {
    // prepared, as every rewind's plan asks it (whose work in the workspace the rewind might
    // touch):
    // rendered by jOOQ it was 0.8 % of a 57-file rewind's wall time
    return prepared
        .get(
            "turn.ofOtherSessionsBetween",
            q ->
                select(q)
                    .where(
                        SESSION
                            .WORKSPACE_ID
                            .eq(DSL.param("workspace", Long.class))
                            .and(TURN.SESSION_ID.ne(DSL.param("session", Long.class)))
                            .and(TURN.BEGAN_AT.le(DSL.param("to", Long.class)))
                            .and(
                                TURN.FINISHED_AT
                                    .isNull()
                                    .or(TURN.FINISHED_AT.ge(DSL.param("from", Long.class)))))
                    .orderBy(TURN.BEGAN_AT, TURN.ID))
        .bind("workspace", workspaceId)
        .bind("session", sessionId)
        .bind("to", to.toEpochMilli())
        .bind("from", from.toEpochMilli())
        .rows(TurnRow::read);
  }

  /**
   * The turns of the workspace's sessions other than {@code sessionId} that were open at {@code
   * from} or began after it, until now: {@link #ofOtherSessionsBetween} up to the store's clock.
   */
  public List<StoredTurn> ofOtherSessionsSince(long workspaceId, long sessionId, Instant from) {
    return ofOtherSessionsBetween(workspaceId, sessionId, from, clock.instant());
  }

  /**
   * One page of a session's turns with their numbers: turns after {@code afterSeq}, at most {@code
   * limit}. {@code not_restorable} counts as the finish summary does ({@code
   * CaptureService.summarize}), from the stored records.
   */
  public List<TurnListing> listing(long sessionId, long afterSeq, int limit) {
    var before = SNAPSHOT.as("before_snapshot");
    var after = SNAPSHOT.as("after_snapshot");
    var files = DSL.count(FILE_CHANGE.ID);
    var changedCondition =
        FILE_CHANGE.CHANGE.isNull().or(FILE_CHANGE.CHANGE.ne(ChangeKind.UNCHANGED.code()));
    var changed =
        DSL.count(FILE_CHANGE.ID).filterWhere(FILE_CHANGE.CHANGE.ne(ChangeKind.UNCHANGED.code()));
    var added = DSL.coalesce(DSL.sum(FILE_CHANGE.LINES_ADDED), DSL.inline(BigDecimal.ZERO));
    var removed = DSL.coalesce(DSL.sum(FILE_CHANGE.LINES_REMOVED), DSL.inline(BigDecimal.ZERO));
    String directory = Reason.DIRECTORY.code();
    // a directory before and after is no file change: the directory records put its mode back
    var directoryBoth =
        DSL.coalesce(before.REASON, DSL.inline(""))
            .eq(directory)
            .and(DSL.coalesce(after.REASON, DSL.inline("")).eq(directory));
    var notRestorable =
        DSL.count(FILE_CHANGE.ID)
            .filterWhere(
                before
                    .CAPTURED
                    .isFalse()
                    .or(FILE_CHANGE.CHANGE.eq(ChangeKind.UNKNOWN.code()))
                    .and(changedCondition)
                    .andNot(directoryBoth));
    var detectedByScan =
        DSL.count(FILE_CHANGE.ID).filterWhere(FILE_CHANGE.DETECTED_BY.eq(DetectedBy.SCAN.code()));
    return PreparedQuery.rowsOf(
        dsl.select(TurnRow.COLUMNS)
            .select(files, changed, added, removed, notRestorable, detectedByScan)
            .from(TURN)
            .join(SESSION)
            .on(SESSION.ID.eq(TURN.SESSION_ID))
            .leftJoin(FILE_CHANGE)
            .on(FILE_CHANGE.TURN_ID.eq(TURN.ID))
            .leftJoin(before)
            .on(before.ID.eq(FILE_CHANGE.BEFORE_SNAPSHOT_ID))
            .leftJoin(after)
            .on(after.ID.eq(FILE_CHANGE.AFTER_SNAPSHOT_ID))
            .where(TURN.SESSION_ID.eq(sessionId).and(TURN.SEQ.gt(afterSeq)))
            .groupBy(TURN.ID, SESSION.EXTERNAL_ID, SESSION.WORKSPACE_ID)
            .orderBy(TURN.SEQ)
            .limit(limit),
        TURN_LISTING);
  }

  /**
   * Notes that the turn's runtime brackets its shell calls with Pre and Post hooks: a change made
   * while none of its calls was in flight is not its own. Prepared once per connection, as such a
   * runtime's every begin runs it (docs/performance.md, "A begin's statements prepared"); its flag
   * inlined, a constant ({@link PreparedQuery}).
   */
  public void markBracketingCalls(long turnId) {
    prepared
        .get(
            "turn.markBracketingCalls",
            q ->
                q.update(TURN)
                    .set(TURN.BRACKETS_CALLS, DSL.inline(1L))
                    .where(TURN.ID.eq(DSL.param("id", Long.class))))
        .bind("id", turnId)
        .update();
  }

  /**
   * Records {@code runtime} as the process that sends the turn's hook calls (a resumed session's
   * new process replaces its predecessor's): while it runs, the turn is not one whose runtime is
   * gone. Prepared once per connection, as a prompt through the hook client runs it in its begin.
   */
  public void recordRuntime(long turnId, RuntimeProcess runtime) {
    prepared
        .get(
            "turn.recordRuntime",
            q ->
                q.update(TURN)
                    .set(TURN.RUNTIME_PID, DSL.param("pid", Long.class))
                    .set(TURN.RUNTIME_START_TICKS, DSL.param("start_ticks", Long.class))
                    .set(TURN.RUNTIME_BOOT_ID, DSL.param("boot_id", String.class))
                    .where(TURN.ID.eq(DSL.param("id", Long.class))))
        .bind("pid", runtime.pid())
        .bind("start_ticks", runtime.startTicks())
        .bind("boot_id", runtime.bootId().orElse(null))
        .bind("id", turnId)
        .update();
  }

  /**
   * Notes why the service is finishing the open turn {@code turnId} ({@link TurnEnding}). Noted
   * before the finish, in a transaction of its own: a service that stops between the two leaves an
   * open turn whose note already says why it will be finished, and the next service finishes it
   * (its runtime is still gone); the other order could leave a turn finished with no word of why.
   */
  public void noteEnding(long turnId, TurnEnding ending) {
    dsl.update(TURN).set(TURN.ENDING, ending.code()).where(TURN.ID.eq(turnId)).execute();
  }

  /**
   * Marks the turn finished now. Prepared, as every finish runs it: rendered by jOOQ at each finish
   * it took 1 % of a watched Stop's wall time at 250,000 files (docs/performance.md, "A finish's
   * statements prepared").
   */
  public void markFinished(long turnId) {
    prepared
        .get(
            "turn.markFinished",
            q ->
                q.update(TURN)
                    .set(TURN.STATE, DSL.inline(TurnState.FINISHED.code()))
                    .set(TURN.FINISHED_AT, DSL.param("finished", Long.class))
                    .where(TURN.ID.eq(DSL.param("turn", Long.class))))
        .bind("finished", clock.millis())
        .bind("turn", turnId)
        .update();
  }

  public void markState(long turnId, TurnState state) {
    prepared
        .get(
            "turn.markState",
            q ->
                q.update(TURN)
                    .set(TURN.STATE, DSL.param("state", String.class))
                    .where(TURN.ID.eq(DSL.param("id", Long.class))))
        .bind("state", state.code())
        .bind("id", turnId)
        .update();
  }

  private SelectOnConditionStep<Record> select() {
    return select(dsl);
  }

  /** A turn's columns and its session's that {@link TurnRow#read} reads, in its order. */
  private static SelectOnConditionStep<Record> select(DSLContext dsl) {
    return dsl.select(TurnRow.COLUMNS).from(TURN).join(SESSION).on(SESSION.ID.eq(TURN.SESSION_ID));
  }

  /** The turn a prepared lookup finds with the values bound to it, if it finds one. */
  private static Optional<StoredTurn> firstTurn(PreparedQuery lookup) {
    return lookup.first(TurnRow::read);
  }
}
