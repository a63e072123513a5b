package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.FILE_CHANGE_SHARED;
import static io.turndiff.store.jooq.Tables.SESSION;
import static io.turndiff.store.jooq.Tables.TURN;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.Param;
import org.jooq.Query;
import org.jooq.impl.DSL;

/**
 * The other turns that could also have made a file change (issue 27): a change a scan found while
 * several turns were open in the workspace is recorded in each of them, and each record names the
 * others here.
 */
public final class SharedChanges {

  private final PreparedQueries prepared;

  SharedChanges(PreparedQueries prepared) {
    this.prepared = prepared;
  }

  /** Notes that turn row {@code otherTurnId} could also have made file change {@code changeId}. */
  public void record(long changeId, long otherTurnId) {
    prepared
        .get(
            "file_change_shared.insert",
            q ->
                q.insertInto(FILE_CHANGE_SHARED)
                    .set(FILE_CHANGE_SHARED.FILE_CHANGE_ID, DSL.param("change", Long.class))
                    .set(FILE_CHANGE_SHARED.TURN_ID, DSL.param("turn", Long.class))
                    .onConflictDoNothing())
        .bind("change", changeId)
        .bind("turn", otherTurnId)
        .update();
  }

  /**
   * Per file change among {@code changeIds}, the other turns that could have made it. Prepared per
   * length of its {@code IN} list ({@link KeysFound#preparedIn}), as every read of a turn's file
   * changes asks it (a rewind's plan among them); each change's turns in row order, all of one
   * change falling in one list.
   */
  public Map<Long, List<SharedTurn>> of(Collection<Long> changeIds) {
    Map<Long, List<SharedTurn>> shared = new HashMap<>();
    KeysFound.inQueries(
        changeIds,
        some ->
            KeysFound.preparedIn(
                    prepared, "file_change_shared.of", some, Long.class, SharedChanges::ofQuery)
                .rows(
                    row -> {
                      long changeId = row.getLong(1);
                      return Map.entry(
                          changeId,
                          new SharedTurn(
                              row.getLong(2), row.getString(3), row.getLong(4), row.getString(5)));
                    })
                .forEach(
                    row ->
                        shared
                            .computeIfAbsent(row.getKey(), id -> new ArrayList<>())
                            .add(row.getValue())));
    return shared;
  }

  private static Query ofQuery(DSLContext q, List<Param<Long>> changes) {
    return q.select(
            FILE_CHANGE_SHARED.FILE_CHANGE_ID,
            TURN.ID,
            TURN.EXTERNAL_ID,
            TURN.SESSION_ID,
            SESSION.EXTERNAL_ID)
        .from(FILE_CHANGE_SHARED)
        .join(TURN)
        .on(TURN.ID.eq(FILE_CHANGE_SHARED.TURN_ID))
        .join(SESSION)
        .on(SESSION.ID.eq(TURN.SESSION_ID))
        .where(FILE_CHANGE_SHARED.FILE_CHANGE_ID.in(changes))
        .orderBy(FILE_CHANGE_SHARED.FILE_CHANGE_ID, TURN.ID);
  }

  /**
   * Another turn that could also have made a change.
   *
   * @param turnId its row
   * @param turn its external id
   * @param sessionId its session's row
   * @param session its session's external id
   */
  public record SharedTurn(long turnId, String turn, long sessionId, String session) {

    /** How a user reads it: {@code turn B1 of session B}. */
    public String describe() {
      return "turn " + turn + " of session " + session;
    }
  }
}
