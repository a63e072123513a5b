package io.turndiff.store;

import io.turndiff.model.Sha256;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.postgresql.ds.PGSimpleDataSource;
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
 * then SQLite's {@code quick_check} within a budget ({@link IntegrityCheck}), skipped while the
 * files are as a whole clean check left them ({@link CleanCheck}). A damaged store still answers
 * what it can, but nothing is written to it; a store whose file or folder cannot be written (a
 * read-only mount) is opened read-only ({@link StoreFile}) and answers queries.
 *
 * <p>Within a process, writes are serialized on one connection and each {@link #write} is one
 * transaction that takes the write lock when it begins ({@code BEGIN IMMEDIATE}), so that two
 * processes never deadlock upgrading a read lock. Each {@link #read} is a read transaction on a
 * read-only connection of its own, which in WAL mode neither waits for the writer nor sees its
 * uncommitted work.
 *
 * <p>The same store lives in a PostgreSQL database too ({@link PostgresDatabase}): the same jOOQ
 * code in the {@link SQLDialect#POSTGRES} dialect, its schema from {@code db/postgresql}. There
 * each write transaction first takes one transaction-scoped advisory lock, so writes from every
 * process on every machine are serialized as SQLite serializes them (and wait at most the busy
 * timeout, as {@code lock_timeout}); each read is a {@code REPEATABLE READ} read-only transaction,
 * one consistent snapshot that never waits for a writer. File-only matters (the header and
 * integrity checks, pragmas, the WAL, vacuum) do not apply there.
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
  private static final long POSTGRES_PAGE_BYTES = 8192;

  /** The SQLite file; null for a PostgreSQL store. */
  private final StoreFile file;

  /** The PostgreSQL database; null for a SQLite store. */
  private final PostgresDatabase postgres;

  private final StoreAddress address;
  private final Duration busyTimeout;
  private final InstantSource clock;

  /** The machine this process runs on: whose workspaces it registers and may work in. */
  private final HostId host;

  private final StoreFailures failures;
  private final ReadConnections readers;
  private final BlobCodec codec = new BlobCodec();
  private final ReentrantLock lock = new ReentrantLock();
  private final GroupCommit groups = new GroupCommit();

  /**
   * The write connection; null while none is open (a read-only or damaged store, or after it
   * broke).
   */
  private StoreConnection writer;

  /** Why the store is damaged, once that is known; nothing is written to it then. */
  private volatile String damage;

  /** Set at open when the files were as a clean check left them (no check then). */
  private boolean uncheckedSinceCleanCheck;

  private Store(
      StoreFile file, PostgresDatabase postgres, Duration busyTimeout, InstantSource clock) {
    this.file = file;
    this.postgres = postgres;
    this.address = postgres != null ? postgres : new StoreAddress.SqliteFile(file.path());
    this.busyTimeout = busyTimeout;
    this.clock = clock;
    this.host = HostId.thisMachine();
    this.failures = new StoreFailures(address.display(), busyTimeout);
    this.readers = new ReadConnections(() -> connect(false));
  }

  /** Opens (creating and migrating when needed) the store at {@code address}. */
  public static Store open(StoreAddress address) {
    return open(address, InstantSource.system());
  }

  public static Store open(StoreAddress address, InstantSource clock) {
    return switch (address) {
      case StoreAddress.SqliteFile sqlite -> open(sqlite.path(), clock);
      case PostgresDatabase database ->
          open(database, clock, busyTimeout(database.display(), System.getenv()));
    };
  }

  /**
   * Opens the store in a PostgreSQL database, migrating its schema when needed (Flyway's own lock
   * on the database serializes migrators on every machine).
   */
  static Store open(PostgresDatabase database, InstantSource clock, Duration busyTimeout) {
    return new Store(null, database, busyTimeout, clock).start(Duration.ZERO);
  }

  /** Opens (creating and migrating when needed) the store at {@code file}. */
  public static Store open(Path file) {
    return open(file, InstantSource.system());
  }

  public static Store open(Path file, InstantSource clock) {
    Path absolute = file.toAbsolutePath();
    return open(
        absolute,
        clock,
        busyTimeout(absolute.toString(), System.getenv()),
        IntegrityCheck.TIME_CAP);
  }

  /**
   * @param busyTimeout how long a write waits for another process's write lock before it fails
   * @param integrityCap how long the integrity check at open may run at most (zero: no check)
   */
  static Store open(Path file, InstantSource clock, Duration busyTimeout, Duration integrityCap) {
    SqliteLibraryCopy.useWhenAsked();
    Path absolute = file.toAbsolutePath();
    StoreFailures failures = new StoreFailures(absolute.toString(), busyTimeout);
    Store store;
    try {
      store = new Store(StoreFile.prepare(absolute), null, busyTimeout, clock);
    } catch (RuntimeException e) {
      throw failures.translate(e);
    }
    return store.start(integrityCap);
  }

  /**
   * Checks a SQLite file (within {@code integrityCap}), migrates, and opens the write connection
   * when the store can be written; closes the store when any of it fails.
   */
  private Store start(Duration integrityCap) {
    try {
      if (postgres == null) {
        check(integrityCap);
      }
      migrate();
      if (writable() && damage == null) {
        lock.lock();
        try {
          writer();
        } finally {
          lock.unlock();
        }
      }
      return this;
    } catch (RuntimeException e) {
      closeAfterFailure(this, e);
      throw failures.translate(e);
    } catch (Error e) {
      closeAfterFailure(this, e);
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
  static Duration busyTimeout(String store, Map<String, String> environment) {
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
            + store
            + ": "
            + BUSY_TIMEOUT_VARIABLE
            + " must be a number of milliseconds from 0 to "
            + Integer.MAX_VALUE
            + ", not '"
            + millis
            + "'");
  }

  /**
   * Checks the store within {@code cap}, unless its files are as they were when a check last went
   * through them whole and found nothing ({@link CleanCheck}); records a clean whole check.
   */
  private void check(Duration cap) {
    Optional<CleanCheck.StoreState> state = stateOfFiles();
    if (cap.isPositive()
        && state.filter(now -> CleanCheck.stillHolds(file.path(), now)).isPresent()) {
      uncheckedSinceCleanCheck = true;
      return;
    }
    IntegrityCheck.Result result =
        readers.withConnection(connection -> IntegrityCheck.run(connection, cap));
    result.damage().ifPresent(found -> damage = found);
    if (result.finished() && result.damage().isEmpty() && file.writable()) {
      state.ifPresent(checked -> CleanCheck.record(file.path(), checked));
    }
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
   * Whether opening skipped the integrity check because the files had not changed since a check
   * found them sound.
   */
  boolean uncheckedSinceCleanCheck() {
    return uncheckedSinceCleanCheck;
  }

  // translate hands back the very failure it was given when SQLite did not cause it: identity is
  // the question
  @SuppressWarnings("ReferenceEquality")
  private void migrate() {
    Optional<String> version = readers.read(connection -> schemaVersion(connection.dsl()));
    if (version.equals(Optional.of(LATEST_MIGRATION))) {
      return;
    }
    if (postgres != null) {
      migratePostgres(version);
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

  /** Migrates a PostgreSQL store; one at a newer version (a newer turndiff) is used as it is. */
  // translate hands back the very failure it was given when PostgreSQL did not cause it
  @SuppressWarnings("ReferenceEquality")
  private void migratePostgres(Optional<String> version) {
    if (version.isPresent() && isNewer(version.get())) {
      return;
    }
    try {
      Flyway.configure()
          .dataSource(dataSource(true))
          .locations("classpath:" + POSTGRES_MIGRATIONS)
          .load()
          .migrate();
    } catch (RuntimeException e) {
      RuntimeException translated = failures.translate(e);
      if (translated != e) {
        throw translated;
      }
      throw new StoreException(
          "cannot migrate the store " + address.display() + ": " + e.getMessage(), e);
    }
  }

  /**
   * The PostgreSQL schema's migrations: the schema as V1..V9 leave SQLite's, in one script that
   * PostgreSQL can run (docs/store-layout.md).
   */
  static final String POSTGRES_MIGRATIONS = "db/postgresql";

  private static boolean isNewer(String version) {
    try {
      return Integer.parseInt(version) > Integer.parseInt(LATEST_MIGRATION);
    } catch (NumberFormatException notAPlainNumber) {
      return false;
    }
  }

  /** The version of the newest migration in {@code db/migration} (a test keeps the two in step). */
  static final String LATEST_MIGRATION = "13";

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
  private DataSource dataSource(boolean forWriting) {
    if (postgres != null) {
      return postgresDataSource(forWriting);
    }
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

  private PGSimpleDataSource postgresDataSource(boolean forWriting) {
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setURL(postgres.url());
    postgres.user().ifPresent(dataSource::setUser);
    postgres.password().ifPresent(dataSource::setPassword);
    dataSource.setApplicationName("turndiff");
    dataSource.setReadOnly(!forWriting);
    // how long a write waits for another writer's lock (the advisory lock, a row), as SQLite's busy
    // timeout; 0 waits for ever on both
    dataSource.setOptions("-c lock_timeout=" + busyTimeout.toMillis());
    return dataSource;
  }

  private StoreConnection connect(boolean forWriting) {
    try {
      return new StoreConnection(dataSource(forWriting).getConnection(), dialect());
    } catch (SQLException e) {
      throw failures.translate(
          new StoreException(
              "cannot open the store " + address.display() + ": " + e.getMessage(), e));
    }
  }

  /** The SQL dialect of the store's database. */
  public SQLDialect dialect() {
    return postgres != null ? SQLDialect.POSTGRES : SQLDialect.SQLITE;
  }

  /** Where the store lives. */
  public StoreAddress address() {
    return address;
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

  /**
   * The SQLite store's file.
   *
   * @throws IllegalStateException for a PostgreSQL store, which has none ({@link #localFile})
   */
  public Path file() {
    return localFile()
        .orElseThrow(
            () -> new IllegalStateException("the store " + address.display() + " has no file"));
  }

  /** The store's file, when it is a SQLite file on this machine. */
  public Optional<Path> localFile() {
    return Optional.ofNullable(file).map(StoreFile::path);
  }

  public InstantSource clock() {
    return clock;
  }

  /** This machine, as it was when the store was opened ({@link HostId#thisMachine}). */
  public HostId host() {
    return host;
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

  /**
   * As {@link #write}, but joining the writes other threads ask for at the same moment: they run in
   * one transaction, each in a savepoint of its own, committed once ({@link GroupCommit}). It
   * returns only after that commit, so a crash right after still keeps what {@code work} wrote;
   * {@code work} that fails undoes only its own statements and fails only its caller. For many
   * small concurrent writes that each must be durable before the caller goes on (the snapshot calls
   * of several tool calls, sessions or hooks at once). Called from inside a write of the same
   * thread, it is part of that transaction.
   */
  public <T> T writeInGroup(Function<StoreTransaction, T> work) {
    if (lock.isHeldByCurrentThread()) {
      return write(work);
    }
    return groups.submit(work, this::writeGroup);
  }

  /** The group commit of {@link #writeInGroup} (for tests that line callers up). */
  GroupCommit groups() {
    return groups;
  }

  /** One write transaction for a group of units, each in its own savepoint when there are more. */
  private void writeGroup(List<GroupCommit.Unit<?>> units) {
    lock.lock();
    try {
      refuseWrites();
      StoreConnection connection = writer();
      if (units.size() == 1) {
        // a group of one is an ordinary transaction: no savepoint to pay for
        GroupCommit.Unit<?> only = units.getFirst();
        connection.writeTransaction(
            () -> {
              only.run(transactionOn(connection));
              return null;
            });
        return;
      }
      connection.writeTransaction(
          () -> {
            StoreTransaction tx = transactionOn(connection);
            for (GroupCommit.Unit<?> unit : units) {
              connection
                  .inSavepoint(() -> unit.run(tx))
                  .ifPresent(failure -> unit.fail(translated(failure)));
            }
            return null;
          });
    } catch (RuntimeException e) {
      RuntimeException failure = noted(failures.translate(e));
      units.forEach(unit -> unit.failWithGroup(failure));
    } finally {
      lock.unlock();
    }
  }

  /**
   * As {@link #write}, and durable when it returns: on SQLite the commit syncs the WAL ({@code
   * synchronous=FULL} for this one commit; every other commit is only ordered, {@code NORMAL}), so
   * that a power loss right after cannot take it back. For what must be on disk before the
   * workspace is changed because of it (a rewind's journal and the content it is about to replace);
   * PostgreSQL's commits are durable already.
   */
  public <T> T writeDurably(Function<StoreTransaction, T> work) {
    if (lock.isHeldByCurrentThread()) {
      throw new IllegalStateException("a durable write is never part of another transaction");
    }
    if (postgres != null) {
      // its own transaction, taken before this method holds the lock: write() run under the held
      // lock would take the work for part of an outer transaction and never commit it
      return write(work);
    }
    lock.lock();
    try {
      refuseWrites();
      StoreConnection connection = writer();
      connection.dsl().execute("PRAGMA synchronous=FULL");
      try {
        return connection.writeTransaction(() -> work.apply(transactionOn(connection)));
      } finally {
        connection.dsl().execute("PRAGMA synchronous=NORMAL");
      }
    } catch (RuntimeException e) {
      throw noted(failures.translate(e));
    } finally {
      lock.unlock();
    }
  }

  private Throwable translated(Throwable failure) {
    return failure instanceof RuntimeException e ? noted(failures.translate(e)) : failure;
  }

  private void refuseWrites() {
    if (damage != null) {
      throw StoreFailures.damaged(file.path(), damage, null);
    }
    if (!writable()) {
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
        connection.dsl(), clock, host, connection.prepared(), connection == writer ? codec : null);
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
    return damage != null || !writable();
  }

  private boolean writable() {
    return postgres != null || file.writable();
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
      if (writer != null && !readOnly() && postgres == null) {
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

  /** The bytes of the database file and its write-ahead log (PostgreSQL: the database's size). */
  public long fileBytes() {
    if (postgres != null) {
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
    if (postgres != null) {
      // PostgreSQL keeps its free space inside the tables for reuse (autovacuum): none to report
      return name.equals("page_size") ? POSTGRES_PAGE_BYTES : 0;
    }
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
