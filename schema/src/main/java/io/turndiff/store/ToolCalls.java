package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.TOOL_CALL;
import static io.turndiff.store.jooq.Tables.TURN;

import io.turndiff.store.jooq.tables.records.ToolCallRecord;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Param;
import org.jooq.Query;
import org.jooq.impl.DSL;

/**
 * Tool calls: a tool invocation inside a turn that snapshotted paths before it acted, or a shell
 * call bracketed by its runtime's Pre and Post hooks, in flight from one to the other (issue 27).
 */
public final class ToolCalls {

  /** The most characters of a command's first line a tool call keeps. */
  public static final int COMMAND_CHARS = 200;

  private final DSLContext dsl;
  private final InstantSource clock;
  private final PreparedQueries prepared;

  ToolCalls(DSLContext dsl, InstantSource clock, PreparedQueries prepared) {
    this.dsl = dsl;
    this.clock = clock;
    this.prepared = prepared;
  }

  /**
   * Records the shell call {@code externalId} of the turn as in flight from now (its Pre hook),
   * with its tool name and its command's first line (already bounded by the caller); a call the
   * turn already recorded (a snapshot of a patch inside the command) becomes the shell call.
   * Returns its row.
   */
  public long beginShell(
      long turnId, String externalId, String toolName, Optional<String> command) {
    long row = record(turnId, externalId);
    dsl.update(TOOL_CALL)
        .set(TOOL_CALL.TOOL_NAME, toolName)
        .set(TOOL_CALL.COMMAND, command.orElse(null))
        .set(TOOL_CALL.SHELL, 1L)
        .where(TOOL_CALL.ID.eq(row))
        .execute();
    return row;
  }

  /**
   * Ends the shell call {@code externalId} of the turn (its Post hook); false when the turn has no
   * such call in flight (its Pre never came, or it ended already).
   */
  public boolean end(long turnId, String externalId) {
    return dsl.update(TOOL_CALL)
            .set(TOOL_CALL.ENDED_AT, clock.millis())
            .where(
                TOOL_CALL
                    .TURN_ID
                    .eq(turnId)
                    .and(TOOL_CALL.EXTERNAL_ID.eq(externalId))
                    .and(TOOL_CALL.SHELL.eq(1L))
                    .and(TOOL_CALL.ENDED_AT.isNull()))
            .execute()
        > 0;
  }

  /**
   * Ends every shell call of the turn still in flight (its finish: no Post came for them).
   * Prepared, as every finish runs it: rendered by jOOQ at each finish it took 3 % of a watched
   * Stop's wall time at 250,000 files (docs/performance.md, "A finish's statements prepared").
   */
  public void endAll(long turnId) {
    prepared
        .get(
            "tool_call.endAll",
            q ->
                q.update(TOOL_CALL)
                    .set(TOOL_CALL.ENDED_AT, DSL.param("ended", Long.class))
                    .where(
                        TOOL_CALL
                            .TURN_ID
                            .eq(DSL.param("turn", Long.class))
                            .and(TOOL_CALL.SHELL.eq(DSL.inline(1L)))
                            .and(TOOL_CALL.ENDED_AT.isNull())))
        .bind("ended", clock.millis())
        .bind("turn", turnId)
        .update();
  }

  /**
   * The shell calls of {@code turnIds} in flight now, oldest first. It and {@link #bracketing} are
   * asked by every finish that found a change to place among its workspace's open turns: prepared
   * per length of their {@code IN} lists ({@link KeysFound#preparedIn}), not rendered again each
   * time (docs/performance.md, "A begin's and a finish's lookups prepared").
   */
  public List<StoredToolCall> inFlight(Collection<Long> turnIds) {
    List<StoredToolCall> calls = new ArrayList<>();
    KeysFound.inQueries(
        turnIds,
        some ->
            calls.addAll(
                KeysFound.preparedIn(
                        prepared, "tool_call.inFlight", some, Long.class, ToolCalls::inFlightQuery)
                    .records(dsl, TOOL_CALL.fields(), row -> toStored(row.into(TOOL_CALL)))));
    // the query has no ORDER BY: SQLite answers a list's calls turn by turn (through an index on
    // the turn), and several lists one after another; sorted by row, oldest first
    calls.sort(Comparator.comparingLong(StoredToolCall::id));
    return calls;
  }

  /**
   * Those of {@code turnIds} whose runtime brackets their shell calls: begun so ({@link
   * Turns#markBracketingCalls}), or that have had a shell call bracketed by its hooks. A change
   * made while none of their calls was in flight is not theirs.
   */
  public Set<Long> bracketing(Collection<Long> turnIds) {
    Set<Long> found = new HashSet<>();
    KeysFound.inQueries(
        turnIds,
        some ->
            found.addAll(
                KeysFound.preparedIn(
                        prepared, "turn.bracketing", some, Long.class, ToolCalls::bracketingQuery)
                    .rows(row -> row.getLong(1))));
    return Set.copyOf(found);
  }

  /**
   * The shell calls in flight of the turns {@code turns}. The flags are written into the query, not
   * bound: a call in flight is found through the partial index on exactly {@code shell = 1 AND
   * ended_at IS NULL} (V16), which PostgreSQL's generic plan of a bound parameter could not prove
   * the query's condition implies.
   */
  private static Query inFlightQuery(DSLContext dsl, List<Param<Long>> turns) {
    return dsl.selectFrom(TOOL_CALL)
        .where(
            TOOL_CALL
                .TURN_ID
                .in(turns)
                .and(TOOL_CALL.SHELL.eq(DSL.inline(1L)))
                .and(TOOL_CALL.ENDED_AT.isNull()));
  }

  /**
   * Those of the turns {@code turns} marked as bracketing, or with a shell call. The flags are
   * constants, written into the query as {@link #inFlightQuery}'s are (no index needs them here).
   */
  private static Query bracketingQuery(DSLContext dsl, List<Param<Long>> turns) {
    Condition hasShellCall =
        DSL.exists(
            DSL.selectOne()
                .from(TOOL_CALL)
                .where(TOOL_CALL.TURN_ID.eq(TURN.ID).and(TOOL_CALL.SHELL.eq(DSL.inline(1L)))));
    return dsl.select(TURN.ID)
        .from(TURN)
        .where(TURN.ID.in(turns).and(TURN.BRACKETS_CALLS.eq(DSL.inline(1L)).or(hasShellCall)));
  }

  /**
   * Every tool call of the turn, in the order the turn recorded them (a call's row is made when its
   * first hook or snapshot comes): the order a rewind to before one of them follows.
   */
  public List<StoredToolCall> ofTurn(long turnId) {
    return dsl.selectFrom(TOOL_CALL)
        .where(TOOL_CALL.TURN_ID.eq(turnId))
        .orderBy(TOOL_CALL.ID)
        .fetch()
        .map(ToolCalls::toStored);
  }

  /** The tool call {@code externalId} of the turn, if the turn recorded one. */
  public Optional<StoredToolCall> byExternalId(long turnId, String externalId) {
    return dsl.selectFrom(TOOL_CALL)
        .where(TOOL_CALL.TURN_ID.eq(turnId).and(TOOL_CALL.EXTERNAL_ID.eq(externalId)))
        .fetchOptional()
        .map(ToolCalls::toStored);
  }

  static StoredToolCall toStored(ToolCallRecord row) {
    return new StoredToolCall(
        row.getId(),
        row.getTurnId(),
        row.getExternalId(),
        Optional.ofNullable(row.getToolName()),
        Optional.ofNullable(row.getCommand()),
        row.getShell() == 1,
        row.getEndedAt() != null);
  }

  /** The row id of the tool call {@code externalId} in the turn, recorded on first use. */
  public long record(long turnId, String externalId) {
    return record(turnId, externalId, Optional.empty());
  }

  /**
   * The row id of the tool call {@code externalId} in the turn, recorded on first use with {@code
   * toolName} (a call recorded already keeps the name it was first recorded with).
   */
  public long record(long turnId, String externalId, Optional<String> toolName) {
    return record(turnId, externalId, toolName, clock.millis());
  }

  /** A tool call of a turn to record ({@link #recordAll}). */
  public record Call(
      long turnId, String externalId, Optional<String> toolName, long calledAtMillis) {}

  private static final MultiRowInsert<Call> MULTI_ROW =
      new MultiRowInsert<>(
          "tool_call.insert.rows",
          TOOL_CALL,
          List.of(
              TOOL_CALL.TURN_ID, TOOL_CALL.EXTERNAL_ID, TOOL_CALL.CALLED_AT, TOOL_CALL.TOOL_NAME),
          false);

  /**
   * The row of each of {@code calls}, in their order, each recorded as {@link #record(long, String,
   * Optional, long)} records one: a call the turn recorded already (or that comes earlier in {@code
   * calls}) keeps its row and what it was first recorded with. The calls the turn holds are asked
   * with a query per turn and {@link KeysFound#PER_QUERY} calls, the new ones inserted in multi-row
   * statements, in the order they come (a call's row orders it among the turn's calls).
   */
  public long[] recordAll(List<Call> calls) {
    Map<Long, Map<String, Long>> rows = new HashMap<>();
    calls.stream()
        .collect(
            Collectors.groupingBy(
                Call::turnId, Collectors.mapping(Call::externalId, Collectors.toSet())))
        .forEach((turn, externalIds) -> rows.put(turn, idsOf(turn, externalIds)));
    List<Call> fresh = new ArrayList<>();
    Set<List<Object>> seen = new HashSet<>();
    for (Call call : calls) {
      if (!rows.get(call.turnId()).containsKey(call.externalId())
          && seen.add(List.of(call.turnId(), call.externalId()))) {
        fresh.add(call);
      }
    }
    long[] inserted =
        MULTI_ROW.insertReturningKeys(
            prepared,
            fresh,
            call ->
                new Object[] {
                  call.turnId(),
                  call.externalId(),
                  call.calledAtMillis(),
                  call.toolName().orElse(null)
                },
            TOOL_CALL.ID);
    for (int i = 0; i < fresh.size(); i++) {
      rows.get(fresh.get(i).turnId()).put(fresh.get(i).externalId(), inserted[i]);
    }
    return calls.stream()
        .mapToLong(call -> rows.get(call.turnId()).get(call.externalId()))
        .toArray();
  }

  /** The rows of the turn's calls among {@code externalIds}, by external id. */
  private Map<String, Long> idsOf(long turnId, Collection<String> externalIds) {
    Map<String, Long> ids = new HashMap<>();
    KeysFound.inQueries(
        externalIds,
        some ->
            dsl.select(TOOL_CALL.EXTERNAL_ID, TOOL_CALL.ID)
                .from(TOOL_CALL)
                .where(TOOL_CALL.TURN_ID.eq(turnId).and(TOOL_CALL.EXTERNAL_ID.in(some)))
                .forEach(row -> ids.put(row.value1(), row.value2())));
    return ids;
  }

  /**
   * As {@link #record(long, String, Optional)}, a new call recorded as called at {@code
   * calledAtMillis}: a call folded from the before log ({@link BeforeLog}) keeps the time it came.
   */
  public long record(
      long turnId, String externalId, Optional<String> toolName, long calledAtMillis) {
    Optional<Long> inserted =
        prepared
            .insertReturningKey(
                "tool_call.insert",
                q ->
                    q.insertInto(TOOL_CALL)
                        .set(TOOL_CALL.TURN_ID, DSL.param("turn", Long.class))
                        .set(TOOL_CALL.EXTERNAL_ID, DSL.param("external", String.class))
                        .set(TOOL_CALL.CALLED_AT, DSL.param("at", Long.class))
                        .set(TOOL_CALL.TOOL_NAME, DSL.param("tool", String.class))
                        .onConflictDoNothing()
                        .returning(TOOL_CALL.ID))
            .bind("turn", turnId)
            .bind("external", externalId)
            .bind("at", calledAtMillis)
            .bind("tool", toolName.orElse(null))
            .insert();
    return inserted.orElseGet(
        () ->
            prepared
                .get(
                    "tool_call.id",
                    q ->
                        q.select(TOOL_CALL.ID)
                            .from(TOOL_CALL)
                            .where(
                                TOOL_CALL
                                    .TURN_ID
                                    .eq(DSL.param("turn", Long.class))
                                    .and(
                                        TOOL_CALL.EXTERNAL_ID.eq(
                                            DSL.param("external", String.class)))))
                .bind("turn", turnId)
                .bind("external", externalId)
                .firstLong()
                .orElseThrow());
  }
}
