package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.TOOL_CALL;

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
                        .onConflictDoNothing())
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
