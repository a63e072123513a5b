package io.turndiff.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.Sha256;
import io.turndiff.store.jooq.DefaultSchema;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.flywaydb.core.Flyway;
import org.jooq.Field;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The store in a real PostgreSQL database (embedded, started by the test): its schema from {@code
 * db/postgresql}, the same store code in the POSTGRES dialect, and the transactions SQLite gives —
 * writes of every store on the database take turns, reads see one snapshot and cannot write.
 */
class PostgresStoreTest {

  private static final long LIVENESS_SECONDS = 60;

  private final List<Store> opened = new ArrayList<>();
  private final ExecutorService threads = Executors.newCachedThreadPool();

  @AfterEach
  void close() {
    threads.shutdownNow();
    opened.forEach(Store::close);
  }

  private Store open(PostgresDatabase database) {
    Store store = Store.open(database);
    opened.add(store);
    return store;
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static long count(PostgresDatabase database, String sql) throws SQLException {
    try (Connection connection = database.connect();
        Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery(sql)) {
      assertTrue(row.next());
      return row.getLong(1);
    }
  }

  @Test
  void anEmptyDatabaseIsMigratedToTheLatestVersionOnceAndOpenedAgainWithoutMigrating()
      throws Exception {
    PostgresDatabase database = PostgresServer.emptyDatabase();
    try (Store store = Store.open(database)) {
      assertEquals(SQLDialect.POSTGRES, store.dialect());
      assertTrue(store.localFile().isEmpty(), "a PostgreSQL store has no file");
      assertEquals(database.display(), store.address().display());
    }
    try (Store again = Store.open(database)) {
      assertTrue(again.read(tx -> tx.workspaces().byRealRoot("/nowhere")).isEmpty());
      assertEquals(
          RetentionPolicy.DEFAULT,
          again.read(tx -> RetentionPolicy.stored(tx.settings(), Duration.ZERO)),
          "a new store is bounded by default, as a SQLite one is (V14)");
      assertFalse(
          (boolean) again.read(tx -> tx.prompts().kept()),
          "a shared store keeps no prompts unless its setting says keep (V17)");
      again.write(
          tx -> {
            tx.prompts().keep(true);
            return null;
          });
      assertTrue((boolean) again.read(tx -> tx.prompts().kept()), "prompts: keep");
    }
    assertEquals(
        23,
        count(database, "SELECT count(*) FROM flyway_schema_history WHERE success"),
        "V9 (the schema at V9), V10, V11, V12, V13, V14, V15, V16, V17, V18, V19, V20, V21, V22, V23,"
            + " V24, V25, V26, V27, V28, V29, V30 and V31, each run once");
    try (Connection connection = database.connect();
        Statement statement = connection.createStatement();
        ResultSet row =
            statement.executeQuery("SELECT max(version::int)::text FROM flyway_schema_history")) {
      assertTrue(row.next());
      assertEquals(Store.LATEST_MIGRATION, row.getString(1));
    }
    assertEquals(
        sqliteColumns(),
        postgresColumns(database),
        "the tables and columns of db/migration's migrations, which the jOOQ classes were made from");
  }

  @Test
  void aVersion9DatabaseWithRowsMigratesItsWorkspacesUnclaimedAndTwoHostsThenShareTheRoot()
      throws Exception {
    PostgresDatabase database = databaseAt("9");
    try (Connection connection = database.connect();
        Statement statement = connection.createStatement()) {
      // ids as the store makes them (an explicit id would not move PostgreSQL's identity on)
      statement.execute(
          "INSERT INTO workspace (root_given, root_real, root_device, root_inode, created_at) "
              + "VALUES ('/w', '/w', 1, 10, 0)");
      statement.execute(
          "INSERT INTO session (external_id, workspace_id, created_at) SELECT 's', id, 0 FROM workspace");
    }
    try (Store b = WorkspaceHostsTest.openAs(database, "host-b");
        Store a = WorkspaceHostsTest.openAs(database, "host-a")) {
      long old = b.read(tx -> tx.sessions().byExternalId("s")).orElseThrow().workspaceId();
      assertEquals(Optional.empty(), b.read(tx -> tx.workspaces().byId(old)).orElseThrow().host());
      assertEquals(old, b.write(tx -> tx.workspaces().register("/w", "/w", 1, 10)).id(), "adopted");
      StoredWorkspace onA = a.write(tx -> tx.workspaces().register("/w", "/w", 2, 20));
      assertEquals(Optional.of(new HostId("host-a")), onA.host());
      assertEquals(
          List.of(old, onA.id()),
          a.read(tx -> tx.workspaces().everyHostAtRealRoot("/w")).stream()
              .map(StoredWorkspace::id)
              .toList(),
          "two rows for one root, one per host");
    }
  }

  @Test
  void aVersion10DatabasesBlobsReadBackAfterTheMigrationAndNewContentIsStoredAsDeltasOfThem()
      throws Exception {
    DeltaBlobsTest.oldBlobsReadBackAndTakeDeltas(databaseAt("10"));
  }

  /** A new database migrated up to {@code version} only, as an older build left it. */
  private static PostgresDatabase databaseAt(String version) {
    PostgresDatabase database = PostgresServer.emptyDatabase();
    Flyway.configure()
        .dataSource(database.url(), database.user().orElse(null), database.password().orElse(null))
        .locations("classpath:" + Postgresql.MIGRATIONS)
        .target(version)
        .load()
        .migrate();
    return database;
  }

  /** Every table of the generated jOOQ schema (read from SQLite), with its columns. */
  private static Map<String, Set<String>> sqliteColumns() {
    Map<String, Set<String>> tables = new TreeMap<>();
    for (Table<?> table : DefaultSchema.DEFAULT_SCHEMA.getTables()) {
      Set<String> columns = new TreeSet<>();
      for (Field<?> field : table.fields()) {
        columns.add(field.getName());
      }
      tables.put(table.getName(), columns);
    }
    return tables;
  }

  private static Map<String, Set<String>> postgresColumns(PostgresDatabase database)
      throws SQLException {
    Map<String, Set<String>> tables = new TreeMap<>();
    try (Connection connection = database.connect();
        Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT table_name, column_name FROM information_schema.columns "
                    + "WHERE table_schema = 'public' AND table_name <> 'flyway_schema_history'")) {
      while (rows.next()) {
        tables.computeIfAbsent(rows.getString(1), name -> new TreeSet<>()).add(rows.getString(2));
      }
    }
    return tables;
  }

  @Test
  void contentIsStoredOnceWhenManyStoresPutTheSameContentAtOnce() throws Exception {
    PostgresDatabase database = PostgresServer.emptyDatabase();
    List<Store> stores = List.of(open(database), open(database), open(database));
    int contents = 40;
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Set<Sha256>>> writers = new ArrayList<>();
    for (Store store : stores) {
      for (int thread = 0; thread < 2; thread++) {
        writers.add(
            threads.submit(
                () -> {
                  start.await();
                  Set<Sha256> put = new HashSet<>();
                  for (int i = 0; i < contents; i++) {
                    int n = i;
                    put.add(store.write(tx -> tx.blobs().put(bytes("content " + n))));
                  }
                  return put;
                }));
      }
    }
    start.countDown();
    Set<Sha256> all = new HashSet<>();
    for (Future<Set<Sha256>> writer : writers) {
      all.addAll(writer.get(LIVENESS_SECONDS, TimeUnit.SECONDS));
    }
    assertEquals(contents, all.size());
    assertEquals(contents, count(database, "SELECT count(*) FROM blob"), "one row per content");
    for (Sha256 sha : all) {
      assertTrue(stores.getLast().read(tx -> tx.blobs().get(sha)).isPresent());
    }
  }

  @Test
  void aWriteWaitsForAnotherWritersLockAndGivesUpAfterTheBusyTimeoutLeavingTheStoreUsable()
      throws Exception {
    PostgresDatabase database = PostgresServer.emptyDatabase();
    open(database).close();
    Store store = Store.open(database, InstantSource.system(), Duration.ofMillis(300));
    opened.add(store);
    store.write(tx -> tx.blobs().put(bytes("before")));
    try (Connection other = database.connect();
        PreparedStatement lock = other.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
      other.setAutoCommit(false);
      lock.setLong(1, PostgresDatabase.WRITE_LOCK);
      lock.executeQuery().close();
      StoreException busy =
          assertThrows(
              StoreException.class, () -> store.write(tx -> tx.blobs().put(bytes("while locked"))));
      assertEquals(StoreException.Problem.BUSY, busy.problem(), busy.getMessage());
      assertTrue(busy.getMessage().contains(database.display()), busy.getMessage());
      assertTrue(holds(store, Sha256.of(bytes("before"))), "a read does not wait for the writer");
      other.rollback();
    }
    Sha256 after = store.write(tx -> tx.blobs().put(bytes("after")));
    assertTrue(holds(store, after));
    assertFalse(holds(store, Sha256.of(bytes("while locked"))));
  }

  @Test
  void aWriteThatWaitedForAnotherWriterSeesWhatThatWriterCommitted() throws Exception {
    PostgresDatabase database = PostgresServer.emptyDatabase();
    Store first = open(database);
    Store second = open(database);
    CountDownLatch firstWrote = new CountDownLatch(1);
    CountDownLatch letFirstCommit = new CountDownLatch(1);
    Sha256 content = Sha256.of(bytes("written first"));
    Future<Sha256> firstWrite =
        threads.submit(
            () ->
                first.write(
                    tx -> {
                      Sha256 sha = tx.blobs().put(bytes("written first"));
                      firstWrote.countDown();
                      await(letFirstCommit);
                      return sha;
                    }));
    assertTrue(firstWrote.await(LIVENESS_SECONDS, TimeUnit.SECONDS));
    Future<Boolean> secondSees =
        threads.submit(() -> second.write(tx -> tx.blobs().contains(content)));
    // the second write's transaction has begun and waits for the lock (a request not granted)
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(LIVENESS_SECONDS);
    while (count(
            database, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
        == 0) {
      assertTrue(System.nanoTime() < deadline, "the second write waits for the lock");
      Thread.sleep(5);
    }
    letFirstCommit.countDown();
    assertEquals(content, firstWrite.get(LIVENESS_SECONDS, TimeUnit.SECONDS));
    assertTrue(
        secondSees.get(LIVENESS_SECONDS, TimeUnit.SECONDS),
        "a write sees every write committed before it took the lock");
  }

  @Test
  void aReadSeesOneSnapshotWhileAnotherStoreCommitsAndCannotWrite() throws Exception {
    PostgresDatabase database = PostgresServer.emptyDatabase();
    Store reader = open(database);
    Store writer = open(database);
    CountDownLatch readBegun = new CountDownLatch(1);
    CountDownLatch written = new CountDownLatch(1);
    Future<List<Boolean>> read =
        threads.submit(
            () ->
                reader.read(
                    tx -> {
                      boolean first = tx.blobs().contains(Sha256.of(bytes("late")));
                      readBegun.countDown();
                      await(written);
                      return List.of(first, tx.blobs().contains(Sha256.of(bytes("late"))));
                    }));
    assertTrue(readBegun.await(LIVENESS_SECONDS, TimeUnit.SECONDS));
    writer.write(tx -> tx.blobs().put(bytes("late")));
    written.countDown();
    assertEquals(
        List.of(false, false),
        read.get(LIVENESS_SECONDS, TimeUnit.SECONDS),
        "the read's snapshot is fixed at its first statement");
    assertTrue(holds(reader, Sha256.of(bytes("late"))));

    assertThrows(
        RuntimeException.class,
        () -> reader.read(tx -> tx.workspaces().register("/w", "/w", 1, 2)));
    assertTrue(reader.read(tx -> tx.workspaces().byRealRoot("/w")).isEmpty());
    assertThrows(
        IllegalStateException.class,
        () ->
            writer.write(
                tx -> {
                  tx.workspaces().register("/x", "/x", 1, 2);
                  throw new IllegalStateException("boom");
                }));
    assertTrue(writer.read(tx -> tx.workspaces().byRealRoot("/x")).isEmpty(), "rolled back");
    writer.write(tx -> tx.workspaces().register("/y", "/y", 1, 2));
    assertTrue(reader.read(tx -> tx.workspaces().byRealRoot("/y")).isPresent());
  }

  private static boolean holds(Store store, Sha256 sha) {
    return store.read(tx -> tx.blobs().contains(sha));
  }

  private static void await(CountDownLatch latch) {
    try {
      assertTrue(latch.await(LIVENESS_SECONDS, TimeUnit.SECONDS));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Test
  void aServerThatDoesNotAnswerIsAClearErrorNamingTheStore() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    PostgresDatabase nowhere =
        PostgresDatabase.of(
            "jdbc:postgresql://localhost:" + port + "/turndiff?connectTimeout=5",
            PostgresDatabase.Source.COMMAND_LINE,
            Optional.empty(),
            Map.of());
    StoreException e = assertThrows(StoreException.class, () -> Store.open(nowhere));
    assertTrue(
        e.getMessage().startsWith("cannot reach the store jdbc:postgresql://localhost:" + port),
        e.getMessage());
  }

  /**
   * PostgreSQL's counterpart of SQLite's {@code data_version}: a store sees another store's commit
   * (another process, as far as either knows) through {@code LISTEN}/{@code NOTIFY}, and neither
   * its own commits nor the other's transactions that wrote nothing or were rolled back. Notices
   * arrive in commit order, so the one change counted is the other's real commit, sent last.
   */
  @Test
  void anotherStoresCommitIsSeenAndNoOwnNorEmptyNorRolledBackOne() throws Exception {
    PostgresDatabase database = PostgresServer.emptyDatabase();
    Store watching = open(database);
    Store other = open(database);
    long baseline = watching.commitsByOthers().orElseThrow();

    watching.write(
        tx -> {
          tx.prompts().keep(true);
          return null;
        });
    other.write(tx -> tx.prompts().kept());
    assertThrows(
        IllegalStateException.class,
        () ->
            other.write(
                tx -> {
                  tx.prompts().keep(false);
                  throw new IllegalStateException("rolled back");
                }));
    other.write(
        tx -> {
          tx.prompts().keep(false);
          return null;
        });

    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(LIVENESS_SECONDS);
    long seen = baseline;
    while (seen == baseline && System.nanoTime() < deadline) {
      Thread.sleep(20);
      seen = watching.commitsByOthers().orElseThrow();
    }
    assertEquals(baseline + 1, seen, "the other's one commit that wrote, no other");
    assertFalse(
        (boolean) watching.read(tx -> tx.prompts().kept()), "the commit seen is the other's last");
  }

  /**
   * Nobody asking, nobody listening: a listener that reads nothing would make the server keep every
   * notice for it. Asked again, the store listens again, from a new starting number.
   */
  @Test
  void aStoreThatStopsLookingClosesItsListenerAndListensAgainWhenAsked() throws Exception {
    PostgresDatabase database = PostgresServer.emptyDatabase();
    Store watching = open(database);
    Store other = open(database);
    String listeners =
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            + " AND query = 'LISTEN "
            + PostgresCommitNotices.CHANNEL
            + "'";
    watching.commitsByOthers().orElseThrow();
    assertEquals(1, count(database, listeners), "one listening connection");

    watching.stopLookingForCommitsByOthers();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(LIVENESS_SECONDS);
    while (count(database, listeners) != 0 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertEquals(0, count(database, listeners), "its connection closed");

    long again = watching.commitsByOthers().orElseThrow();
    assertEquals(1, count(database, listeners));
    other.write(
        tx -> {
          tx.prompts().keep(true);
          return null;
        });
    long seen = again;
    while (seen == again && System.nanoTime() < deadline) {
      Thread.sleep(20);
      seen = watching.commitsByOthers().orElseThrow();
    }
    assertEquals(again + 1, seen, "the other's commit after it listened again");
  }
}
