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
import org.jooq.Field;
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
  private final PreparedQueries prepared;

  Workspaces(DSLContext dsl, InstantSource clock, HostId host, PreparedQueries prepared) {
    this.dsl = dsl;
    this.clock = clock;
    this.host = host;
    this.prepared = prepared;
  }

  /**
   * This machine's workspace for {@code rootReal}, created when new; a row of that root registered
   * before host ids is adopted (it becomes this machine's). A root directory that was replaced
   * (same path, other inode) keeps its workspace row and gets its new identity recorded.
   */
  public StoredWorkspace register(
      String rootGiven, String rootReal, long rootDevice, long rootInode) {
    Optional<StoredWorkspace> existing = byRealRoot(rootReal);
    if (existing.isEmpty()) {
      WorkspaceRecord created = dsl.newRecord(WORKSPACE);
      created.setRootGiven(rootGiven);
      created.setRootReal(rootReal);
      created.setCreatedAt(clock.millis());
      created.setHostId(host.value());
      created.setRootDevice(rootDevice);
      created.setRootInode(rootInode);
      created.store();
      return toStored(created);
    }
    StoredWorkspace row = existing.get();
    StoredWorkspace now =
        new StoredWorkspace(
            row.id(),
            row.rootGiven(),
            row.rootReal(),
            rootDevice,
            rootInode,
            row.createdAt(),
            Optional.of(host));
    // every begin registers its workspace: the row is written only when this machine adopts it or
    // its root was replaced, so that a begin in a known workspace adds no page to its commit
    if (!now.equals(row)) {
      prepared
          .get(
              "workspace.identity",
              q ->
                  q.update(WORKSPACE)
                      .set(WORKSPACE.HOST_ID, DSL.param("host", String.class))
                      .set(WORKSPACE.ROOT_DEVICE, DSL.param("device", Long.class))
                      .set(WORKSPACE.ROOT_INODE, DSL.param("inode", Long.class))
                      .where(WORKSPACE.ID.eq(DSL.param("id", Long.class))))
          .bind("host", host.value())
          .bind("device", rootDevice)
          .bind("inode", rootInode)
          .bind("id", row.id())
          .update();
    }
    return now;
  }

  /**
   * The workspace of row {@code id}. Prepared once per connection: a prompt's begin asks it for the
   * workspace its session began in (docs/performance.md, "A begin's statements prepared").
   */
  public Optional<StoredWorkspace> byId(long id) {
    return firstWorkspace(
        prepared
            .get(
                "workspace.byId",
                q -> q.selectFrom(WORKSPACE).where(WORKSPACE.ID.eq(DSL.param("id", Long.class))))
            .bind("id", id));
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
        .orderBy(ownFirst(DSL.val(host.value(), WORKSPACE.HOST_ID)), WORKSPACE.ID)
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
    PreparedQuery lookup =
        prepared
            .get(
                "workspace.tracked",
                q ->
                    q.selectFrom(WORKSPACE)
                        .where(
                            WORKSPACE.ID.in(
                                DSL.select(TRACKED_WORKSPACE.WORKSPACE_ID).from(TRACKED_WORKSPACE)))
                        .and(ownOrUnclaimed(DSL.param("host", String.class)))
                        .orderBy(WORKSPACE.ID))
            .bind("host", host.value());
    return workspaces(lookup);
  }

  /**
   * This machine's workspace at {@code rootReal}, else one registered there before host ids. It and
   * {@link #tracked} run as statements prepared once per connection, the machine bound as their
   * parameters: a hook's begin asks them three times, and jOOQ's building and SQLite's preparing of
   * them cost more than the look-up (docs/performance.md, "A begin's and a finish's lookups
   * prepared"). The machine is two parameters here, {@code host} and {@code host_first}: {@link
   * PreparedQuery#of} takes a statement's parameters by name, so a name used twice would be one
   * parameter for two placeholders, which it refuses.
   */
  public Optional<StoredWorkspace> byRealRoot(String rootReal) {
    PreparedQuery lookup =
        prepared
            .get(
                "workspace.byRealRoot",
                q ->
                    q.selectFrom(WORKSPACE)
                        .where(WORKSPACE.ROOT_REAL.eq(DSL.param("root", String.class)))
                        .and(ownOrUnclaimed(DSL.param("host", String.class)))
                        .orderBy(ownFirst(DSL.param("host_first", String.class)))
                        .limit(DSL.inline(1)))
            .bind("root", rootReal)
            .bind("host", host.value())
            .bind("host_first", host.value());
    return firstWorkspace(lookup);
  }

  /** The workspaces a prepared lookup finds with the values bound to it. */
  private List<StoredWorkspace> workspaces(PreparedQuery lookup) {
    return lookup.records(dsl, WORKSPACE.fields(), row -> toStored(row.into(WORKSPACE)));
  }

  /** The first workspace a prepared lookup finds with the values bound to it, if it finds one. */
  private Optional<StoredWorkspace> firstWorkspace(PreparedQuery lookup) {
    return workspaces(lookup).stream().findFirst();
  }

  /** This machine's rows or unclaimed ones, {@code host} the machine. */
  private static Condition ownOrUnclaimed(Field<String> host) {
    return WORKSPACE.HOST_ID.eq(host).or(WORKSPACE.HOST_ID.isNull());
  }

  /** This machine's rows first ({@code host}), then unclaimed ones. */
  private static SortField<Integer> ownFirst(Field<String> host) {
    return DSL.when(WORKSPACE.HOST_ID.eq(host), DSL.inline(0))
        .when(WORKSPACE.HOST_ID.isNull(), DSL.inline(1))
        .otherwise(DSL.inline(2))
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
