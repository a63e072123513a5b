package io.turndiff.store;

import io.turndiff.model.Sha256;
import java.io.InputStream;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.flywaydb.core.Flyway;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * The turndiff store: one SQLite database file, migrated by Flyway when opened, used through jOOQ.
 *
 * <p>The file is created with mode 0600 in a folder created with mode 0700 (SQLite gives its {@code
 * -wal} and {@code -shm} files the database file's mode). Every connection runs with WAL, foreign
 * keys, a busy timeout and {@code synchronous=NORMAL}.
 *
 * <p>Opening checks the store before anything is written: the file's header ({@link StoreHeader}),
 * then SQLite's {@code quick_check} within a budget ({@link IntegrityCheck}). A damaged store still
 * answers what it can, but nothing is written to it; a store whose file or folder cannot be written
 * (a read-only mount) is opened read-only ({@link StoreFile}) and answers queries.
 *
 * <p>Within a process, writes are serialized on one connection and each {@link #write} is one
 * transaction that takes the write lock when it begins ({@code BEGIN IMMEDIATE}), so that two
 * processes never deadlock upgrading a read lock. Each {@link #read} is a read transaction on a
 * read-only connection of its own, which in WAL mode neither waits for the writer nor sees its
 * uncommitted work.
 */
public final class Store implements AutoCloseable {

  static {
    System.setProperty("org.jooq.no-logo", "true");
    System.setProperty("org.jooq.no-tips", "true");
    Logger.getLogger("org.flywaydb").setLevel(Level.WARNING);
    Logger.getLogger("org.jooq").setLevel(Level.WARNING);
  }

  /**
   * How long a write waits for another process's write lock, unless {@link #BUSY_TIMEOUT_VARIABLE}
   * says.
   */
  static final Duration BUSY_TIMEOUT = Duration.ofSeconds(30);

  public static final String BUSY_TIMEOUT_VARIABLE = "TURNDIFF_BUSY_TIMEOUT_MS";
  private static final int JOURNAL_SIZE_LIMIT_BYTES = 64 << 20;
  private static final int WAL_CHECKPOINT_PAGES = 10_000;

  private final StoreFile file;
  private final Duration busyTimeout;
  private final InstantSource clock;
  private final StoreFailures failures;
  private final ReadConnections readers;
  private final BlobCodec codec = new BlobCodec();
  private final ReentrantLock lock = new ReentrantLock();

  /**
   * The write connection; null while none is open (a read-only or damaged store, or after it
   * broke).
   */
  private StoreConnection writer;

  /** Why the store is damaged, once that is known; nothing is written to it then. */
  private volatile String damage;

  private Store(StoreFile file, Duration busyTimeout, InstantSource clock) {
    this.file = file;
    this.busyTimeout = busyTimeout;
    this.clock = clock;
    this.failures = new StoreFailures(file.path(), busyTimeout);
    this.readers = new ReadConnections(() -> connect(false));
  }

  /** Opens (creating and migrating when needed) the store at {@code file}. */
  public static Store open(Path file) {
    return open(file, InstantSource.system());
  }

  public static Store open(Path file, InstantSource clock) {
    Path absolute = file.toAbsolutePath();
    return open(absolute, clock, busyTimeout(absolute, System.getenv()), IntegrityCheck.TIME_CAP);
  }

  /**
   * @param busyTimeout how long a write waits for another process's write lock before it fails
   * @param integrityCap how long the integrity check at open may run at most (zero: no check)
   */
  static Store open(Path file, InstantSource clock, Duration busyTimeout, Duration integrityCap) {
    Path absolute = file.toAbsolutePath();
    StoreFailures failures = new StoreFailures(absolute, busyTimeout);
    Store store;
    try {
      store = new Store(StoreFile.prepare(absolute), busyTimeout, clock);
    } catch (RuntimeException e) {
      throw failures.translate(e);
    }
    try {
      store.check(integrityCap);
      store.migrate();
      if (store.file.writable() && store.damage == null) {
        store.lock.lock();
        try {
          store.writer();
        } finally {
          store.lock.unlock();
        }
      }
      return store;
    } catch (RuntimeException e) {
      closeAfterFailure(store, e);
      throw failures.translate(e);
    } catch (Error e) {
      closeAfterFailure(store, e);
      throw e;
    }
  }

  private static void closeAfterFailure(Store store, Throwable failure) {
    try {
      store.close();
    } catch (RuntimeException closing) {
      failure.addSuppressed(closing);
    }
  }

  /** The busy timeout {@code environment} asks for in {@link #BUSY_TIMEOUT_VARIABLE}, else 30 s. */
  static Duration busyTimeout(Path file, Map<String, String> environment) {
    String millis = environment.get(BUSY_TIMEOUT_VARIABLE);
    if (millis == null || millis.isBlank()) {
      return BUSY_TIMEOUT;
    }
    try {
      long value = Long.parseLong(millis.strip());
      if (value >= 0 && value <= Integer.MAX_VALUE) {
        return Duration.ofMillis(value);
      }
    } catch (NumberFormatException notANumber) {
      // reported below
    }
    throw new StoreException(
        "cannot open the store "
            + file
            + ": "
            + BUSY_TIMEOUT_VARIABLE
            + " must be a number of milliseconds from 0 to "
            + Integer.MAX_VALUE
            + ", not '"
            + millis
            + "'");
  }

  private void check(Duration cap) {
    IntegrityCheck.Result result =
        readers.withConnection(connection -> IntegrityCheck.run(connection, cap));
    result.damage().ifPresent(found -> damage = found);
  }

  // translate hands back the very failure it was given when SQLite did not cause it: identity is
  // the question
  @SuppressWarnings("ReferenceEquality")
  private void migrate() {
    Optional<String> version = readers.read(connection -> schemaVersion(connection.dsl()));
    if (version.equals(Optional.of(LATEST_MIGRATION))) {
      return;
    }
    if (damage != null) {
      throw StoreFailures.damaged(file.path(), damage, null);
    }
    if (!file.writable()) {
      if (version.isPresent() && isNewer(version.get())) {
        return;
      }
      throw StoreFailures.readOnly(
          file.path(),
          "it is at schema version "
              + version.orElse("none")
              + " and this turndiff needs version "
              + LATEST_MIGRATION
              + ", which needs writing; open it once where "
              + "it can be written to migrate it",
          null);
    }
    try {
      MigrationLock.holding(
          file.path(),
          () -> {
            // another thread or process may have migrated the store while this one waited for the
            // lock
            if (!readers
                .read(connection -> schemaVersion(connection.dsl()))
                .equals(Optional.of(LATEST_MIGRATION))) {
              Flyway.configure()
                  .dataSource(dataSource(true))
                  .locations("classpath:db/migration")
                  .load()
                  .migrate();
            }
            return null;
          });
    } catch (RuntimeException e) {
      RuntimeException translated = failures.translate(e);
      if (translated != e) {
        throw translated;
      }
      throw new StoreException(
          "cannot migrate the store " + file.path() + ": " + e.getMessage(), e);
    }
  }

  private static boolean isNewer(String version) {
    try {
      return Integer.parseInt(version) > Integer.parseInt(LATEST_MIGRATION);
    } catch (NumberFormatException notAPlainNumber) {
      return false;
    }
  }

  /** The version of the newest migration in {@code db/migration} (a test keeps the two in step). */
  static final String LATEST_MIGRATION = "9";

  /**
   * The newest version in Flyway's history, if the store has one: a store already at this build's
   * newest migration does not start Flyway at all (scanning the jar for migrations costs a quarter
   * of a second on every command).
   */
  private static Optional<String> schemaVersion(DSLContext dsl) {
    try {
      return Optional.ofNullable(
          dsl.select(DSL.field(DSL.name("version"), String.class))
              .from(DSL.table(DSL.name("flyway_schema_history")))
              .where(DSL.field(DSL.name("success"), Boolean.class).isTrue())
              .orderBy(DSL.field(DSL.name("installed_rank")).desc())
              .limit(1)
              .fetchOne(0, String.class));
    } catch (DataAccessException e) {
      if (StoreFailures.isDamage(e)) {
        throw e;
      }
      return Optional.empty(); // no history yet: a new store
    }
  }

  /**
   * Settings for a connection: the writer's, or a reader's (read-only, and without changing the
   * journal).
   */
  private SQLiteDataSource dataSource(boolean forWriting) {
    SQLiteConfig config = new SQLiteConfig();
    if (forWriting) {
      config.setJournalMode(SQLiteConfig.JournalMode.WAL);
      // for Flyway, which begins its transactions through JDBC: take the write lock when a
      // transaction begins,
      // so that two processes migrating at once wait for each other instead of failing to upgrade a
      // read lock
      config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
    } else {
      config.setReadOnly(true);
    }
    config.enforceForeignKeys(true);
    config.setBusyTimeout(Math.toIntExact(busyTimeout.toMillis()));
    config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
    config.setJournalSizeLimit(JOURNAL_SIZE_LIMIT_BYTES);
    // checkpoint the WAL into the database every ~40 MB rather than every 4 MB: each checkpoint
    // syncs the
    // database file, and a turn of small transactions would otherwise pay for one every few hundred
    // calls
    config.setPragma(
        SQLiteConfig.Pragma.WAL_AUTOCHECKPOINT, Integer.toString(WAL_CHECKPOINT_PAGES));
    SQLiteDataSource dataSource = new SQLiteDataSource(config);
    dataSource.setUrl("jdbc:sqlite:" + file.uri());
    return dataSource;
  }

  private StoreConnection connect(boolean forWriting) {
    try {
      return new StoreConnection(dataSource(forWriting).getConnection());
    } catch (SQLException e) {
      throw failures.translate(
          new StoreException("cannot open the store " + file.path() + ": " + e.getMessage(), e));
    }
  }

  /** The write connection, opened (again) when there is none. Callers hold the lock. */
  private StoreConnection writer() {
    if (writer != null && writer.broken()) {
      StoreConnection broken = writer;
      writer = null;
      try {
        broken.close();
      } catch (RuntimeException ignored) {
        // it is being replaced because it failed
      }
    }
    if (writer == null) {
      writer = connect(true);
    }
    return writer;
  }

  public Path file() {
    return file.path();
  }

  public InstantSource clock() {
    return clock;
  }

  /**
   * Runs {@code work} in one write transaction: all of it lands, or none of it, and the connection
   * is clean afterwards either way. Called from inside a write of the same thread, it is part of
   * that transaction.
   *
   * @throws StoreException {@link StoreException.Problem#DAMAGED} or {@link
   *     StoreException.Problem#READ_ONLY} when the store cannot be written, {@link
   *     StoreException.Problem#BUSY} when another process held the write lock past the busy timeout
   */
  public <T> T write(Function<StoreTransaction, T> work) {
    lock.lock();
    try {
      if (lock.getHoldCount() > 1) {
        return work.apply(transactionOn(writer));
      }
      refuseWrites();
      StoreConnection connection = writer();
      return connection.writeTransaction(() -> work.apply(transactionOn(connection)));
    } catch (RuntimeException e) {
      throw noted(failures.translate(e));
    } finally {
      lock.unlock();
    }
  }

  private void refuseWrites() {
    if (damage != null) {
      throw StoreFailures.damaged(file.path(), damage, null);
    }
    if (!file.writable()) {
      throw StoreFailures.readOnly(file.path(), "its file or folder is read-only", null);
    }
  }

  /**
   * Remembers that the store is damaged when {@code failure} says so: nothing is written to it
   * after that.
   */
  private RuntimeException noted(RuntimeException failure) {
    if (damage == null
        && failure instanceof StoreException store
        && store.problem() == StoreException.Problem.DAMAGED) {
      damage =
          "a statement failed on it ("
              + StoreFailures.sqliteCause(failure)
                  .map(e -> "SQLite says: " + e.getResultCode().message)
                  .orElse(failure.getMessage())
              + ")";
    }
    return failure;
  }

  /**
   * The content stored under {@code sha256} as a stream: a content stored in chunks is read one
   * chunk at a time, never whole.
   */
  public InputStream openContent(Sha256 sha256) {
    return ContentStream.open(this, sha256);
  }

  private StoreTransaction transactionOn(StoreConnection connection) {
    // a read transaction cannot store content, so it gets no compression context
    return new StoreTransaction(
        connection.dsl(), clock, connection.prepared(), connection == writer ? codec : null);
  }

  /**
   * Runs read-only {@code work} in one read transaction: a consistent view of the store as last
   * committed, on a read-only connection, without waiting for a write in progress. Called from
   * inside a write of the same thread, it is part of that transaction (and sees its rows); inside a
   * read, part of that read.
   */
  public <T> T read(Function<StoreTransaction, T> work) {
    if (lock.isHeldByCurrentThread()) {
      return write(work);
    }
    try {
      return readers.read(connection -> work.apply(transactionOn(connection)));
    } catch (RuntimeException e) {
      throw noted(failures.translate(e));
    }
  }

  /**
   * What is known to be wrong with the store's pages, if anything: nothing is written to it then.
   */
  public Optional<String> damage() {
    return Optional.ofNullable(damage);
  }

  /** Whether nothing can be written: the store is damaged, or its file or folder is read-only. */
  public boolean readOnly() {
    return damage != null || !file.writable();
  }

  /**
   * The connection settings as SQLite reports them, to prove that set-up took: the writer's, if
   * there is one.
   */
  public ConnectionSettings settings() {
    lock.lock();
    try {
      return writer != null
          ? settings(writer.dsl())
          : readers.withConnection(reader -> settings(reader.dsl()));
    } finally {
      lock.unlock();
    }
  }

  private static ConnectionSettings settings(DSLContext dsl) {
    // SQLite-specific by nature: these are the connection set-up's own pragmas, read back
    return new ConnectionSettings(
        dsl.fetchValue("PRAGMA journal_mode").toString(),
        Integer.parseInt(dsl.fetchValue("PRAGMA foreign_keys").toString()) == 1,
        Integer.parseInt(dsl.fetchValue("PRAGMA busy_timeout").toString()),
        Integer.parseInt(dsl.fetchValue("PRAGMA synchronous").toString()));
  }

  /**
   * The settings SQLite reports for a connection of the store.
   *
   * @param synchronous SQLite's number: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA
   */
  public record ConnectionSettings(
      String journalMode, boolean foreignKeys, int busyTimeoutMillis, int synchronous) {}

  /**
   * Moves the WAL's content into the database file and truncates the WAL (nothing on a read-only
   * store).
   */
  public void checkpoint() {
    lock.lock();
    try {
      if (writer != null && !readOnly()) {
        writer.dsl().fetch("PRAGMA wal_checkpoint(TRUNCATE)");
      }
    } catch (RuntimeException e) {
      throw noted(failures.translate(e));
    } finally {
      lock.unlock();
    }
  }

  /**
   * Runs {@code work} on the write connection outside any transaction, under the process's write
   * lock: for the statements SQLite refuses inside one ({@code VACUUM}), and for {@code
   * incremental_vacuum} steps, each of which takes SQLite's write lock only while it runs.
   */
  <T> T outsideTransaction(Function<DSLContext, T> work) {
    lock.lock();
    try {
      if (lock.getHoldCount() > 1) {
        throw new IllegalStateException("not inside a transaction");
      }
      refuseWrites();
      return work.apply(writer().dsl());
    } catch (RuntimeException e) {
      throw noted(failures.translate(e));
    } finally {
      lock.unlock();
    }
  }

  /** The bytes of the database file and its write-ahead log. */
  public long fileBytes() {
    return file.bytesOnDisk();
  }

  /** Pages inside the file that hold nothing, as last committed. */
  public long freePages() {
    return pragma("freelist_count");
  }

  /** The size of a page of the file. */
  public long pageSize() {
    return pragma("page_size");
  }

  private long pragma(String name) {
    // SQLite's own pragmas: jOOQ has no DSL for them
    try {
      return readers.withConnection(
          reader -> ((Number) reader.dsl().fetchValue("PRAGMA " + name)).longValue());
    } catch (RuntimeException e) {
      throw noted(failures.translate(e));
    }
  }

  @Override
  public void close() {
    lock.lock();
    try {
      // the readers first: the last connection to close moves the WAL into the database and removes
      // it
      readers.close();
      if (writer != null) {
        writer.close();
        writer = null;
      }
    } finally {
      codec.close();
      lock.unlock();
    }
  }
}
