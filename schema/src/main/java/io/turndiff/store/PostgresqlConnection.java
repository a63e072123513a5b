package io.turndiff.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.jooq.SQLDialect;

/**
 * A connection to a PostgreSQL store. It stays out of auto-commit and JDBC ends each transaction
 * (the driver begins one with the first statement, so nothing half-begun is left behind). A write
 * transaction's first statement takes {@link PostgresDatabase#WRITE_LOCK}, a transaction-scoped
 * advisory lock: the writers of every process on every machine take turns as SQLite's do, so the
 * store code's read-then-write steps (the next turn's number, a turn finished once) hold there too;
 * it is {@code READ COMMITTED}, so that it sees what the writer before it committed. A read
 * transaction is {@code REPEATABLE READ}: one snapshot from its first statement to its end.
 *
 * <p>A write transaction that changed a row notifies {@link PostgresCommitNotices#CHANNEL} just
 * before it commits, so that the services of other processes wake their panels: the notice is
 * delivered with the commit, never for a rollback.
 */
final class PostgresqlConnection extends StoreConnection {

  private final PreparedStatement takeWriteLock;
  private final PreparedStatement notifyCommit;

  /** The savepoint of the unit of work {@link #inSavepoint} runs; empty between units. */
  private Optional<Savepoint> unit = Optional.empty();

  /**
   * Takes over {@code connection}: closed here if the set-up fails, else by {@link #close}.
   *
   * @param sender the payload of this connection's commit notices: its store's id
   */
  PostgresqlConnection(Connection connection, String sender) throws SQLException {
    super(connection, SQLDialect.POSTGRES);
    try {
      connection.setAutoCommit(false);
      // a read: one snapshot for the whole transaction. A write: READ COMMITTED, because the
      // snapshot of a REPEATABLE READ transaction is taken by its first statement, the lock request
      // itself, which may wait for another writer's commit and would then not see it; each
      // statement of a READ COMMITTED one sees every write committed before it, and with the
      // writers taking turns nothing else can commit meanwhile
      connection.setTransactionIsolation(
          connection.isReadOnly()
              ? Connection.TRANSACTION_REPEATABLE_READ
              : Connection.TRANSACTION_READ_COMMITTED);
      // the advisory lock has no jOOQ DSL: a function call, prepared once
      this.takeWriteLock = connection.prepareStatement("SELECT pg_advisory_xact_lock(?)");
      this.takeWriteLock.setLong(1, PostgresDatabase.WRITE_LOCK);
      // Only a transaction that was given an id wrote something: one that wrote nothing (a sweep
      // that found nothing to finish) wakes nobody. The check costs a round trip per write
      // transaction, where a notice sent with the lock would cost none but wake every panel of the
      // fleet for the service's periodic writes that change nothing.
      this.notifyCommit =
          connection.prepareStatement(
              "SELECT pg_notify(?, ?) WHERE txid_current_if_assigned() IS NOT NULL");
      this.notifyCommit.setString(1, PostgresCommitNotices.CHANNEL);
      this.notifyCommit.setString(2, sender);
    } catch (SQLException e) {
      connection.close();
      throw e;
    }
  }

  @Override
  <T> T writeTransaction(Supplier<T> work) {
    return transaction(true, work);
  }

  @Override
  <T> T readTransaction(Supplier<T> work) {
    return transaction(false, work);
  }

  private <T> T transaction(boolean write, Supplier<T> work) {
    try {
      if (write) {
        try (var ignored = takeWriteLock.executeQuery()) {
          // taken: held until the transaction ends
        }
      }
      T result = work.get();
      if (write) {
        try (var ignored = notifyCommit.executeQuery()) {
          // sent with the commit, if it wrote anything
        }
      }
      jdbc().commit();
      return result;
    } catch (SQLException e) {
      StoreException failure =
          new StoreException("cannot begin or commit a transaction: " + e.getMessage(), e);
      abandon(failure);
      throw failure;
    } catch (RuntimeException | Error failure) {
      abandon(failure);
      throw failure;
    }
  }

  @Override
  void beginUnit() throws SQLException {
    unit = Optional.of(jdbc().setSavepoint());
  }

  @Override
  void undoUnit() throws SQLException {
    Savepoint begun = unit.orElseThrow();
    unit = Optional.empty();
    jdbc().rollback(begun);
    jdbc().releaseSavepoint(begun);
  }

  @Override
  void releaseUnit() throws SQLException {
    Savepoint begun = unit.orElseThrow();
    unit = Optional.empty();
    jdbc().releaseSavepoint(begun);
  }

  @Override
  void rollback() throws SQLException {
    jdbc().rollback();
  }

  @Override
  List<PreparedStatement> kept() {
    return List.of(takeWriteLock, notifyCommit);
  }
}
