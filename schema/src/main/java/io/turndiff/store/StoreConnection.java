package io.turndiff.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.FetchTriggerValuesAfterReturning;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

/**
 * One connection to the store's database, its jOOQ context and its kept statements, used by one
 * thread at a time. How a transaction begins, takes the write lock, ends and is undone is the
 * dialect's ({@link SqliteConnection}, {@link PostgresqlConnection}); what follows a failure is the
 * same for both: the transaction is rolled back and the kept statements are dropped (a driver may
 * have finalized a statement that failed), to be prepared again on their next use. When even the
 * rollback fails the connection is marked broken and its owner replaces it.
 */
abstract sealed class StoreConnection implements AutoCloseable
    permits SqliteConnection, PostgresqlConnection {

  /** A JDBC step that may fail. */
  @FunctionalInterface
  interface SqlStep {
    void run() throws SQLException;
  }

  private final Connection connection;
  private final DSLContext dsl;
  private final PreparedQueries prepared;
  private boolean broken;

  StoreConnection(Connection connection, SQLDialect dialect) {
    this.connection = connection;
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
  abstract <T> T writeTransaction(Supplier<T> work);

  /**
   * Runs {@code work} in one read transaction: one consistent snapshot, from its first read to its
   * end.
   */
  abstract <T> T readTransaction(Supplier<T> work);

  /**
   * Inside a write transaction: runs {@code work} in a savepoint. When it fails, only what it wrote
   * is undone and its failure is returned; the transaction goes on. When even undoing it fails, the
   * connection is marked broken and a {@link StoreException} is thrown: the whole transaction must
   * be rolled back.
   */
  final Optional<Throwable> inSavepoint(Runnable work) {
    step(this::beginUnit, "begin a savepoint");
    try {
      work.run();
    } catch (RuntimeException failure) {
      prepared.close();
      try {
        undoUnit();
      } catch (SQLException e) {
        broken = true;
        throw new StoreException("cannot undo a failed unit of work: " + e.getMessage(), e);
      }
      return Optional.of(failure);
    }
    step(this::releaseUnit, "release a savepoint");
    return Optional.empty();
  }

  /** Begins the savepoint of {@link #inSavepoint}. */
  abstract void beginUnit() throws SQLException;

  /** Rolls back to the savepoint of {@link #inSavepoint} and releases it. */
  abstract void undoUnit() throws SQLException;

  abstract void releaseUnit() throws SQLException;

  /** Rolls the open transaction back. */
  abstract void rollback() throws SQLException;

  /** The statements this dialect prepared once for the connection's life. */
  abstract List<PreparedStatement> kept();

  /**
   * After {@code failure} inside a transaction: rolls it back and drops the kept statements. A
   * rollback that fails leaves the connection broken (SQLite may have rolled back already, after an
   * I/O error or a full disk, or the connection is unusable: either way it is not known to be
   * clean, so it is not used again).
   */
  final void abandon(Throwable failure) {
    try {
      rollback();
    } catch (SQLException e) {
      broken = true;
      failure.addSuppressed(e);
    }
    prepared.close();
  }

  /** Runs one step of transaction control; a failure says {@code what} could not be done. */
  static void step(SqlStep step, String what) {
    try {
      step.run();
    } catch (SQLException e) {
      throw new StoreException("cannot " + what + ": " + e.getMessage(), e);
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
      for (PreparedStatement statement : kept()) {
        statement.close();
      }
      connection.close();
    } catch (SQLException e) {
      throw new StoreException("cannot close a store connection: " + e.getMessage(), e);
    }
  }
}
