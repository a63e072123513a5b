package io.turndiff.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jooq.SQLDialect;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What each dialect's {@link Database} sets up on a real database, below the store: the
 * connections' settings, which connections may write, the lock a write transaction takes as it
 * begins, and the file-only matters that PostgreSQL answers without a file.
 */
class DatabaseTest {

  private static final Duration BUSY = Duration.ofMillis(1234);

  @TempDir Path temp;

  private final List<StoreConnection> opened = new ArrayList<>();
  private final List<Database> databases = new ArrayList<>(); // SQLite's: each a checkpointer

  @AfterEach
  void close() {
    // the SQLite databases first, as a store closes them: the checkpointer before the writer
    databases.forEach(Database::close);
    opened.forEach(StoreConnection::close);
  }

  private StoreConnection connect(Database database, boolean forWriting) throws SQLException {
    if (database instanceof Sqlite && !databases.contains(database)) {
      databases.add(database);
    }
    StoreConnection connection = database.connect(forWriting);
    opened.add(connection);
    return connection;
  }

  private Sqlite sqlite(Duration busyTimeout) {
    return new Sqlite(StoreFile.prepare(temp.resolve("turndiff.db")), busyTimeout);
  }

  private static long number(StoreConnection connection, String sql) {
    return ((Number) connection.dsl().fetchValue(sql)).longValue();
  }

  // ---- SQLite

  @Test
  void aSqliteConnectionRunsWithTheStoresPragmas() throws SQLException {
    Sqlite database = sqlite(BUSY);
    for (boolean forWriting : new boolean[] {true, false}) {
      StoreConnection connection = connect(database, forWriting);
      assertInstanceOf(SqliteConnection.class, connection);
      Store.ConnectionSettings settings = database.settings(connection);
      assertEquals("wal", settings.journalMode());
      assertTrue(settings.foreignKeys());
      assertEquals(1234, settings.busyTimeoutMillis());
      assertEquals(1, settings.synchronous(), "NORMAL");
      assertEquals(20_000, number(connection, "PRAGMA wal_autocheckpoint"));
      assertEquals(4 << 20, number(connection, "PRAGMA journal_size_limit"));
    }
    assertEquals(SQLDialect.SQLITE, database.dialect());
    assertEquals(Optional.of(temp.resolve("turndiff.db")), database.localFile());
    assertTrue(database.writable());
  }

  @Test
  void aSqliteReaderCannotWrite() throws SQLException {
    Sqlite database = sqlite(BUSY);
    connect(database, true).dsl().execute("CREATE TABLE t (x INTEGER)");
    StoreConnection reader = connect(database, false);
    assertThrows(
        RuntimeException.class,
        () -> reader.readTransaction(() -> reader.dsl().execute("INSERT INTO t VALUES (1)")));
    assertEquals(0, number(reader, "SELECT count(*) FROM t"));
  }

  @Test
  void aSqliteWriteTransactionTakesTheWriteLockAsItBegins() throws SQLException {
    StoreConnection first = connect(sqlite(BUSY), true);
    StoreConnection second = connect(sqlite(Duration.ZERO), true);
    String refused =
        first.writeTransaction(
            () -> {
              // nothing written yet: BEGIN IMMEDIATE alone holds the lock
              StoreException busy =
                  assertThrows(StoreException.class, () -> second.writeTransaction(() -> 0));
              return busy.getMessage();
            });
    assertTrue(refused.startsWith("cannot begin a transaction"), refused);
    assertEquals(1, second.writeTransaction(() -> 1), "the lock is free once the first commits");
    assertFalse(second.broken(), "a refused BEGIN leaves nothing begun");
  }

  @Test
  void aSqliteInsertRunsNoSecondStatementForItsKey() throws SQLException {
    // the driver's default ran SELECT last_insert_rowid() after every INSERT, prepared anew, so
    // that getGeneratedKeys could answer; the store reads its keys through RETURNING, and the
    // key must not be there to read here (a row with it is the second statement having run)
    StoreConnection writer = connect(sqlite(BUSY), true);
    writer.dsl().execute("CREATE TABLE t (id INTEGER PRIMARY KEY, x INTEGER)");
    try (PreparedStatement insert =
        writer.jdbc().prepareStatement("INSERT INTO t (x) VALUES (7)")) {
      long key =
          writer.writeTransaction(
              () -> {
                try {
                  assertEquals(1, insert.executeUpdate());
                  try (ResultSet keys = insert.getGeneratedKeys()) {
                    assertFalse(keys.next(), "the driver looked up the inserted row's key");
                  }
                  return number(writer, "SELECT max(id) FROM t");
                } catch (SQLException e) {
                  throw new AssertionError(e);
                }
              });
      assertEquals(1, key, "the row is there");
    }
  }

  @Test
  void aSqliteDurableCommitSyncsItsOwnCommitOnly() throws SQLException {
    Sqlite database = sqlite(BUSY);
    StoreConnection writer = connect(database, true);
    // twice: the pragmas are kept statements, and SQLite applies a pragma when it compiles it, so
    // the second run holds only because SQLite compiles a pragma's statement again at each run
    for (int run = 1; run <= 2; run++) {
      long during =
          database.durably(
              writer, () -> writer.writeTransaction(() -> number(writer, "PRAGMA synchronous")));
      assertEquals(2, during, "FULL, run " + run);
      assertEquals(1, number(writer, "PRAGMA synchronous"), "NORMAL again, run " + run);
    }
  }

  // ---- PostgreSQL

  @Test
  void aPostgresqlReaderIsARepeatableReadReadOnlyTransactionAndAWriterReadCommitted()
      throws SQLException {
    Postgresql database = new Postgresql(PostgresServer.emptyDatabase(), BUSY);
    StoreConnection writer = connect(database, true);
    StoreConnection reader = connect(database, false);
    assertInstanceOf(PostgresqlConnection.class, writer);
    assertEquals(Connection.TRANSACTION_READ_COMMITTED, writer.jdbc().getTransactionIsolation());
    assertFalse(writer.jdbc().isReadOnly());
    assertEquals(Connection.TRANSACTION_REPEATABLE_READ, reader.jdbc().getTransactionIsolation());
    assertTrue(reader.jdbc().isReadOnly());
    assertFalse(writer.jdbc().getAutoCommit(), "JDBC ends each transaction");
    String lockTimeout =
        writer.readTransaction(() -> writer.dsl().fetchValue("SHOW lock_timeout").toString());
    assertEquals(
        "1234ms", lockTimeout, "a write waits for a lock as long as SQLite's busy timeout");
    writer.writeTransaction(() -> writer.dsl().execute("CREATE TABLE t (x bigint)"));
    assertThrows(
        RuntimeException.class,
        () -> reader.readTransaction(() -> reader.dsl().execute("INSERT INTO t VALUES (1)")));
  }

  @Test
  void aPostgresqlWriteTransactionHoldsTheAdvisoryLockAndAReadDoesNot() throws SQLException {
    Postgresql database = new Postgresql(PostgresServer.emptyDatabase(), BUSY);
    StoreConnection writer = connect(database, true);
    StoreConnection reader = connect(database, false);
    String held =
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()"
            + " AND ((classid::bigint << 32) | objid::bigint) = ?";
    assertEquals(1L, writer.writeTransaction(() -> locks(writer, held)));
    assertEquals(0L, writer.readTransaction(() -> locks(writer, held)), "released at the end");
    assertEquals(0L, reader.readTransaction(() -> locks(reader, held)));
  }

  private static long locks(StoreConnection connection, String sql) {
    try (PreparedStatement statement = connection.jdbc().prepareStatement(sql)) {
      statement.setLong(1, PostgresDatabase.WRITE_LOCK);
      try (ResultSet row = statement.executeQuery()) {
        row.next();
        return row.getLong(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void postgresqlHasNoFileToCheckCheckpointOrSyncAndNoPragmas() throws SQLException {
    Postgresql database = new Postgresql(PostgresServer.emptyDatabase(), BUSY);
    StoreConnection writer = connect(database, true);
    assertEquals(SQLDialect.POSTGRES, database.dialect());
    assertEquals(Optional.empty(), database.localFile());
    assertTrue(database.writable());
    assertEquals(Database.Checked.NOTHING, database.check(null, Duration.ofSeconds(1)));
    assertEquals(7, database.durably(writer, () -> 7));
    database.checkpoint(writer);
    assertEquals(0, database.freePages(null));
    assertEquals(8192, database.pageSize(null));
    assertThrows(UnsupportedOperationException.class, () -> database.settings(writer));
  }
}
