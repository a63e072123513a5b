package io.turndiff.store;

import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import org.jooq.SQLDialect;

/**
 * The database a store lives in, one type per SQL dialect: a SQLite file on this machine ({@link
 * Sqlite}) or a PostgreSQL database many machines share ({@link Postgresql}). {@link Store} is
 * written once over it; what differs between the two is decided here: how a connection is set up
 * (SQLite's pragmas, PostgreSQL's lock timeout), how a write takes the lock ({@link
 * StoreConnection}), what is checked when the store is opened, how its schema is migrated, what a
 * durable commit costs, and the file's own sizes and checkpoints.
 */
sealed interface Database permits Sqlite, Postgresql {

  /** Where the store lives. */
  StoreAddress address();

  SQLDialect dialect();

  /**
   * A new connection to the database: the writer's, or a reader's (read-only).
   *
   * @throws SQLException when the database cannot be reached or the connection cannot be set up
   */
  StoreConnection connect(boolean forWriting) throws SQLException;

  /** Releases what it holds beside the store's connections (nothing, unless it says). */
  default void close() {}

  /** Whether anything can be written (a SQLite file or folder may be read-only). */
  boolean writable();

  /** The store's file, when it is a SQLite file on this machine. */
  Optional<Path> localFile();

  /** What the checks at open found. */
  record Checked(Optional<String> damage, boolean skippedAsClean) {
    static final Checked NOTHING = new Checked(Optional.empty(), false);
  }

  /** Checks the store as it is opened, before anything is written, within {@code cap}. */
  Checked check(ReadConnections readers, Duration cap);

  /**
   * Checks every page of the store, however many steps it takes, within {@code cap} ({@code
   * turndiff doctor}); {@link StoreCheck#NOT_OURS} where the database server checks its own pages.
   */
  StoreCheck checkWhole(ReadConnections readers, Duration cap);

  /**
   * Brings the schema from {@code version} (empty: none yet) to {@link Store#LATEST_MIGRATION}.
   *
   * @param current reads the version again (another process may have migrated meanwhile)
   * @param damage what is known to be wrong with the store
   */
  void migrate(
      Optional<String> version,
      Supplier<Optional<String>> current,
      Optional<String> damage,
      StoreFailures failures);

  /** Runs {@code commit}, a write transaction, so that it is on disk when it returns. */
  <T> T durably(StoreConnection writer, Supplier<T> commit);

  /** Moves what the writer committed into the database's own file, where there is one to move. */
  void checkpoint(StoreConnection writer);

  /** The bytes the store takes on disk. */
  long bytes(ReadConnections readers);

  /** Pages that hold nothing, as last committed. */
  long freePages(ReadConnections readers);

  /** The size of a page. */
  long pageSize(ReadConnections readers);

  /** The connection settings the database reports, to prove that set-up took. */
  Store.ConnectionSettings settings(StoreConnection connection);

  /** Why nothing may be written to the store, given what is known to be wrong with it. */
  StoreException damaged(String detail);

  /** Why nothing can be written to a store that is {@link #writable() not writable}. */
  StoreException readOnly(String detail);

  /** A migration that failed, as the store reports it. */
  // translate hands back the very failure it was given when the database did not cause it:
  // identity is the question
  @SuppressWarnings("ReferenceEquality")
  default RuntimeException migrationFailed(StoreFailures failures, RuntimeException e) {
    RuntimeException translated = failures.translate(e);
    if (translated != e) {
      return translated;
    }
    return new StoreException(
        "cannot migrate the store " + address().display() + ": " + e.getMessage(), e);
  }

  /** Whether {@code version} is newer than this build's newest migration (a newer turndiff's). */
  static boolean isNewer(String version) {
    try {
      return Integer.parseInt(version) > Integer.parseInt(Store.LATEST_MIGRATION);
    } catch (NumberFormatException notAPlainNumber) {
      return false;
    }
  }
}
