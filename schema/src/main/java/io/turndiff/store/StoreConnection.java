package io.turndiff.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.function.Supplier;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

/**
 * One SQLite connection, its jOOQ context and its kept statements, used by one thread at a time.
 *
 * <p>Transactions are begun and ended with SQLite's own statements while JDBC stays in auto-commit
 * mode: the driver's {@code setAutoCommit(false)} marks the connection as in a transaction before
 * its {@code BEGIN} runs, so a {@code BEGIN} that failed (a busy timeout) left the connection
 * believing in a transaction that did not exist, and every later commit failed with "cannot commit
 * - no transaction is active". Here a failed {@code BEGIN} leaves nothing begun, and any other
 * failure is rolled back; when even the rollback fails the connection is marked broken and its
 * owner replaces it. The kept statements are dropped after a failure (the driver finalizes a
 * statement that failed), to be prepared again on their next use.
 */
final class StoreConnection implements AutoCloseable {

  private final Connection connection;
  private final DSLContext dsl;
  private final PreparedQueries prepared;
  private final PreparedStatement beginImmediate;
  private final PreparedStatement beginDeferred;
  private final PreparedStatement commit;
  private final PreparedStatement rollback;
  private boolean broken;

  /** Takes over {@code connection}: closed here if the set-up fails, else by {@link #close}. */
  StoreConnection(Connection connection) throws SQLException {
    this.connection = connection;
    this.dsl = DSL.using(connection, SQLDialect.SQLITE, new Settings().withExecuteLogging(false));
    this.prepared = new PreparedQueries(dsl, connection);
    try {
      // transaction control has no jOOQ DSL; these are SQLite's statements, prepared once
      this.beginImmediate = connection.prepareStatement("BEGIN IMMEDIATE");
      this.beginDeferred = connection.prepareStatement("BEGIN");
      this.commit = connection.prepareStatement("COMMIT");
      this.rollback = connection.prepareStatement("ROLLBACK");
    } catch (SQLException e) {
      connection.close();
      throw e;
    }
  }

  DSLContext dsl() {
    return dsl;
  }

  PreparedQueries prepared() {
    return prepared;
  }

  Connection jdbc() {
    return connection;
  }

  /**
   * Runs {@code work} in one write transaction, which takes the write lock as it begins: all of it,
   * or none.
   */
  <T> T writeTransaction(Supplier<T> work) {
    return transaction(beginImmediate, work);
  }

  /**
   * Runs {@code work} in one read transaction: one consistent snapshot, from its first read to its
   * end.
   */
  <T> T readTransaction(Supplier<T> work) {
    return transaction(beginDeferred, work);
  }

  private <T> T transaction(PreparedStatement begin, Supplier<T> work) {
    run(begin, "begin a transaction");
    try {
      T result = work.get();
      run(commit, "commit");
      return result;
    } catch (RuntimeException | Error failure) {
      rollback(failure);
      prepared.close();
      throw failure;
    }
  }

  private void run(PreparedStatement statement, String what) {
    try {
      statement.executeUpdate();
    } catch (SQLException e) {
      throw new StoreException("cannot " + what + ": " + e.getMessage(), e);
    }
  }

  private void rollback(Throwable failure) {
    try {
      rollback.executeUpdate();
    } catch (SQLException e) {
      // SQLite may have rolled back already (after an I/O error or a full disk), or the connection
      // is unusable:
      // either way it is not known to be clean, so it is not used again
      broken = true;
      failure.addSuppressed(e);
    }
  }

  /** Whether a rollback failed, so that the connection may still be inside a transaction. */
  boolean broken() {
    return broken;
  }

  @Override
  public void close() {
    prepared.close();
    try {
      beginImmediate.close();
      beginDeferred.close();
      commit.close();
      rollback.close();
      connection.close();
    } catch (SQLException e) {
      throw new StoreException("cannot close a store connection: " + e.getMessage(), e);
    }
  }
}
