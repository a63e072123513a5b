package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.TRACKED_WORKSPACE;
import static io.turndiff.store.jooq.Tables.WORKSPACE;

import io.turndiff.store.jooq.tables.records.WorkspaceRecord;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/** Workspace rows, one per real root path. */
public final class Workspaces {

  private final DSLContext dsl;
  private final InstantSource clock;

  Workspaces(DSLContext dsl, InstantSource clock) {
    this.dsl = dsl;
    this.clock = clock;
  }

  /**
   * The workspace for {@code rootReal}, created when new. A root directory that was replaced (same
   * path, other inode) keeps its workspace row and gets its new identity recorded.
   */
  public StoredWorkspace register(
      String rootGiven, String rootReal, long rootDevice, long rootInode) {
    WorkspaceRecord existing =
        dsl.selectFrom(WORKSPACE).where(WORKSPACE.ROOT_REAL.eq(rootReal)).fetchOne();
    if (existing == null) {
      existing = dsl.newRecord(WORKSPACE);
      existing.setRootGiven(rootGiven);
      existing.setRootReal(rootReal);
      existing.setCreatedAt(clock.millis());
    }
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

  public Optional<StoredWorkspace> byRealRoot(String rootReal) {
    return dsl.selectFrom(WORKSPACE)
        .where(WORKSPACE.ROOT_REAL.eq(rootReal))
        .fetchOptional()
        .map(Workspaces::toStored);
  }

  public Optional<StoredWorkspace> byGivenRoot(String rootGiven) {
    return dsl.selectFrom(WORKSPACE)
        .where(WORKSPACE.ROOT_GIVEN.eq(rootGiven))
        .orderBy(WORKSPACE.ID)
        .limit(1)
        .fetchOptional()
        .map(Workspaces::toStored);
  }

  /** Every tracked workspace (it has an index), oldest first: where a hook's directory may lie. */
  public List<StoredWorkspace> tracked() {
    return dsl.selectFrom(WORKSPACE)
        .where(WORKSPACE.ID.in(DSL.select(TRACKED_WORKSPACE.WORKSPACE_ID).from(TRACKED_WORKSPACE)))
        .orderBy(WORKSPACE.ID)
        .fetch(Workspaces::toStored);
  }

  private static StoredWorkspace toStored(WorkspaceRecord row) {
    return new StoredWorkspace(
        row.getId(),
        row.getRootGiven(),
        row.getRootReal(),
        row.getRootDevice(),
        row.getRootInode(),
        Instant.ofEpochMilli(row.getCreatedAt()));
  }
}
