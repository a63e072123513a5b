package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.SESSION;
import static io.turndiff.store.jooq.Tables.TRACKED_WORKSPACE;
import static io.turndiff.store.jooq.Tables.TURN;
import static io.turndiff.store.jooq.Tables.WORKSPACE;

import io.turndiff.store.jooq.tables.records.WorkspaceRecord;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.SortField;
import org.jooq.impl.DSL;

/**
 * Workspace rows, one per machine and real root path: this machine's ({@link Store#host}) are the
 * ones it registers and finds by root; queries read every machine's.
 */
public final class Workspaces {

  private final DSLContext dsl;
  private final InstantSource clock;
  private final HostId host;

  Workspaces(DSLContext dsl, InstantSource clock, HostId host) {
    this.dsl = dsl;
    this.clock = clock;
    this.host = host;
  }

  /**
   * This machine's workspace for {@code rootReal}, created when new; a row of that root registered
   * before host ids is adopted (it becomes this machine's). A root directory that was replaced
   * (same path, other inode) keeps its workspace row and gets its new identity recorded.
   */
  public StoredWorkspace register(
      String rootGiven, String rootReal, long rootDevice, long rootInode) {
    WorkspaceRecord existing = ownRow(rootReal).orElse(null);
    if (existing == null) {
      existing = dsl.newRecord(WORKSPACE);
      existing.setRootGiven(rootGiven);
      existing.setRootReal(rootReal);
      existing.setCreatedAt(clock.millis());
    }
    existing.setHostId(host.value());
    existing.setRootDevice(rootDevice);
    existing.setRootInode(rootInode);
    existing.store();
    return toStored(existing);
  }

  public Optional<StoredWorkspace> byId(long id) {
    return dsl.selectFrom(WORKSPACE)
        .where(WORKSPACE.ID.eq(id))
        .fetchOptional()
        .map(Workspaces::toStored);
  }

  /** This machine's workspace at {@code rootReal} (or one registered there before host ids). */
  public Optional<StoredWorkspace> byRealRoot(String rootReal) {
    return ownRow(rootReal).map(Workspaces::toStored);
  }

  /** Every machine's workspace at {@code rootReal}, for queries: oldest first. */
  public List<StoredWorkspace> everyHostAtRealRoot(String rootReal) {
    return dsl.selectFrom(WORKSPACE)
        .where(WORKSPACE.ROOT_REAL.eq(rootReal))
        .orderBy(WORKSPACE.ID)
        .fetch(Workspaces::toStored);
  }

  /** A workspace given as {@code rootGiven}, on any machine, this machine's first. */
  public Optional<StoredWorkspace> byGivenRoot(String rootGiven) {
    return dsl.selectFrom(WORKSPACE)
        .where(WORKSPACE.ROOT_GIVEN.eq(rootGiven))
        .orderBy(ownFirst(), WORKSPACE.ID)
        .limit(1)
        .fetchOptional()
        .map(Workspaces::toStored);
  }

  /**
   * Every workspace path with a recorded turn, the one whose newest turn began last first: one
   * entry per path, over every machine's workspace there (as the queries read them); tracked when
   * one of them is.
   */
  public List<WorkspaceListing> listing() {
    var sessions = DSL.countDistinct(SESSION.ID);
    var turns = DSL.count(TURN.ID);
    var lastTurnAt = DSL.max(TURN.BEGAN_AT);
    var trackedRows =
        DSL.max(
            DSL.when(
                    DSL.exists(
                        DSL.selectOne()
                            .from(TRACKED_WORKSPACE)
                            .where(TRACKED_WORKSPACE.WORKSPACE_ID.eq(WORKSPACE.ID))),
                    1)
                .otherwise(0));
    return dsl.select(WORKSPACE.ROOT_REAL, sessions, turns, lastTurnAt, trackedRows)
        .from(WORKSPACE)
        .join(SESSION)
        .on(SESSION.WORKSPACE_ID.eq(WORKSPACE.ID))
        .join(TURN)
        .on(TURN.SESSION_ID.eq(SESSION.ID))
        .groupBy(WORKSPACE.ROOT_REAL)
        .orderBy(lastTurnAt.desc(), DSL.min(WORKSPACE.ID))
        .fetch(
            row ->
                new WorkspaceListing(
                    row.get(WORKSPACE.ROOT_REAL),
                    row.get(sessions),
                    row.get(turns),
                    Instant.ofEpochMilli(row.get(lastTurnAt)),
                    row.get(trackedRows) == 1));
  }

  /**
   * Every tracked workspace (it has an index) of this machine, oldest first: where a hook's
   * directory may lie.
   */
  public List<StoredWorkspace> tracked() {
    return dsl.selectFrom(WORKSPACE)
        .where(WORKSPACE.ID.in(DSL.select(TRACKED_WORKSPACE.WORKSPACE_ID).from(TRACKED_WORKSPACE)))
        .and(ownOrUnclaimed())
        .orderBy(WORKSPACE.ID)
        .fetch(Workspaces::toStored);
  }

  /** This machine's row at {@code rootReal}, else one registered there before host ids. */
  private Optional<WorkspaceRecord> ownRow(String rootReal) {
    return dsl.selectFrom(WORKSPACE)
        .where(WORKSPACE.ROOT_REAL.eq(rootReal))
        .and(ownOrUnclaimed())
        .orderBy(ownFirst())
        .limit(1)
        .fetchOptional();
  }

  private Condition ownOrUnclaimed() {
    return WORKSPACE.HOST_ID.eq(host.value()).or(WORKSPACE.HOST_ID.isNull());
  }

  private SortField<Integer> ownFirst() {
    return DSL.when(WORKSPACE.HOST_ID.eq(host.value()), 0)
        .when(WORKSPACE.HOST_ID.isNull(), 1)
        .otherwise(2)
        .asc();
  }

  private static StoredWorkspace toStored(WorkspaceRecord row) {
    return new StoredWorkspace(
        row.getId(),
        row.getRootGiven(),
        row.getRootReal(),
        row.getRootDevice(),
        row.getRootInode(),
        Instant.ofEpochMilli(row.getCreatedAt()),
        Optional.ofNullable(row.getHostId()).map(HostId::new));
  }
}
