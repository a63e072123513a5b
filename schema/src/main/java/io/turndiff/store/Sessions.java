package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.SESSION;

import io.turndiff.store.jooq.tables.records.SessionRecord;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/** Sessions: one agent conversation in one workspace. */
public final class Sessions {

  private final DSLContext dsl;
  private final InstantSource clock;
  private final PreparedQueries prepared;

  Sessions(DSLContext dsl, InstantSource clock, PreparedQueries prepared) {
    this.dsl = dsl;
    this.clock = clock;
    this.prepared = prepared;
  }

  public StoredSession create(String externalId, long workspaceId) {
    SessionRecord row = dsl.newRecord(SESSION);
    row.setExternalId(externalId);
    row.setWorkspaceId(workspaceId);
    row.setCreatedAt(clock.millis());
    row.store();
    return toStored(row);
  }

  /**
   * The session a runtime names. Prepared once per connection: a prompt's begin asks it two or
   * three times (whether the session began in this workspace, the number of its next turn when the
   * runtime names none, the session the turn begins in), and rendered by jOOQ each time it took 6 %
   * of a watched begin's wall time at 250,000 files (docs/performance.md, "A begin's statements
   * prepared").
   */
  public Optional<StoredSession> byExternalId(String externalId) {
    return prepared
        .get(
            "session.byExternalId",
            q ->
                q.selectFrom(SESSION)
                    .where(SESSION.EXTERNAL_ID.eq(DSL.param("external_id", String.class))))
        .bind("external_id", externalId)
        .records(dsl, SESSION.fields(), row -> toStored(row.into(SESSION)))
        .stream()
        .findFirst();
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
