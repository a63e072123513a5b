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

/**
 * The other turns that could also have made a file change (issue 27): a change a scan found while
 * several turns were open in the workspace is recorded in each of them, and each record names the
 * others here.
 */
public final class SharedChanges {

  private final DSLContext dsl;

  SharedChanges(DSLContext dsl) {
    this.dsl = dsl;
  }

  /** Notes that turn row {@code otherTurnId} could also have made file change {@code changeId}. */
  public void record(long changeId, long otherTurnId) {
    dsl.insertInto(FILE_CHANGE_SHARED)
        .set(FILE_CHANGE_SHARED.FILE_CHANGE_ID, changeId)
        .set(FILE_CHANGE_SHARED.TURN_ID, otherTurnId)
        .onConflictDoNothing()
        .execute();
  }

  /** Per file change among {@code changeIds}, the other turns that could have made it. */
  public Map<Long, List<SharedTurn>> of(Collection<Long> changeIds) {
    Map<Long, List<SharedTurn>> shared = new HashMap<>();
    if (changeIds.isEmpty()) {
      return shared;
    }
    dsl.select(
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
        .where(FILE_CHANGE_SHARED.FILE_CHANGE_ID.in(changeIds))
        .orderBy(FILE_CHANGE_SHARED.FILE_CHANGE_ID, TURN.ID)
        .forEach(
            row ->
                shared
                    .computeIfAbsent(row.value1(), id -> new ArrayList<>())
                    .add(new SharedTurn(row.value2(), row.value3(), row.value4(), row.value5())));
    return shared;
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
