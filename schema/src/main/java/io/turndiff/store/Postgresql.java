package io.turndiff.store;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;
import org.flywaydb.core.Flyway;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A store in a PostgreSQL database ({@link PostgresDatabase}): the same jOOQ code in the {@link
 * SQLDialect#POSTGRES} dialect, its schema from {@value #MIGRATIONS}. Each write transaction first
 * takes one transaction-scoped advisory lock ({@link PostgresqlConnection}), waiting at most the
 * busy timeout ({@code lock_timeout}); each read is a {@code REPEATABLE READ} read-only
 * transaction. File-only matters (the header and integrity checks, pragmas, the WAL, vacuum) do not
 * apply: commits are durable already, and the free space stays inside the tables for reuse. Other
 * processes' commits are told by {@code LISTEN}/{@code NOTIFY} ({@link PostgresCommitNotices}).
 */
final class Postgresql implements Database {

  /**
   * The PostgreSQL schema's migrations: the schema as V1..V9 leave SQLite's, in one script that
   * PostgreSQL can run (docs/store-layout.md).
   */
  static final String MIGRATIONS = "db/postgresql";

  private static final long PAGE_BYTES = 8192;

  private final PostgresDatabase database;
  private final Duration busyTimeout;

  /**
   * This store's id in its commit notices: random per open store, so that a process (or a second
   * store of one process, as another process would be) tells its own commits from the others'.
   */
  private final String sender;

  private final PostgresCommitNotices notices;

  Postgresql(PostgresDatabase database, Duration busyTimeout) {
    this.database = database;
    this.busyTimeout = busyTimeout;
    byte[] id = new byte[16];
    new SecureRandom().nextBytes(id);
    this.sender = HexFormat.of().formatHex(id);
    this.notices = new PostgresCommitNotices(() -> dataSource(true).getConnection(), this.sender);
  }

  @Override
  public StoreAddress address() {
    return database;
  }

  @Override
  public SQLDialect dialect() {
    return SQLDialect.POSTGRES;
  }

  @Override
  public StoreConnection connect(boolean forWriting) throws SQLException {
    return new PostgresqlConnection(dataSource(forWriting).getConnection(), sender);
  }

  /** The number of other processes' commits seen ({@link PostgresCommitNotices#seen()}). */
  OptionalLong commitsByOthers() {
    return notices.seen();
  }

  /** Stops listening for other processes' commits, until the next {@link #commitsByOthers()}. */
  void stopListening() {
    notices.close();
  }

  @Override
  public void close() {
    notices.close();
  }

  private PGSimpleDataSource dataSource(boolean forWriting) {
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setURL(database.url());
    database.user().ifPresent(dataSource::setUser);
    database.password().ifPresent(dataSource::setPassword);
    dataSource.setApplicationName("turndiff");
    dataSource.setReadOnly(!forWriting);
    // how long a write waits for another writer's lock (the advisory lock, a row), as SQLite's busy
    // timeout; 0 waits for ever on both
    dataSource.setOptions("-c lock_timeout=" + busyTimeout.toMillis());
    return dataSource;
  }

  @Override
  public boolean writable() {
    return true;
  }

  @Override
  public Optional<Path> localFile() {
    return Optional.empty();
  }

  /** Nothing: PostgreSQL checks its own pages. */
  @Override
  public Checked check(ReadConnections readers, Duration cap) {
    return Checked.NOTHING;
  }

  @Override
  public StoreCheck checkWhole(ReadConnections readers, Duration cap) {
    return StoreCheck.NOT_OURS;
  }

  /**
   * Migrates from {@value #MIGRATIONS}; Flyway's own lock on the database serializes migrators on
   * every machine. One at a newer version (a newer turndiff) is used as it is.
   */
  @Override
  public void migrate(
      Optional<String> version,
      Supplier<Optional<String>> current,
      Optional<String> damage,
      StoreFailures failures) {
    if (version.isPresent() && Database.isNewer(version.get())) {
      return;
    }
    try {
      Flyway.configure()
          .dataSource(dataSource(true))
          .locations("classpath:" + MIGRATIONS)
          .load()
          .migrate();
    } catch (RuntimeException e) {
      throw migrationFailed(failures, e);
    }
  }

  /** PostgreSQL's commits are durable already. */
  @Override
  public <T> T durably(StoreConnection writer, Supplier<T> commit) {
    return commit.get();
  }

  /** Nothing to move: PostgreSQL checkpoints on its own. */
  @Override
  public void checkpoint(StoreConnection writer) {}

  /** The database's size. */
  @Override
  public long bytes(ReadConnections readers) {
    return readers.read(
        reader ->
            reader
                .dsl()
                .select(
                    DSL.function(
                        "pg_database_size",
                        Long.class,
                        DSL.function("current_database", String.class)))
                .fetchSingle()
                .value1());
  }

  /** None to report: PostgreSQL keeps its free space inside the tables for reuse (autovacuum). */
  @Override
  public long freePages(ReadConnections readers) {
    return 0;
  }

  @Override
  public long pageSize(ReadConnections readers) {
    return PAGE_BYTES;
  }

  /** SQLite's connection pragmas have no PostgreSQL counterpart to report. */
  @Override
  public Store.ConnectionSettings settings(StoreConnection connection) {
    throw new UnsupportedOperationException(
        "the store " + database.display() + " is a PostgreSQL database: it has no SQLite pragmas");
  }

  /** Never met: damage is what SQLite reports about its file. */
  @Override
  public StoreException damaged(String detail) {
    return new StoreException(
        StoreException.Problem.DAMAGED,
        "the store "
            + database.display()
            + " is damaged: "
            + detail
            + ". turndiff writes nothing to it.",
        null);
  }

  /** Never met: a PostgreSQL store is always {@link #writable()}. */
  @Override
  public StoreException readOnly(String detail) {
    return new StoreException(
        StoreException.Problem.READ_ONLY,
        "the store " + database.display() + " cannot be written (" + detail + ")",
        null);
  }
}
