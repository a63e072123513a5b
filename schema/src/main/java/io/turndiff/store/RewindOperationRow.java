package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.REWIND_OPERATION;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import org.jooq.SelectField;

/**
 * One row of {@code rewind_operation} as a prepared statement reads it: the columns a {@link
 * StoredRewindOperation} is made of, before the turns and paths of its own tables are looked up.
 * Read by position from the statement's result, as {@link #COLUMNS} lists them, so that a rewind's
 * many look-ups of its operation map no jOOQ record.
 */
record RewindOperationRow(
    long id,
    String externalId,
    long sessionId,
    long targetTurnId,
    String scope,
    boolean force,
    boolean done,
    long rewindTurnId,
    Optional<String> beforeToolCall,
    Optional<Integer> hunk) {

  /** The select list {@link #read} reads, in its order. */
  static final SelectField<?>[] COLUMNS = {
    REWIND_OPERATION.ID,
    REWIND_OPERATION.EXTERNAL_ID,
    REWIND_OPERATION.SESSION_ID,
    REWIND_OPERATION.TARGET_TURN_ID,
    REWIND_OPERATION.SCOPE,
    REWIND_OPERATION.FORCE,
    REWIND_OPERATION.STATE,
    REWIND_OPERATION.REWIND_TURN_ID,
    REWIND_OPERATION.BEFORE_TOOL_CALL,
    REWIND_OPERATION.HUNK
  };

  /** The row at {@code row}'s cursor, of a query whose select list starts with {@link #COLUMNS}. */
  static RewindOperationRow read(ResultSet row) throws SQLException {
    long id = row.getLong(1);
    String externalId = row.getString(2);
    long sessionId = row.getLong(3);
    long targetTurnId = row.getLong(4);
    String scope = row.getString(5);
    boolean force = row.getLong(6) == 1L;
    boolean done = row.getString(7).equals("done");
    long rewindTurnId = row.getLong(8);
    Optional<String> beforeToolCall = Optional.ofNullable(row.getString(9));
    long hunk = row.getLong(10);
    // wasNull speaks of the column read last: the hunk, read last for it
    return new RewindOperationRow(
        id,
        externalId,
        sessionId,
        targetTurnId,
        scope,
        force,
        done,
        rewindTurnId,
        beforeToolCall,
        row.wasNull() ? Optional.empty() : Optional.of(Math.toIntExact(hunk)));
  }
}
