package io.turndiff.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.Optional;
import java.util.function.Supplier;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.FetchTriggerValuesAfterReturning;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

/**
 * One connection to the store's database, its jOOQ context and its kept statements, used by one
 * thread at a time.
 *
 * <p>Transactions are begun and ended with SQLite's own statements while JDBC stays in auto-commit
 * mode: the driver's {@code setAutoCommit(false)} marks the connection as in a transaction before
 * its {@code BEGIN} runs, so a {@code BEGIN} that failed (a busy timeout) left the connection
 * believing in a transaction that did not exist, and every later commit failed with "cannot commit
 * - no transaction is active". Here a failed {@code BEGIN} leaves nothing begun, and any other
 * failure is rolled back; when even the rollback fails the connection is marked broken and its
 * owner replaces it. The kept statements are dropped after a failure (the driver finalizes a
 * statement that failed), to be prepared again on their next use.
 *
 * <p>On PostgreSQL the connection stays out of auto-commit and JDBC ends each transaction (the
 * driver begins one with the first statement, so nothing half-begun is left behind). A write
 * transaction's first statement takes {@link PostgresDatabase#WRITE_LOCK}, a transaction-scoped
 * advisory lock: the writers of every process on every machine take turns as SQLite's do, so the
 * store code's read-then-write steps (the next turn's number, a turn finished once) hold there too;
 * it is {@code READ COMMITTED}, so that it sees what the writer before it committed. A read
 * transaction is {@code REPEATABLE READ}: one snapshot from its first statement to its end.
 */
final class StoreConnection implements AutoCloseable {

  private final Connection connection;
  private final SQLDialect dialect;
  private final DSLContext dsl;
  private final PreparedQueries prepared;
  private final PreparedStatement beginImmediate;
  private final PreparedStatement beginDeferred;
  private final PreparedStatement commit;
  private final PreparedStatement rollback;
  private final PreparedStatement savepoint;
  private final PreparedStatement releaseSavepoint;
  private final PreparedStatement rollbackToSavepoint;
  private boolean broken;

  /** Takes over {@code connection}: closed here if the set-up fails, else by {@link #close}. */
  StoreConnection(Connection connection, SQLDialect dialect) throws SQLException {
    this.connection = connection;
    this.dialect = dialect;
    // INSERT .. RETURNING as SQLite runs it (3.35 and later): jOOQ otherwise emulates it on SQLite
    // with a second query, in case a trigger changed the row after the insert; the schema has no
    // triggers
    this.dsl =
        DSL.using(
            connection,
            dialect,
            new Settings()
                .withExecuteLogging(false)
                .withFetchTriggerValuesAfterReturning(FetchTriggerValuesAfterReturning.NEVER));
    this.prepared = new PreparedQueries(dsl, connection);
    try {
      if (dialect == SQLDialect.POSTGRES) {
        connection.setAutoCommit(false);
        // a read: one snapshot for the whole transaction. A write: READ COMMITTED, because the
        // snapshot of a REPEATABLE READ transaction is taken by its first statement, the lock
        // request itself, which may wait for another writer's commit and would then not see it;
        // each statement of a READ COMMITTED one sees every write committed before it, and with the
        // writers taking turns nothing else can commit meanwhile
        connection.setTransactionIsolation(
            connection.isReadOnly()
                ? Connection.TRANSACTION_REPEATABLE_READ
                : Connection.TRANSACTION_READ_COMMITTED);
        // the advisory lock has no jOOQ DSL: a function call, prepared once
        this.beginImmediate = connection.prepareStatement("SELECT pg_advisory_xact_lock(?)");
        this.beginImmediate.setLong(1, PostgresDatabase.WRITE_LOCK);
        this.beginDeferred = null;
        this.commit = null;
        this.rollback = null;
        this.savepoint = null;
        this.releaseSavepoint = null;
        this.rollbackToSavepoint = null;
        return;
      }
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
    if (dialect == SQLDialect.POSTGRES) {
      return postgresTransaction(begin, work);
    }
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

  /**
   * Inside a write transaction: runs {@code work} in a savepoint. When it fails, only what it wrote
   * is undone and its failure is returned; the transaction goes on. When even undoing it fails, the
   * connection is marked broken and a {@link StoreException} is thrown: the whole transaction must
   * be rolled back.
   */
  Optional<Throwable> inSavepoint(Runnable work) {
    if (dialect == SQLDialect.POSTGRES) {
      return postgresSavepoint(work);
    }
    run(savepoint, "begin a savepoint");
    try {
      work.run();
    } catch (RuntimeException failure) {
      prepared.close();
      try {
        rollbackToSavepoint.executeUpdate();
        releaseSavepoint.executeUpdate();
      } catch (SQLException e) {
        broken = true;
        throw new StoreException("cannot undo a failed unit of work: " + e.getMessage(), e);
      }
      return Optional.of(failure);
    }
    run(releaseSavepoint, "release a savepoint");
    return Optional.empty();
  }

  private Optional<Throwable> postgresSavepoint(Runnable work) {
    Savepoint unit;
    try {
      unit = connection.setSavepoint();
    } catch (SQLException e) {
      throw new StoreException("cannot begin a savepoint: " + e.getMessage(), e);
    }
    try {
      work.run();
    } catch (RuntimeException failure) {
      prepared.close();
      try {
        connection.rollback(unit);
        connection.releaseSavepoint(unit);
      } catch (SQLException e) {
        broken = true;
        throw new StoreException("cannot undo a failed unit of work: " + e.getMessage(), e);
      }
      return Optional.of(failure);
    }
    try {
      connection.releaseSavepoint(unit);
    } catch (SQLException e) {
      throw new StoreException("cannot release a savepoint: " + e.getMessage(), e);
    }
    return Optional.empty();
  }

  private <T> T postgresTransaction(PreparedStatement lockForWriting, Supplier<T> work) {
    try {
      if (lockForWriting != null) {
        try (var ignored = lockForWriting.executeQuery()) {
          // taken: held until the transaction ends
        }
      }
      T result = work.get();
      connection.commit();
      return result;
    } catch (SQLException e) {
      StoreException failure =
          new StoreException("cannot begin or commit a transaction: " + e.getMessage(), e);
      rollback(failure);
      prepared.close();
      throw failure;
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
      if (rollback == null) {
        connection.rollback();
        return;
      }
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
      for (PreparedStatement statement :
          new PreparedStatement[] {
            beginImmediate,
            beginDeferred,
            commit,
            rollback,
            savepoint,
            releaseSavepoint,
            rollbackToSavepoint
          }) {
        if (statement != null) {
          statement.close();
        }
      }
      connection.close();
    } catch (SQLException e) {
      throw new StoreException("cannot close a store connection: " + e.getMessage(), e);
    }
  }
}
