package io.turndiff.store;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.InstantSource;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.flywaydb.core.Flyway;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * The turndiff store: one SQLite database file, migrated by Flyway when opened, used through jOOQ.
 *
 * <p>The file is created with mode 0600 in a folder created with mode 0700 (SQLite gives its {@code -wal}
 * and {@code -shm} files the database file's mode). Every connection runs with WAL, foreign keys, a busy
 * timeout and {@code synchronous=NORMAL}, and takes the write lock when a transaction begins
 * ({@code BEGIN IMMEDIATE}), so that two processes never deadlock upgrading a read lock.
 *
 * <p>Within a process, all work is serialized on one connection; {@link #write} is one transaction.
 */
public final class Store implements AutoCloseable {

  static {
    System.setProperty("org.jooq.no-logo", "true");
    System.setProperty("org.jooq.no-tips", "true");
    Logger.getLogger("org.flywaydb").setLevel(Level.WARNING);
    Logger.getLogger("org.jooq").setLevel(Level.WARNING);
  }

  private static final int BUSY_TIMEOUT_MILLIS = 30_000;
  private static final int JOURNAL_SIZE_LIMIT_BYTES = 64 << 20;
  private static final int WAL_CHECKPOINT_PAGES = 10_000;

  private final Path file;
  private final Connection connection;
  private final DSLContext dsl;
  private final InstantSource clock;
  private final PreparedQueries prepared;
  private final BlobCodec codec = new BlobCodec();
  private final ReentrantLock lock = new ReentrantLock();

  private Store(Path file, Connection connection, InstantSource clock) {
    this.file = file;
    this.connection = connection;
    this.clock = clock;
    this.dsl = DSL.using(connection, SQLDialect.SQLITE, new Settings().withExecuteLogging(false));
    this.prepared = new PreparedQueries(dsl, connection);
  }

  /** Opens (creating and migrating when needed) the store at {@code file}. */
  public static Store open(Path file) {
    return open(file, InstantSource.system());
  }

  public static Store open(Path file, InstantSource clock) {
    Path absolute = file.toAbsolutePath();
    createPrivately(absolute);
    SQLiteDataSource dataSource = dataSource(absolute);
    try {
      if (!isAtLatestMigration(dataSource)) {
        Flyway.configure()
            .dataSource(dataSource)
            .locations("classpath:db/migration")
            .load()
            .migrate();
      }
    } catch (RuntimeException e) {
      throw new StoreException("cannot migrate the store " + absolute + ": " + e.getMessage(), e);
    }
    try {
      return new Store(absolute, dataSource.getConnection(), clock);
    } catch (SQLException e) {
      throw new StoreException("cannot open the store " + absolute + ": " + e.getMessage(), e);
    }
  }

  /** The version of the newest migration in {@code db/migration} (a test keeps the two in step). */
  static final String LATEST_MIGRATION = "4";

  /**
   * Whether Flyway's history says the store already has every migration of this build: then Flyway is not
   * started at all (scanning the jar for migrations costs a quarter of a second on every command).
   */
  private static boolean isAtLatestMigration(SQLiteDataSource dataSource) {
    try (Connection connection = dataSource.getConnection()) {
      String latest = DSL.using(connection, SQLDialect.SQLITE, new Settings().withExecuteLogging(false))
          .select(DSL.field(DSL.name("version"), String.class))
          .from(DSL.table(DSL.name("flyway_schema_history")))
          .where(DSL.field(DSL.name("success"), Boolean.class).isTrue())
          .orderBy(DSL.field(DSL.name("installed_rank")).desc())
          .limit(1)
          .fetchOne(0, String.class);
      return LATEST_MIGRATION.equals(latest);
    } catch (SQLException | org.jooq.exception.DataAccessException noHistoryYet) {
      return false;
    }
  }

  private static SQLiteDataSource dataSource(Path file) {
    SQLiteConfig config = new SQLiteConfig();
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    config.enforceForeignKeys(true);
    config.setBusyTimeout(BUSY_TIMEOUT_MILLIS);
    config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
    config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
    config.setJournalSizeLimit(JOURNAL_SIZE_LIMIT_BYTES);
    // checkpoint the WAL into the database every ~40 MB rather than every 4 MB: each checkpoint syncs the
    // database file, and a turn of small transactions would otherwise pay for one every few hundred calls
    config.setPragma(SQLiteConfig.Pragma.WAL_AUTOCHECKPOINT, Integer.toString(WAL_CHECKPOINT_PAGES));
    SQLiteDataSource dataSource = new SQLiteDataSource(config);
    dataSource.setUrl("jdbc:sqlite:" + file);
    return dataSource;
  }

  private static void createPrivately(Path file) {
    try {
      Path folder = file.getParent();
      if (!Files.isDirectory(folder)) {
        Files.createDirectories(folder, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      }
      try {
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      } catch (FileAlreadyExistsException alreadyThere) {
        if (!Files.isRegularFile(file)) {
          throw new StoreException("the store " + file + " exists but is not a regular file");
        }
      }
      if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
        throw new StoreException("the store " + file + " is a directory");
      }
    } catch (IOException e) {
      throw new StoreException("cannot create the store " + file + ": " + e.getMessage(), e);
    }
  }

  public Path file() {
    return file;
  }

  public InstantSource clock() {
    return clock;
  }

  /**
   * Runs {@code work} in one write transaction: all of it lands, or none of it. The transaction is the
   * connection's own ({@code BEGIN IMMEDIATE} ... {@code COMMIT}); jOOQ's transaction API costs more per call
   * than the statements of a snapshot call together.
   */
  public <T> T write(Function<StoreTransaction, T> work) {
    lock.lock();
    try {
      if (lock.getHoldCount() > 1) {
        // called from inside a transaction of this thread: part of that transaction
        return work.apply(new StoreTransaction(dsl, clock, prepared, codec));
      }
      connection.setAutoCommit(false);
      try {
        T result = work.apply(new StoreTransaction(dsl, clock, prepared, codec));
        connection.commit();
        return result;
      } catch (RuntimeException | Error e) {
        rollback(e);
        throw e;
      } finally {
        connection.setAutoCommit(true);
      }
    } catch (SQLException e) {
      throw new StoreException("the store " + file + " failed a transaction: " + e.getMessage(), e);
    } finally {
      lock.unlock();
    }
  }

  private void rollback(Throwable cause) {
    try {
      connection.rollback();
    } catch (SQLException e) {
      cause.addSuppressed(e);
    }
  }

  /**
   * The content stored under {@code sha256} as a stream: a content stored in chunks is read one chunk at a
   * time, never whole.
   */
  public java.io.InputStream openContent(io.turndiff.model.Sha256 sha256) {
    return ContentStream.open(this, sha256);
  }

  /** Runs read-only {@code work} on a consistent view of the store. */
  public <T> T read(Function<StoreTransaction, T> work) {
    return write(work);
  }

  /** The connection settings as SQLite reports them, to prove that set-up took. */
  public ConnectionSettings settings() {
    lock.lock();
    try {
      // SQLite-specific by nature: these are the connection set-up's own pragmas, read back
      return new ConnectionSettings(
          dsl.fetchValue("PRAGMA journal_mode").toString(),
          Integer.parseInt(dsl.fetchValue("PRAGMA foreign_keys").toString()) == 1,
          Integer.parseInt(dsl.fetchValue("PRAGMA busy_timeout").toString()),
          Integer.parseInt(dsl.fetchValue("PRAGMA synchronous").toString()));
    } finally {
      lock.unlock();
    }
  }

  /**
   * @param synchronous SQLite's number: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA
   */
  public record ConnectionSettings(String journalMode, boolean foreignKeys, int busyTimeoutMillis,
                                   int synchronous) {
  }

  /** Moves the WAL's content into the database file and truncates the WAL. */
  public void checkpoint() {
    lock.lock();
    try {
      dsl.fetch("PRAGMA wal_checkpoint(TRUNCATE)");
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void close() {
    lock.lock();
    try {
      prepared.close();
      codec.close();
      connection.close();
    } catch (SQLException e) {
      throw new StoreException("cannot close the store " + file + ": " + e.getMessage(), e);
    } finally {
      lock.unlock();
    }
  }
}
