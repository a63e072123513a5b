package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.INDEX_DIRECTORY;
import static io.turndiff.store.jooq.Tables.TRACKED_WORKSPACE;

import io.turndiff.model.WorkspacePath;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.Query;
import org.jooq.impl.DSL;

/** The directories of a tracked workspace with their permission bits, as the last scan saw them. */
public final class IndexDirectories {

  private final DSLContext dsl;
  private final PreparedQueries prepared;

  IndexDirectories(DSLContext dsl, PreparedQueries prepared) {
    this.dsl = dsl;
    this.prepared = prepared;
  }

  /**
   * Whether the workspace's directories are indexed (an index written before they were has none).
   */
  public boolean known(long workspaceId) {
    Long indexed =
        dsl.select(TRACKED_WORKSPACE.DIRECTORIES_INDEXED)
            .from(TRACKED_WORKSPACE)
            .where(TRACKED_WORKSPACE.WORKSPACE_ID.eq(workspaceId))
            .fetchOne(TRACKED_WORKSPACE.DIRECTORIES_INDEXED);
    return indexed != null && indexed == 1L;
  }

  /** Every indexed directory and its permission bits. */
  public Map<WorkspacePath, Integer> all(long workspaceId) {
    Map<WorkspacePath, Integer> directories = new HashMap<>();
    dsl.select(INDEX_DIRECTORY.PATH, INDEX_DIRECTORY.MODE)
        .from(INDEX_DIRECTORY)
        .where(INDEX_DIRECTORY.WORKSPACE_ID.eq(workspaceId))
        .fetch()
        .forEach(
            row ->
                directories.put(
                    WorkspacePath.ofRelativeBytes(row.value1()), Math.toIntExact(row.value2())));
    return directories;
  }

  /**
   * Writes the directories that appeared or changed mode and removes those that are gone, and marks
   * the workspace's directories as indexed. The workspace's index header must exist (it is written
   * first).
   */
  public void write(
      long workspaceId, Map<WorkspacePath, Integer> upserts, Collection<WorkspacePath> removals) {
    List<Query> writes = new ArrayList<>(upserts.size() + removals.size());
    upserts.forEach(
        (path, mode) ->
            writes.add(
                dsl.insertInto(INDEX_DIRECTORY)
                    .set(INDEX_DIRECTORY.WORKSPACE_ID, workspaceId)
                    .set(INDEX_DIRECTORY.PATH, path.bytes())
                    .set(INDEX_DIRECTORY.MODE, (long) mode)
                    .onConflict(INDEX_DIRECTORY.WORKSPACE_ID, INDEX_DIRECTORY.PATH)
                    .doUpdate()
                    .set(INDEX_DIRECTORY.MODE, (long) mode)));
    for (WorkspacePath path : removals) {
      writes.add(
          dsl.deleteFrom(INDEX_DIRECTORY)
              .where(
                  INDEX_DIRECTORY
                      .WORKSPACE_ID
                      .eq(workspaceId)
                      .and(INDEX_DIRECTORY.PATH.eq(path.bytes()))));
    }
    if (!writes.isEmpty()) {
      dsl.batch(writes).execute();
    }
    // Every begin and finish of a tracked workspace sets it, so it is kept prepared rather than
    // rendered each time.
    prepared
        .get(
            "index.directories_indexed",
            q ->
                q.update(TRACKED_WORKSPACE)
                    .set(TRACKED_WORKSPACE.DIRECTORIES_INDEXED, DSL.inline(1L))
                    .where(TRACKED_WORKSPACE.WORKSPACE_ID.eq(DSL.param("workspace", Long.class))))
        .bind("workspace", workspaceId)
        .update();
  }
}
