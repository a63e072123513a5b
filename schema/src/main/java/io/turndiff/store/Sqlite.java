package io.turndiff.store;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;
import org.sqlite.SQLiteOpenMode;

/**
 * A store in one SQLite file on this machine ({@link StoreFile}). Every connection runs with WAL,
 * foreign keys, the busy timeout and {@code synchronous=NORMAL}; the writer begins its transactions
 * {@code IMMEDIATE} ({@link SqliteConnection}). Opening checks the file ({@link IntegrityCheck},
 * skipped while it is as a clean check left it: {@link CleanCheck}); migrations run under a lock on
 * the file ({@link MigrationLock}), from {@code db/migration}.
 */
final class Sqlite implements Database {

  /**
   * What the log's file is cut to by the commit that starts the log again from its beginning: well
   * below {@link #LOG_FULL_BYTES}, so that the file's length is the log's for the {@link
   * WalCheckpointer} (a file left at its longest would look full for ever).
   */
  private static final int JOURNAL_SIZE_LIMIT_BYTES = 4 << 20;

  /**
   * The log's length from which the {@link WalCheckpointer} moves it: 10,000 pages of 4 KiB, where
   * the writer's own checkpoint moved it before there was a checkpointer.
   */
  private static final long LOG_FULL_BYTES = 10_000L * 4096;

  /**
   * The writer's own checkpoint, in the commit that takes the log past this many pages (80 MB at 4
   * KiB): twice {@link #LOG_FULL_BYTES}, only for a log the {@link WalCheckpointer} cannot keep up
   * with, or one it is held back from emptying. Under prompts back to back (the benchmark's pace,
   * no pause between them) commits land while the checkpointer copies, so the log is never all
   * moved at once, and this checkpoint is what starts it again from the beginning; it finds at most
   * a pause's pages (about 2.5 MB) not yet moved. It was 10,000 pages when it did all the moving:
   * each one then copied 40 MB and synced both files inside a hook's commit.
   */
  private static final int WAL_CHECKPOINT_PAGES = 20_000;

  private final StoreFile file;
  private final StoreAddress.SqliteFile address;
  private final Duration busyTimeout;
  private final WalCheckpointer checkpointer;

  Sqlite(StoreFile file, Duration busyTimeout) {
    this.file = file;
    this.address = new StoreAddress.SqliteFile(file.path());
    this.busyTimeout = busyTimeout;
    this.checkpointer =
        new WalCheckpointer(
            this::checkpointerConnection,
            file.wal(),
            LOG_FULL_BYTES,
            file.path().getFileName().toString());
  }

  @Override
  public StoreAddress address() {
    return address;
  }

  @Override
  public SQLDialect dialect() {
    return SQLDialect.SQLITE;
  }

  @Override
  public StoreConnection connect(boolean forWriting) throws SQLException {
    return new SqliteConnection(
        dataSource(forWriting).getConnection(),
        forWriting ? checkpointer::committed : SqliteConnection.NOTHING_AFTER_COMMIT);
  }

  /**
   * Stops the {@link WalCheckpointer} and closes its connection; {@link Store#close} calls it
   * before it closes the writer, which stays the last connection, the one that moves what is left
   * of the log and removes it, as before there was a checkpointer.
   */
  @Override
  public void close() {
    checkpointer.close();
  }

  /**
   * The {@link WalCheckpointer}'s connection: the writer's settings, but never creating the file.
   * It is opened a pause after the commit that filled the log, and a store's file removed meanwhile
   * (its folder emptied) must stay removed, not come back empty.
   */
  private Connection checkpointerConnection() throws SQLException {
    SQLiteConfig config = config(true);
    config.resetOpenMode(SQLiteOpenMode.CREATE);
    return dataSource(config).getConnection();
  }

  private DataSource dataSource(boolean forWriting) {
    return dataSource(config(forWriting));
  }

  private DataSource dataSource(SQLiteConfig config) {
    SQLiteDataSource dataSource = new SQLiteDataSource(config);
    dataSource.setUrl("jdbc:sqlite:" + file.uri());
    return dataSource;
  }

  /**
   * Settings for a connection: the writer's, or a reader's (read-only, and without changing the
   * journal).
   */
  private SQLiteConfig config(boolean forWriting) {
    SQLiteConfig config = new SQLiteConfig();
    if (forWriting) {
      config.setJournalMode(SQLiteConfig.JournalMode.WAL);
      // for Flyway, which begins its transactions through JDBC: take the write lock when a
      // transaction begins, so that two processes migrating at once wait for each other instead of
      // failing to upgrade a read lock
      config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
    } else {
      config.setReadOnly(true);
    }
    config.enforceForeignKeys(true);
    config.setBusyTimeout(Math.toIntExact(busyTimeout.toMillis()));
    config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
    config.setJournalSizeLimit(JOURNAL_SIZE_LIMIT_BYTES);
    // the WalCheckpointer moves the log; the writer only when it outgrows it (see the constant)
    config.setPragma(
        SQLiteConfig.Pragma.WAL_AUTOCHECKPOINT, Integer.toString(WAL_CHECKPOINT_PAGES));
    // every key the store reads back comes from the statement's own INSERT .. RETURNING (jOOQ
    // and PreparedQuery), which the driver runs as a query. With the driver's generated keys on
    // (its default), every INSERT it ran as an update (one without RETURNING: the before log's
    // append, a fold's or a finish's multi-row inserts) was followed by a second statement,
    // prepared and run anew, SELECT last_insert_rowid(): about 5 % of a snapshot call's CPU in
    // the profile of JMH SnapshotCall (2026-12-05), for a key nobody asked for
    config.setGetGeneratedKeys(false);
    return config;
  }

  @Override
  public boolean writable() {
    return file.writable();
  }

  @Override
  public Optional<Path> localFile() {
    return Optional.of(file.path());
  }

  /**
   * Checks the store within {@code cap}, unless its files are as they were when a check last went
   * through them whole and found nothing ({@link CleanCheck}); records a clean whole check.
   */
  @Override
  public Checked check(ReadConnections readers, Duration cap) {
    Optional<CleanCheck.StoreState> state = stateOfFiles();
    if (cap.isPositive()
        && state.filter(now -> CleanCheck.stillHolds(file.path(), now)).isPresent()) {
      return new Checked(Optional.empty(), true);
    }
    IntegrityCheck.Result result =
        readers.withConnection(connection -> IntegrityCheck.run(connection, cap));
    if (result.finished() && result.damage().isEmpty() && file.writable()) {
      state.ifPresent(checked -> CleanCheck.record(file.path(), checked));
    }
    return new Checked(result.damage(), false);
  }

  /**
   * {@code PRAGMA quick_check} over the whole file, with no step budget, within {@code cap}.
   * Nothing is recorded for the next opens: the store was opened just before, so the state of its
   * files is too recent to be trusted as clean ({@link CleanCheck}'s racy window).
   */
  @Override
  public StoreCheck checkWhole(ReadConnections readers, Duration cap) {
    IntegrityCheck.Result result =
        readers.withConnection(connection -> IntegrityCheck.run(connection, cap, Long.MAX_VALUE));
    return new StoreCheck(true, result.finished(), result.damage());
  }

  /** The state of the store's files before anything opens them; empty when it cannot be read. */
  private Optional<CleanCheck.StoreState> stateOfFiles() {
    try {
      return Optional.of(CleanCheck.StoreState.of(file.path()));
    } catch (IOException | RuntimeException cannotTell) {
      return Optional.empty(); // checked as always
    }
  }

  /**
   * Migrates under the file's migration lock, from {@code db/migration}. A damaged store is not
   * migrated; a read-only one is used as it is when a newer turndiff migrated it, else refused.
   */
  @Override
  public void migrate(
      Optional<String> version,
      Supplier<Optional<String>> current,
      Optional<String> damage,
      StoreFailures failures) {
    if (damage.isPresent()) {
      throw damaged(damage.get());
    }
    if (!file.writable()) {
      if (version.isPresent() && Database.isNewer(version.get())) {
        return;
      }
      throw readOnly(
          "it is at schema version "
              + version.orElse("none")
              + " and this turndiff needs version "
              + Store.LATEST_MIGRATION
              + ", which needs writing; open it once where "
              + "it can be written to migrate it");
    }
    try {
      MigrationLock.holding(
          file.path(),
          () -> {
            // another thread or process may have migrated the store while this one waited for the
            // lock
            if (!current.get().equals(Optional.of(Store.LATEST_MIGRATION))) {
              Flyway.configure()
                  .dataSource(dataSource(true))
                  .locations("classpath:db/migration")
                  .load()
                  .migrate();
            }
            return null;
          });
    } catch (RuntimeException e) {
      throw migrationFailed(failures, e);
    }
  }

  /**
   * The commit syncs the WAL ({@code synchronous=FULL} for this one commit; every other commit is
   * only ordered, {@code NORMAL}), so that a power loss right after cannot take it back.
   */
  @Override
  public <T> T durably(StoreConnection writer, Supplier<T> commit) {
    // kept statements, not rendered by jOOQ at each commit: through jOOQ the two pragmas were 1.4 %
    // of a 57-file rewind's wall time (its journal commits durably). A pragma takes effect when
    // SQLite compiles it, and SQLite compiles a pragma's statement again at each run (it marks its
    // program run-once and expires it when the statement is reset), so a kept one sets the level
    // every time (DatabaseTest runs it twice)
    writer
        .prepared()
        .get("pragma.synchronous.full", q -> q.query("PRAGMA synchronous=FULL"))
        .update();
    try {
      return commit.get();
    } finally {
      writer
          .prepared()
          .get("pragma.synchronous.normal", q -> q.query("PRAGMA synchronous=NORMAL"))
          .update();
    }
  }

  /**
   * Moves the WAL's content into the database file and truncates the WAL, with no checkpoint of the
   * {@link WalCheckpointer}'s under way (SQLite would refuse this one as busy).
   */
  @Override
  public void checkpoint(StoreConnection writer) {
    checkpointer.exclusively(() -> writer.dsl().fetch("PRAGMA wal_checkpoint(TRUNCATE)"));
  }

  /** The database file and its write-ahead log. */
  @Override
  public long bytes(ReadConnections readers) {
    return file.bytesOnDisk();
  }

  @Override
  public long freePages(ReadConnections readers) {
    return pragma(readers, "freelist_count");
  }

  @Override
  public long pageSize(ReadConnections readers) {
    return pragma(readers, "page_size");
  }

  private static long pragma(ReadConnections readers, String name) {
    // SQLite's own pragmas: jOOQ has no DSL for them
    return readers.withConnection(
        reader -> ((Number) reader.dsl().fetchValue("PRAGMA " + name)).longValue());
  }

  @Override
  public Store.ConnectionSettings settings(StoreConnection connection) {
    DSLContext dsl = connection.dsl();
    return new Store.ConnectionSettings(
        dsl.fetchValue("PRAGMA journal_mode").toString(),
        Integer.parseInt(dsl.fetchValue("PRAGMA foreign_keys").toString()) == 1,
        Integer.parseInt(dsl.fetchValue("PRAGMA busy_timeout").toString()),
        Integer.parseInt(dsl.fetchValue("PRAGMA synchronous").toString()));
  }

  @Override
  public StoreException damaged(String detail) {
    return StoreFailures.damaged(file.path(), detail, null);
  }

  @Override
  public StoreException readOnly(String detail) {
    return StoreFailures.readOnly(file.path(), detail, null);
  }
}
