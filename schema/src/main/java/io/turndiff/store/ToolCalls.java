package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.TOOL_CALL;

import io.turndiff.store.jooq.tables.records.ToolCallRecord;
import java.time.InstantSource;
import org.jooq.DSLContext;

/** Tool calls: a tool invocation inside a turn that snapshotted paths before it acted. */
public final class ToolCalls {

  private final DSLContext dsl;
  private final InstantSource clock;

  ToolCalls(DSLContext dsl, InstantSource clock) {
    this.dsl = dsl;
    this.clock = clock;
  }

  /** The row id of the tool call {@code externalId} in the turn, recorded on first use. */
  public long record(long turnId, String externalId) {
    ToolCallRecord existing = dsl.selectFrom(TOOL_CALL)
        .where(TOOL_CALL.TURN_ID.eq(turnId).and(TOOL_CALL.EXTERNAL_ID.eq(externalId)))
        .fetchOne();
    if (existing != null) {
      return existing.getId();
    }
    ToolCallRecord row = dsl.newRecord(TOOL_CALL);
    row.setTurnId(turnId);
    row.setExternalId(externalId);
    row.setCalledAt(clock.millis());
    row.store();
    return row.getId();
  }
}
