package io.turndiff.store;

import io.turndiff.model.Sha256;
import java.io.InputStream;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;

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
 *
 * <p>The store is written once over its {@link Database}, one type per dialect ({@link Sqlite},
 * {@link Postgresql}), which owns what differs: the connection set-up, the write lock, the checks
 * at open, the migrations, durable commits and the file's own sizes.
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

  private final Database database;
  private final InstantSource clock;

  /** The machine this process runs on: whose workspaces it registers and may work in. */
  private final HostId host;

  private final StoreFailures failures;
  private final ReadConnections readers;
  private final BlobCodec codec = new BlobCodec();

  /**
   * The content dictionaries this store's transactions have read, by id: immutable once committed
   * ({@link ContentDictionaries}).
   */
  private final Map<Long, ContentDictionary> dictionaries = new ConcurrentHashMap<>();

  private final ReentrantLock lock = new ReentrantLock();
  private final GroupCommit groups = new GroupCommit();

  /**
   * This process's writes begun on the store, but {@link #writeWithoutFolding}'s ({@link
   * #changeMark}).
   */
  private final AtomicLong writesBegun = new AtomicLong();

  /**
   * The write connection; null while none is open (a read-only or damaged store, or after it
   * broke).
   */
  private StoreConnection writer;

  /** Why the store is damaged, once that is known; nothing is written to it then. */
  private volatile String damage;

  /** Set at open when the files were as a clean check left them (no check then). */
  private boolean uncheckedSinceCleanCheck;

  private Store(Database database, Duration busyTimeout, InstantSource clock) {
    this.database = database;
    this.clock = clock;
    this.host = HostId.thisMachine();
    this.failures = new StoreFailures(database.address().display(), busyTimeout);
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
    return new Store(new Postgresql(database, busyTimeout), busyTimeout, clock)
        .start(Duration.ZERO);
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
      store = new Store(new Sqlite(StoreFile.prepare(absolute), busyTimeout), busyTimeout, clock);
    } catch (RuntimeException e) {
      throw failures.translate(e);
    }
    return store.start(integrityCap);
  }

  /**
   * Checks the store (within {@code integrityCap}), migrates, and opens the write connection when
   * the store can be written; closes the store when any of it fails.
   */
  private Store start(Duration integrityCap) {
    try {
      Database.Checked checked = database.check(readers, integrityCap);
      damage = checked.damage().orElse(null);
      uncheckedSinceCleanCheck = checked.skippedAsClean();
      migrate();
      if (database.writable() && damage == null) {
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
   * Whether opening skipped the integrity check because the files had not changed since a check
   * found them sound.
   */
  boolean uncheckedSinceCleanCheck() {
    return uncheckedSinceCleanCheck;
  }

  /** Brings the schema to {@link #LATEST_MIGRATION} unless it is there already. */
  private void migrate() {
    Optional<String> version = schemaVersionNow();
    if (version.equals(Optional.of(LATEST_MIGRATION))) {
      return;
    }
    database.migrate(version, this::schemaVersionNow, Optional.ofNullable(damage), failures);
  }

  private Optional<String> schemaVersionNow() {
    return readers.read(connection -> schemaVersion(connection.dsl()));
  }

  /** The version of the newest migration in {@code db/migration} (a test keeps the two in step). */
  static final String LATEST_MIGRATION = "31";

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

  private StoreConnection connect(boolean forWriting) {
    try {
      return database.connect(forWriting);
    } catch (SQLException e) {
      throw failures.translate(
          new StoreException(
              "cannot open the store " + address().display() + ": " + e.getMessage(), e));
    }
  }

  /** The SQL dialect of the store's database. */
  public SQLDialect dialect() {
    return database.dialect();
  }

  /** Where the store lives. */
  public StoreAddress address() {
    return database.address();
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
            () -> new IllegalStateException("the store " + address().display() + " has no file"));
  }

  /** The store's file, when it is a SQLite file on this machine. */
  public Optional<Path> localFile() {
    return database.localFile();
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
    return write(work, true);
  }

  /**
   * As {@link #write}, without folding the before log first ({@link BeforeLog}): for work that
   * touches none of the rows a fold writes, or only a finished turn's (which no logged row can
   * change, since the log holds open turns' rows only: a snapshot call appends a row only in a
   * transaction that finds its turn open, and a turn leaves the open state only in a write that
   * folded the log first — the finish, an abandon, a removal — each under the store's one write
   * lock, SQLite's or PostgreSQL's advisory lock), and nothing a {@linkplain #changeMark change
   * mark} answers for: the line diffs of finished turns' file changes and the contents those diffs
   * are stored as, and the hook sightings the service keeps.
   *
   * <p>Why: these writes come while a turn's snapshot calls come in (the background line diffs of
   * the turn before, the sightings every few seconds). A write of theirs that folded would fold the
   * rows logged since the last (a dozen statements, their contents' zstd and a commit) while the
   * calls wait for the lock, again and again, instead of the turn's finish folding them together.
   */
  public <T> T writeWithoutFolding(Function<StoreTransaction, T> work) {
    return write(work, false);
  }

  private <T> T write(Function<StoreTransaction, T> work, boolean fold) {
    lock.lock();
    try {
      if (lock.getHoldCount() > 1) {
        return work.apply(transactionOn(writer));
      }
      if (fold) {
        // writeWithoutFolding's work changes no row a change mark answers for (see changeMark)
        writesBegun.incrementAndGet();
      }
      refuseWrites();
      StoreConnection connection = writer();
      return connection.writeTransaction(
          () -> work.apply(fold ? foldedTransactionOn(connection) : transactionOn(connection)));
    } catch (RuntimeException e) {
      throw noted(failures.translate(e));
    } finally {
      lock.unlock();
    }
  }

  /**
   * The writer's transaction with the before log folded first ({@link BeforeLog}): every write but
   * a snapshot call's append sees each before-state recorded in its tables, and empties the log in
   * its own commit. An empty log costs one look at its first row.
   */
  private StoreTransaction foldedTransactionOn(StoreConnection connection) {
    StoreTransaction tx = transactionOn(connection);
    tx.beforeLog().fold(tx);
    return tx;
  }

  /**
   * As {@link #write}, but joining the writes other threads ask for at the same moment, and without
   * folding the before log ({@link BeforeLog}): for a snapshot call's append to it. They run in one
   * transaction, each in a savepoint of its own, committed once ({@link GroupCommit}). It returns
   * only after that commit, so a crash right after still keeps what {@code work} wrote; {@code
   * work} that fails undoes only its own statements and fails only its caller. For many small
   * concurrent writes that each must be durable before the caller goes on (the snapshot calls of
   * several tool calls, sessions or hooks at once). Called from inside a write of the same thread,
   * it is part of that transaction.
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
      writesBegun.incrementAndGet();
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
    lock.lock();
    try {
      writesBegun.incrementAndGet();
      refuseWrites();
      StoreConnection connection = writer();
      return database.durably(
          connection,
          () -> connection.writeTransaction(() -> work.apply(foldedTransactionOn(connection))));
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
      throw database.damaged(damage);
    }
    if (!database.writable()) {
      throw database.readOnly("its file or folder is read-only");
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
        connection.dsl(),
        clock,
        host,
        connection.prepared(),
        connection == writer ? codec : null,
        dictionaries,
        connection != writer);
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
      Folded<T> seen =
          readers.read(
              connection -> {
                StoreTransaction tx = transactionOn(connection);
                if (!readOnly() && !tx.beforeLog().isEmpty()) {
                  return Folded.notYet();
                }
                return Folded.of(work.apply(tx));
              });
      if (seen.read()) {
        return seen.value();
      }
      // a snapshot call logged a before-state since the last write: fold it (a write of nothing
      // folds), then read what the fold left; a call logged meanwhile is one that came after
      write(tx -> null);
      return readers.read(connection -> work.apply(transactionOn(connection)));
    } catch (RuntimeException e) {
      throw noted(failures.translate(e));
    }
  }

  /**
   * As {@link #read}, without looking at the before log ({@link BeforeLog}): the tables as the last
   * fold left them. For work that reads none of the rows a fold writes (a fold writes tool calls,
   * file changes and their links, snapshots and contents), or reads them only of finished turns,
   * which no logged row belongs to ({@link #writeWithoutFolding} says why none can): the turns' own
   * rows (which is open, a session's turns, a runtime), the workspaces, the hook sightings, the
   * dictionaries, a finished turn's records.
   *
   * <p>Why: a read that found the log not empty would fold it first, a write the snapshot calls
   * that logged the rows wait for. A runtime's hooks ask for their session's open turn on every
   * call, so each tool call's Pre hook folded the one before it ahead of its own append, and the
   * service's look for gone runtimes folded an open turn's calls every few seconds.
   */
  public <T> T readWithoutFolding(Function<StoreTransaction, T> work) {
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
   * Folds the before log when it holds rows ({@link BeforeLog}), in a write of nothing else, as the
   * next {@link #read} would; returns the contents that fold stored, whole and as the snapshot
   * calls read them ({@link BeforeLog#foldedBases}), empty when there was nothing to fold (or the
   * store cannot be written). For a turn's finish, which folds its turn's rows and then compresses
   * the after-states against the before-states: the ones it folded need not be read back from the
   * blob table and decompressed.
   */
  public Map<Sha256, DeltaBase> fold() {
    if (lock.isHeldByCurrentThread() || readOnly()) {
      return Map.of();
    }
    if (readWithoutFolding(tx -> tx.beforeLog().isEmpty())) {
      return Map.of();
    }
    return write(tx -> tx.beforeLog().foldedBases());
  }

  /** What a read returned, or that it found the before log to fold first. */
  private record Folded<T>(boolean read, T value) {
    static <T> Folded<T> of(T value) {
      return new Folded<>(true, value);
    }

    static <T> Folded<T> notYet() {
      return new Folded<>(false, null);
    }
  }

  /**
   * What is known to be wrong with the store's pages, if anything: nothing is written to it then.
   */
  public Optional<String> damage() {
    return Optional.ofNullable(damage);
  }

  /**
   * Checks every page of the store within {@code cap} however big it is, unlike the bounded check
   * at open ({@code turndiff doctor}); reads only, and waits for no writer.
   */
  public StoreCheck checkWhole(Duration cap) {
    try {
      return database.checkWhole(readers, cap);
    } catch (RuntimeException e) {
      throw failures.translate(e);
    }
  }

  /** Whether nothing can be written: the store is damaged, or its file or folder is read-only. */
  public boolean readOnly() {
    return damage != null || !database.writable();
  }

  /**
   * The connection settings as SQLite reports them, to prove that set-up took: the writer's, if
   * there is one.
   */
  public ConnectionSettings settings() {
    lock.lock();
    try {
      return writer != null
          ? database.settings(writer)
          : readers.withConnection(database::settings);
    } finally {
      lock.unlock();
    }
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
        database.checkpoint(writer);
      }
    } catch (RuntimeException e) {
      throw noted(failures.translate(e));
    } finally {
      lock.unlock();
    }
  }

  /**
   * A number that changes when another process has committed to the store since the last call, and
   * never for this store's own writes (empty when it cannot be told now: the caller asks again
   * later).
   *
   * <p>SQLite: its {@code PRAGMA data_version}, read on the write connection. SQLite changes that
   * number for a connection only when some <em>other</em> connection commits, and the write
   * connection is the only one of this process that writes (the read connections never do), so a
   * change is another process's commit: a CLI {@code snapshot}, a second service, a {@code gc}. It
   * is one page-cache lookup, cheap enough to ask four times a second; empty while this process is
   * writing, rather than waiting behind a long write.
   *
   * <p>PostgreSQL: the other stores' commit notices counted on a listening connection of its own
   * ({@link PostgresCommitNotices}), opened by the first call.
   */
  public OptionalLong commitsByOthers() {
    return switch (database) {
      case Postgresql postgres -> postgres.commitsByOthers();
      case Sqlite sqlite -> sqliteDataVersion();
    };
  }

  /**
   * Nobody asks {@link #commitsByOthers()} for now: on PostgreSQL its listening connection is
   * closed (a listener that reads nothing makes the server keep every notice for it), and the next
   * call opens it again. Nothing on SQLite.
   */
  public void stopLookingForCommitsByOthers() {
    if (database instanceof Postgresql postgres) {
      postgres.stopListening();
    }
  }

  /**
   * A mark of what the store holds now, for {@link #unchangedSince} to tell later that nothing was
   * written to it in between: taken before a read, it lets a write that would read the same again
   * use what that read found instead (a rewind's plan, made for its dry run and needed again in the
   * transaction that stores it).
   *
   * <p>It counts this process's writes ({@link #write}, {@link #writeInGroup}, {@link
   * #writeDurably}, and the work outside a transaction; not {@link #writeWithoutFolding}'s, which
   * touch only finished turns' line diffs, the contents they are stored as and the hook sightings)
   * and, through SQLite's {@code PRAGMA data_version}, every other connection's commits. Empty
   * where it cannot be told: on PostgreSQL (whose other writers this process does not count), and
   * while a write of this process is in progress (a write that began before the mark may commit
   * after the read began).
   */
  public Optional<ChangeMark> changeMark() {
    if (!(database instanceof Sqlite) || !lock.tryLock()) {
      return Optional.empty();
    }
    try {
      if (lock.getHoldCount() > 1) {
        return Optional.empty();
      }
      return Optional.of(new ChangeMark(writesBegun.get(), dataVersion()));
    } catch (RuntimeException e) {
      throw noted(failures.translate(e));
    } finally {
      lock.unlock();
    }
  }

  /**
   * Whether nothing was written to the store since {@code mark} was taken, but the write this is
   * called in: called inside a write transaction of this thread ({@link #write}, not {@link
   * #writeWithoutFolding} or {@link #writeInGroup}), which holds the store's write lock, so nothing
   * else can be written until it ends.
   */
  public boolean unchangedSince(ChangeMark mark) {
    if (!lock.isHeldByCurrentThread()) {
      throw new IllegalStateException("asked outside a write transaction");
    }
    return writesBegun.get() == mark.writes() + 1 && dataVersion() == mark.othersVersion();
  }

  /** What {@link #changeMark} saw: this process's writes begun, other connections' commits. */
  public record ChangeMark(long writes, long othersVersion) {}

  /**
   * SQLite's {@code PRAGMA data_version} on the write connection, a kept statement: a rewind asks
   * it twice (its mark, then its check), and rendered and run through jOOQ it was 1.3 % of a
   * 57-file rewind's wall time, more than the pragma itself. SQLite compiles a pragma's statement
   * again at each run, so each run reads the version then ({@code ChangeMarkTest} sees another
   * process's commit after the first).
   */
  private long dataVersion() {
    return writer()
        .prepared()
        .get("pragma.data_version", q -> q.resultQuery("PRAGMA data_version"))
        .firstLong()
        .orElseThrow(() -> new StoreException("SQLite told no data_version"));
  }

  private OptionalLong sqliteDataVersion() {
    if (!lock.tryLock()) {
      return OptionalLong.empty();
    }
    try {
      return OptionalLong.of(dataVersion());
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
      writesBegun.incrementAndGet();
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
    return database.bytes(readers);
  }

  /** Pages inside the file that hold nothing, as last committed. */
  public long freePages() {
    try {
      return database.freePages(readers);
    } catch (RuntimeException e) {
      throw noted(failures.translate(e));
    }
  }

  /** The size of a page of the file. */
  public long pageSize() {
    try {
      return database.pageSize(readers);
    } catch (RuntimeException e) {
      throw noted(failures.translate(e));
    }
  }

  @Override
  public void close() {
    lock.lock();
    try {
      // the readers and the database's own connections (a SQLite store's WalCheckpointer) first:
      // the writer stays the last connection to close, the one that moves what is left of the WAL
      // into the database and removes it
      try {
        readers.close();
      } finally {
        database.close();
      }
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
