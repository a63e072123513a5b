package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.TOOL_CALL;
import static io.turndiff.store.jooq.Tables.TURN;

import io.turndiff.model.TurnState;
import java.time.InstantSource;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/** Tool calls: a tool invocation inside a turn that snapshotted paths before it acted. */
public final class ToolCalls {

  private final InstantSource clock;
  private final PreparedQueries prepared;

  ToolCalls(DSLContext dsl, InstantSource clock, PreparedQueries prepared) {
    this.clock = clock;
    this.prepared = prepared;
  }

  /**
   * Records the tool call {@code externalId} in the turn when the turn is open and the call is new,
   * in one statement (the common case of a snapshot call, which checks both); returns its row id,
   * or empty when the turn is not open or the call is already recorded: the caller checks the
   * turn's state ({@link Turns#state}) and then takes the call's row ({@link #record}).
   */
  public Optional<Long> recordNewInOpenTurn(long turnId, String externalId) {
    return prepared
        .insertReturningKey(
            "tool_call.insert_in_open_turn",
            q ->
                q.insertInto(
                        TOOL_CALL, TOOL_CALL.TURN_ID, TOOL_CALL.EXTERNAL_ID, TOOL_CALL.CALLED_AT)
                    .select(
                        DSL.select(
                                TURN.ID,
                                DSL.param("external", String.class),
                                DSL.param("at", Long.class))
                            .from(TURN)
                            .where(
                                TURN.ID
                                    .eq(DSL.param("turn", Long.class))
                                    .and(TURN.STATE.eq(DSL.inline(TurnState.OPEN.code())))))
                    .onConflictDoNothing()
                    .returning(TOOL_CALL.ID))
        .bind("turn", turnId)
        .bind("external", externalId)
        .bind("at", clock.millis())
        .insert();
  }

  /** The row id of the tool call {@code externalId} in the turn, recorded on first use. */
  public long record(long turnId, String externalId) {
    Optional<Long> inserted =
        prepared
            .insertReturningKey(
                "tool_call.insert",
                q ->
                    q.insertInto(TOOL_CALL)
                        .set(TOOL_CALL.TURN_ID, DSL.param("turn", Long.class))
                        .set(TOOL_CALL.EXTERNAL_ID, DSL.param("external", String.class))
                        .set(TOOL_CALL.CALLED_AT, DSL.param("at", Long.class))
                        .onConflictDoNothing()
                        .returning(TOOL_CALL.ID))
            .bind("turn", turnId)
            .bind("external", externalId)
            .bind("at", clock.millis())
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
