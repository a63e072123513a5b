package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.SESSION;
import static io.turndiff.store.jooq.Tables.TURN;

import io.turndiff.model.RuntimeProcess;
import io.turndiff.model.TurnEnding;
import io.turndiff.model.TurnKind;
import io.turndiff.model.TurnState;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import org.jooq.SelectField;

/**
 * A turn as a statement whose select list starts with {@link #COLUMNS} returns it (its row, with
 * its session's external id and workspace): read by position, so that the look-ups of a turn that
 * every hook call, query and rewind makes map no jOOQ record. jOOQ's fetch of the row into a record
 * was most of a look-up's samples in a rewind's profile once its statement was prepared
 * (docs/performance.md, "A turn read by position").
 */
final class TurnRow {

  /** The select list {@link #read} reads, in its order. */
  static final SelectField<?>[] COLUMNS = {
    TURN.ID,
    TURN.EXTERNAL_ID,
    TURN.SESSION_ID,
    SESSION.EXTERNAL_ID,
    SESSION.WORKSPACE_ID,
    TURN.SEQ,
    TURN.KIND,
    TURN.STATE,
    TURN.BEGAN_AT,
    TURN.FINISHED_AT,
    TURN.RUNTIME_PID,
    TURN.RUNTIME_START_TICKS,
    TURN.RUNTIME_BOOT_ID,
    TURN.ENDING
  };

  private TurnRow() {}

  /** The turn at {@code row}'s cursor. */
  static StoredTurn read(ResultSet row) throws SQLException {
    long id = row.getLong(1);
    String externalId = row.getString(2);
    long sessionId = row.getLong(3);
    String sessionExternalId = row.getString(4);
    long workspaceId = row.getLong(5);
    long seq = row.getLong(6);
    TurnKind kind = TurnKind.fromCode(row.getString(7));
    TurnState state = TurnState.fromCode(row.getString(8));
    Instant beganAt = Instant.ofEpochMilli(row.getLong(9));
    Optional<Instant> finishedAt = nullableLong(row, 10).map(Instant::ofEpochMilli);
    Optional<Long> pid = nullableLong(row, 11);
    Optional<Long> startTicks = nullableLong(row, 12);
    Optional<String> bootId = Optional.ofNullable(row.getString(13));
    Optional<TurnEnding> ending = Optional.ofNullable(row.getString(14)).map(TurnEnding::fromCode);
    // a runtime is known by its process id and start together; a boot id alone names none
    Optional<RuntimeProcess> runtime =
        pid.flatMap(p -> startTicks.map(ticks -> new RuntimeProcess(p, ticks, bootId)));
    return new StoredTurn(
        id,
        externalId,
        sessionId,
        sessionExternalId,
        workspaceId,
        seq,
        kind,
        state,
        beganAt,
        finishedAt,
        runtime,
        ending);
  }

  /**
   * The column at {@code index} as a long, empty when it is NULL ({@code wasNull} speaks of the
   * column read last, so it is asked right after).
   */
  private static Optional<Long> nullableLong(ResultSet row, int index) throws SQLException {
    long value = row.getLong(index);
    return row.wasNull() ? Optional.empty() : Optional.of(value);
  }
}
