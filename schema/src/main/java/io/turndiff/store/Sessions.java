package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.SESSION;

import io.turndiff.store.jooq.tables.records.SessionRecord;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import org.jooq.DSLContext;

/** Sessions: one agent conversation in one workspace. */
public final class Sessions {

  private final DSLContext dsl;
  private final InstantSource clock;

  Sessions(DSLContext dsl, InstantSource clock) {
    this.dsl = dsl;
    this.clock = clock;
  }

  public StoredSession create(String externalId, long workspaceId) {
    SessionRecord row = dsl.newRecord(SESSION);
    row.setExternalId(externalId);
    row.setWorkspaceId(workspaceId);
    row.setCreatedAt(clock.millis());
    row.store();
    return toStored(row);
  }

  public Optional<StoredSession> byExternalId(String externalId) {
    return dsl.selectFrom(SESSION)
        .where(SESSION.EXTERNAL_ID.eq(externalId))
        .fetchOptional()
        .map(Sessions::toStored);
  }

  public List<StoredSession> ofWorkspace(long workspaceId) {
    return dsl.selectFrom(SESSION)
        .where(SESSION.WORKSPACE_ID.eq(workspaceId))
        .orderBy(SESSION.ID)
        .fetch(Sessions::toStored);
  }

  private static StoredSession toStored(SessionRecord row) {
    return new StoredSession(
        row.getId(),
        row.getExternalId(),
        row.getWorkspaceId(),
        Instant.ofEpochMilli(row.getCreatedAt()));
  }
}
