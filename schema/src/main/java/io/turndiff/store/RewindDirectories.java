package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.REWIND_DIRECTORY;

import io.turndiff.model.WorkspacePath;
import io.turndiff.store.jooq.tables.records.RewindDirectoryRecord;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * The directories a rewind operation creates and removes: its plan, then its journal. Each
 * statement is prepared once per connection, as a rewind's others are (docs/performance.md, "A
 * rewind's statements prepared").
 */
public final class RewindDirectories {

  private final DSLContext dsl;
  private final PreparedQueries prepared;

  RewindDirectories(DSLContext dsl, PreparedQueries prepared) {
    this.dsl = dsl;
    this.prepared = prepared;
  }

  /**
   * Plans an action on a directory, before it is done; a directory the operation already has a row
   * for (a resumed operation) keeps it. Returns the row.
   */
  public long plan(
      long operationId, WorkspacePath path, StoredRewindDirectory.Action action, OptionalInt mode) {
    prepared
        .get(
            "rewind_directory.plan",
            q ->
                q.insertInto(REWIND_DIRECTORY)
                    .set(REWIND_DIRECTORY.OPERATION_ID, DSL.param("operation", Long.class))
                    .set(REWIND_DIRECTORY.PATH, DSL.param("path", byte[].class))
                    .set(REWIND_DIRECTORY.ACTION, DSL.param("action", String.class))
                    .set(REWIND_DIRECTORY.MODE, DSL.param("mode", Long.class))
                    .set(
                        REWIND_DIRECTORY.STATUS,
                        DSL.inline(StoredRewindDirectory.Status.PLANNED.code()))
                    .onConflictDoNothing())
        .bind("operation", operationId)
        .bind("path", path.bytes())
        .bind("action", action.code())
        .bind("mode", mode.isPresent() ? (Long) (long) mode.getAsInt() : null)
        .update();
    return prepared
        .get(
            "rewind_directory.id",
            q ->
                q.select(REWIND_DIRECTORY.ID)
                    .from(REWIND_DIRECTORY)
                    .where(
                        REWIND_DIRECTORY
                            .OPERATION_ID
                            .eq(DSL.param("operation", Long.class))
                            .and(REWIND_DIRECTORY.PATH.eq(DSL.param("path", byte[].class)))))
        .bind("operation", operationId)
        .bind("path", path.bytes())
        .firstLong()
        .orElseThrow(() -> new StoreException("no planned directory " + path));
  }

  public void mark(
      long id,
      StoredRewindDirectory.Status status,
      Optional<String> reason,
      Optional<String> detail) {
    prepared
        .get(
            "rewind_directory.mark",
            q ->
                q.update(REWIND_DIRECTORY)
                    .set(REWIND_DIRECTORY.STATUS, DSL.param("status", String.class))
                    .set(REWIND_DIRECTORY.REASON, DSL.param("reason", String.class))
                    .set(REWIND_DIRECTORY.DETAIL, DSL.param("detail", String.class))
                    .where(REWIND_DIRECTORY.ID.eq(DSL.param("id", Long.class))))
        .bind("status", status.code())
        .bind("reason", reason.orElse(null))
        .bind("detail", detail.orElse(null))
        .bind("id", id)
        .update();
  }

  /** The operation's directories, by path. */
  public List<StoredRewindDirectory> of(long operationId) {
    return prepared
        .get(
            "rewind_directory.of",
            q ->
                q.selectFrom(REWIND_DIRECTORY)
                    .where(REWIND_DIRECTORY.OPERATION_ID.eq(DSL.param("operation", Long.class)))
                    .orderBy(REWIND_DIRECTORY.PATH))
        .bind("operation", operationId)
        .records(dsl, REWIND_DIRECTORY.fields(), row -> toStored(row.into(REWIND_DIRECTORY)));
  }

  private static StoredRewindDirectory toStored(RewindDirectoryRecord row) {
    return new StoredRewindDirectory(
        row.getId(),
        WorkspacePath.fromStored(row.getPath()),
        StoredRewindDirectory.Action.valueOf(row.getAction().toUpperCase(Locale.ROOT)),
        row.getMode() == null
            ? OptionalInt.empty()
            : OptionalInt.of(Math.toIntExact(row.getMode())),
        StoredRewindDirectory.Status.valueOf(row.getStatus().toUpperCase(Locale.ROOT)),
        Optional.ofNullable(row.getReason()),
        Optional.ofNullable(row.getDetail()));
  }
}
