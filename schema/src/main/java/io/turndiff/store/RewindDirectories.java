package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.REWIND_DIRECTORY;

import io.turndiff.model.WorkspacePath;
import io.turndiff.store.jooq.tables.records.RewindDirectoryRecord;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import org.jooq.DSLContext;

/** The directories a rewind operation creates and removes: its plan, then its journal. */
public final class RewindDirectories {

  private final DSLContext dsl;

  RewindDirectories(DSLContext dsl) {
    this.dsl = dsl;
  }

  /**
   * Plans an action on a directory, before it is done; a directory the operation already has a row
   * for (a resumed operation) keeps it. Returns the row.
   */
  public long plan(
      long operationId, WorkspacePath path, StoredRewindDirectory.Action action, OptionalInt mode) {
    dsl.insertInto(REWIND_DIRECTORY)
        .set(REWIND_DIRECTORY.OPERATION_ID, operationId)
        .set(REWIND_DIRECTORY.PATH, path.bytes())
        .set(REWIND_DIRECTORY.ACTION, action.code())
        .set(REWIND_DIRECTORY.MODE, mode.isPresent() ? (Long) (long) mode.getAsInt() : null)
        .set(REWIND_DIRECTORY.STATUS, StoredRewindDirectory.Status.PLANNED.code())
        .onConflictDoNothing()
        .execute();
    return dsl.select(REWIND_DIRECTORY.ID)
        .from(REWIND_DIRECTORY)
        .where(
            REWIND_DIRECTORY
                .OPERATION_ID
                .eq(operationId)
                .and(REWIND_DIRECTORY.PATH.eq(path.bytes())))
        .fetchOne(REWIND_DIRECTORY.ID);
  }

  public void mark(
      long id,
      StoredRewindDirectory.Status status,
      Optional<String> reason,
      Optional<String> detail) {
    dsl.update(REWIND_DIRECTORY)
        .set(REWIND_DIRECTORY.STATUS, status.code())
        .set(REWIND_DIRECTORY.REASON, reason.orElse(null))
        .set(REWIND_DIRECTORY.DETAIL, detail.orElse(null))
        .where(REWIND_DIRECTORY.ID.eq(id))
        .execute();
  }

  /** The operation's directories, by path. */
  public List<StoredRewindDirectory> of(long operationId) {
    return dsl.selectFrom(REWIND_DIRECTORY)
        .where(REWIND_DIRECTORY.OPERATION_ID.eq(operationId))
        .orderBy(REWIND_DIRECTORY.PATH)
        .fetch(RewindDirectories::toStored);
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
