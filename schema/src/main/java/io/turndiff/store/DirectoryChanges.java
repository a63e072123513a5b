package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.DIRECTORY_CHANGE;

import io.turndiff.model.DirectoryState;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.jooq.tables.records.DirectoryChangeRecord;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/** The directories above the paths each turn recorded, before and after the turn. */
public final class DirectoryChanges {

  private final DSLContext dsl;
  private final PreparedQueries prepared;

  DirectoryChanges(DSLContext dsl, PreparedQueries prepared) {
    this.dsl = dsl;
    this.prepared = prepared;
  }

  /**
   * Records a directory's before-state in a turn, unless the turn already has one (the first wins).
   */
  public void recordBefore(long turnId, DirectoryState before) {
    prepared
        .get(
            "directory_change.insert",
            q ->
                q.insertInto(DIRECTORY_CHANGE)
                    .set(DIRECTORY_CHANGE.TURN_ID, DSL.param("turn", Long.class))
                    .set(DIRECTORY_CHANGE.PATH, DSL.param("path", byte[].class))
                    .set(DIRECTORY_CHANGE.BEFORE_PRESENT, DSL.param("present", Long.class))
                    .set(DIRECTORY_CHANGE.BEFORE_MODE, DSL.param("mode", Long.class))
                    .onConflictDoNothing())
        .bind("turn", turnId)
        .bind("path", before.path().bytes())
        .bind("present", before.present() ? 1L : 0L)
        .bind("mode", before.present() ? (Long) (long) before.mode() : null)
        .update();
  }

  /**
   * Records a directory's before-state in a turn, replacing the one it has: the state a finish
   * knows to be the turn's first sight of the path (the before-state of the path's own record),
   * where a directory above a later snapshot's path was recorded as the turn found it then.
   */
  public void recordFirstState(long turnId, DirectoryState before) {
    Long present = before.present() ? 1L : 0L;
    Long mode = before.present() ? (long) before.mode() : null;
    dsl.insertInto(DIRECTORY_CHANGE)
        .set(DIRECTORY_CHANGE.TURN_ID, turnId)
        .set(DIRECTORY_CHANGE.PATH, before.path().bytes())
        .set(DIRECTORY_CHANGE.BEFORE_PRESENT, present)
        .set(DIRECTORY_CHANGE.BEFORE_MODE, mode)
        .onConflict(DIRECTORY_CHANGE.TURN_ID, DIRECTORY_CHANGE.PATH)
        .doUpdate()
        .set(DIRECTORY_CHANGE.BEFORE_PRESENT, present)
        .set(DIRECTORY_CHANGE.BEFORE_MODE, mode)
        .execute();
  }

  /** Records a directory's state when the turn finished (empty: neither a directory nor absent). */
  public void complete(long turnId, WorkspacePath path, Optional<DirectoryState> after) {
    bindComplete(turnId, path, after).update();
  }

  /**
   * Records the state of each of the turn's directories in {@code after} when it finished, as
   * {@link #complete} records one, the same prepared statement run as one JDBC batch: a finish of a
   * turn whose files lie in many directories.
   */
  public void completeAll(long turnId, Map<WorkspacePath, Optional<DirectoryState>> after) {
    PreparedQuery statement = null;
    for (Map.Entry<WorkspacePath, Optional<DirectoryState>> directory : after.entrySet()) {
      statement = bindComplete(turnId, directory.getKey(), directory.getValue());
      statement.addBatch();
    }
    if (statement != null) {
      statement.runBatch();
    }
  }

  private PreparedQuery bindComplete(
      long turnId, WorkspacePath path, Optional<DirectoryState> after) {
    return prepared
        .get(
            "directory_change.complete",
            q ->
                q.update(DIRECTORY_CHANGE)
                    .set(DIRECTORY_CHANGE.AFTER_PRESENT, DSL.param("present", Long.class))
                    .set(DIRECTORY_CHANGE.AFTER_MODE, DSL.param("mode", Long.class))
                    .where(
                        DIRECTORY_CHANGE
                            .TURN_ID
                            .eq(DSL.param("turn", Long.class))
                            .and(DIRECTORY_CHANGE.PATH.eq(DSL.param("path", byte[].class)))))
        .bind("present", after.map(state -> state.present() ? 1L : 0L).orElse(null))
        .bind(
            "mode",
            after.filter(DirectoryState::present).map(state -> (long) state.mode()).orElse(null))
        .bind("turn", turnId)
        .bind("path", path.bytes());
  }

  /**
   * One turn's directory changes, by path. Prepared, as every finish reads its own turn's: rendered
   * by jOOQ at each read it took 3 % of a watched Stop's wall time at 250,000 files
   * (docs/performance.md, "A finish's statements prepared").
   */
  public List<StoredDirectoryChange> ofTurn(long turnId) {
    return prepared
        .get(
            "directory_change.ofTurn",
            q ->
                q.selectFrom(DIRECTORY_CHANGE)
                    .where(DIRECTORY_CHANGE.TURN_ID.eq(DSL.param("turn", Long.class)))
                    .orderBy(DIRECTORY_CHANGE.PATH))
        .bind("turn", turnId)
        .records(dsl, DIRECTORY_CHANGE.fields(), row -> toStored(row.into(DIRECTORY_CHANGE)));
  }

  /** The directory changes of the turns, by path, then turn. */
  public List<StoredDirectoryChange> ofTurns(Collection<Long> turnIds) {
    // prepared per length of its IN list (KeysFound.preparedIn), as every rewind's plan reads its
    // turns': rendered by jOOQ it was 1.5 % of a 57-file rewind's wall time. Sorted here again, in
    // the database's order (a path's bytes unsigned, then the turn), for the turns asked in several
    // lists (more than one holds); one list's rows are in that order already, which the sort only
    // walks through
    List<StoredDirectoryChange> changes = new ArrayList<>();
    KeysFound.inQueries(
        turnIds,
        some ->
            changes.addAll(
                KeysFound.preparedIn(
                        prepared,
                        "directory_change.ofTurns",
                        some,
                        Long.class,
                        (q, turns) ->
                            q.selectFrom(DIRECTORY_CHANGE)
                                .where(DIRECTORY_CHANGE.TURN_ID.in(turns))
                                .orderBy(DIRECTORY_CHANGE.PATH, DIRECTORY_CHANGE.TURN_ID))
                    .records(
                        dsl,
                        DIRECTORY_CHANGE.fields(),
                        row -> toStored(row.into(DIRECTORY_CHANGE)))));
    changes.sort(
        Comparator.comparing(StoredDirectoryChange::path)
            .thenComparingLong(StoredDirectoryChange::turnId));
    return changes;
  }

  private static StoredDirectoryChange toStored(DirectoryChangeRecord row) {
    WorkspacePath path = WorkspacePath.fromStored(row.getPath());
    return new StoredDirectoryChange(
        row.getTurnId(),
        path,
        state(path, row.getBeforePresent(), row.getBeforeMode()).orElseThrow(),
        state(path, row.getAfterPresent(), row.getAfterMode()));
  }

  private static Optional<DirectoryState> state(WorkspacePath path, Long present, Long mode) {
    if (present == null) {
      return Optional.empty();
    }
    return Optional.of(
        present == 1L
            ? DirectoryState.present(path, Math.toIntExact(mode))
            : DirectoryState.absent(path));
  }
}
