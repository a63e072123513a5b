package io.turndiff.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.function.Supplier;
import org.jooq.SQLDialect;

/**
 * A connection to a SQLite store. Transactions are begun and ended with SQLite's own statements
 * while JDBC stays in auto-commit mode: the driver's {@code setAutoCommit(false)} marks the
 * connection as in a transaction before its {@code BEGIN} runs, so a {@code BEGIN} that failed (a
 * busy timeout) left the connection believing in a transaction that did not exist, and every later
 * commit failed with "cannot commit - no transaction is active". Here a failed {@code BEGIN} leaves
 * nothing begun, and any other failure is rolled back. A write transaction begins {@code
 * IMMEDIATE}: it takes the write lock as it begins, so that two processes never deadlock upgrading
 * a read lock.
 */
final class SqliteConnection extends StoreConnection {

  /** For a connection whose commits nobody is told of (a reader's). */
  static final Runnable NOTHING_AFTER_COMMIT = () -> {};

  private final PreparedStatement beginImmediate;
  private final PreparedStatement beginDeferred;
  private final PreparedStatement commit;
  private final PreparedStatement rollback;
  private final PreparedStatement savepoint;
  private final PreparedStatement releaseSavepoint;
  private final PreparedStatement rollbackToSavepoint;
  private final Runnable afterCommit;

  /**
   * Takes over {@code connection}: closed here if the set-up fails, else by {@link #close}.
   *
   * @param afterCommit told after each write transaction commits (the writer's {@link
   *     WalCheckpointer})
   */
  SqliteConnection(Connection connection, Runnable afterCommit) throws SQLException {
    super(connection, SQLDialect.SQLITE);
    this.afterCommit = afterCommit;
    try {
      // transaction control has no jOOQ DSL; these are SQLite's statements, prepared once
      this.beginImmediate = connection.prepareStatement("BEGIN IMMEDIATE");
      this.beginDeferred = connection.prepareStatement("BEGIN");
      this.commit = connection.prepareStatement("COMMIT");
      this.rollback = connection.prepareStatement("ROLLBACK");
      this.savepoint = connection.prepareStatement("SAVEPOINT unit");
      this.releaseSavepoint = connection.prepareStatement("RELEASE unit");
      this.rollbackToSavepoint = connection.prepareStatement("ROLLBACK TO unit");
    } catch (SQLException e) {
      connection.close();
      throw e;
    }
  }

  @Override
  <T> T writeTransaction(Supplier<T> work) {
    T result = transaction(beginImmediate, work);
    afterCommit.run();
    return result;
  }

  @Override
  <T> T readTransaction(Supplier<T> work) {
    return transaction(beginDeferred, work);
  }

  private <T> T transaction(PreparedStatement begin, Supplier<T> work) {
    step(begin::executeUpdate, "begin a transaction");
    try {
      T result = work.get();
      step(commit::executeUpdate, "commit");
      return result;
    } catch (RuntimeException | Error failure) {
      abandon(failure);
      throw failure;
    }
  }

  @Override
  void beginUnit() throws SQLException {
    savepoint.executeUpdate();
  }

  @Override
  void undoUnit() throws SQLException {
    rollbackToSavepoint.executeUpdate();
    releaseSavepoint.executeUpdate();
  }

  @Override
  void releaseUnit() throws SQLException {
    releaseSavepoint.executeUpdate();
  }

  @Override
  void rollback() throws SQLException {
    rollback.executeUpdate();
  }

  @Override
  List<PreparedStatement> kept() {
    return List.of(
        beginImmediate,
        beginDeferred,
        commit,
        rollback,
        savepoint,
        releaseSavepoint,
        rollbackToSavepoint);
  }
}
