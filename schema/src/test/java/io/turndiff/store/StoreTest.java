package io.turndiff.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.BoundaryKind;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.FileMetadata;
import io.turndiff.model.FileType;
import io.turndiff.model.LinkTarget;
import io.turndiff.model.NotCaptured;
import io.turndiff.model.Reason;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.TurnKind;
import io.turndiff.model.WorkspacePath;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

class StoreTest {

  @TempDir Path temp;

  @Test
  void openingCreatesTheFileAndItsFolderPrivately() throws Exception {
    Path file = temp.resolve("data/turndiff/turndiff.db");
    try (Store store = Store.open(file)) {
      store.write(tx -> tx.blobs().put("x".getBytes(StandardCharsets.UTF_8)));
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
      assertEquals(
          "rwx------",
          PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())));
      for (String suffix : new String[] {"-wal", "-shm"}) {
        Path sibling = file.resolveSibling("turndiff.db" + suffix);
        assertTrue(Files.exists(sibling), suffix + " exists while the store is open");
        assertEquals(
            "rw-------",
            PosixFilePermissions.toString(Files.getPosixFilePermissions(sibling)),
            suffix + " is private too");
      }
    }
  }

  @Test
  void openingRunsTheMigrations() throws Exception {
    Path file = temp.resolve("turndiff.db");
    Store.open(file).close();
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
        ResultSet rows =
            connection
                .createStatement()
                .executeQuery(
                    "SELECT version, success FROM flyway_schema_history WHERE version IS NOT NULL ORDER BY installed_rank")) {
      assertTrue(rows.next());
      assertEquals("1", rows.getString(1));
      assertTrue(rows.getBoolean(2));
    }
  }

  @Test
  void theLatestMigrationConstantNamesTheNewestMigrationFile() throws Exception {
    // SQLite's migrations, and PostgreSQL's (db/postgresql: the same versions from V9 on)
    for (String location : List.of("db/migration", Postgresql.MIGRATIONS)) {
      URL folder = Store.class.getResource("/" + location);
      int newest;
      try (var files = Files.list(Path.of(folder.toURI()))) {
        newest =
            files
                .map(file -> file.getFileName().toString())
                .filter(name -> name.matches("V\\d+__.*\\.sql"))
                .mapToInt(name -> Integer.parseInt(name.substring(1, name.indexOf("__"))))
                .max()
                .orElseThrow();
      }
      assertEquals(
          String.valueOf(newest),
          Store.LATEST_MIGRATION,
          location + ": a store at an older version would skip the newer migrations");
    }
  }

  /**
   * A store file in {@code folder} migrated up to {@code version} only, as an older build left it.
   */
  private Path storeAtMigration(String folder, String version) throws Exception {
    Path database = temp.resolve(folder).resolve("turndiff.db");
    Files.createDirectories(database.getParent());
    SQLiteDataSource dataSource = new SQLiteDataSource();
    dataSource.setUrl("jdbc:sqlite:" + database);
    Flyway.configure()
        .dataSource(dataSource)
        .locations("classpath:db/migration")
        .target(version)
        .load()
        .migrate();
    return database;
  }

  @Test
  void aStoreAtAnOlderMigrationIsMigratedWhenOpened() throws Exception {
    Path database = storeAtMigration("old", "1");
    Store.open(database).close();
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database);
        ResultSet rows =
            connection
                .createStatement()
                .executeQuery(
                    "SELECT max(CAST(version AS INTEGER)) FROM flyway_schema_history WHERE success = 1")) {
      assertTrue(rows.next());
      assertEquals(Store.LATEST_MIGRATION, rows.getString(1));
    }
  }

  /**
   * A store already at this build's newest migration is opened without Flyway (scanning the jar and
   * validating every migration costs a one-shot command a quarter of a second): a history that
   * Flyway's validation would refuse (an applied migration's checksum changed) still opens, and the
   * history is left as it was.
   */
  @Test
  void aStoreAtTheLatestMigrationIsOpenedWithoutFlyway() throws Exception {
    Path database = storeAtMigration("latest", Store.LATEST_MIGRATION);
    String tampered = "UPDATE flyway_schema_history SET checksum = 1 WHERE version = '1'";
    String applied = "SELECT count(*) FROM flyway_schema_history WHERE version IS NOT NULL";
    int rowsBefore;
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database)) {
      assertEquals(1, connection.createStatement().executeUpdate(tampered));
      ResultSet count = connection.createStatement().executeQuery(applied);
      assertTrue(count.next());
      rowsBefore = count.getInt(1);
    }
    try (Store store = Store.open(database)) {
      store.write(tx -> tx.blobs().put("x".getBytes(StandardCharsets.UTF_8)));
    }
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database);
        ResultSet rows =
            connection
                .createStatement()
                .executeQuery(
                    "SELECT count(*), sum(checksum = 1) FROM flyway_schema_history WHERE version IS NOT NULL")) {
      assertTrue(rows.next());
      // not LATEST_MIGRATION itself: a version number may be unused (a gap while branches merge)
      assertEquals(rowsBefore, rows.getInt(1), "no row added");
      assertEquals(1, rows.getInt(2), "the history was not repaired or rewritten");
    }
  }

  @Test
  void aVersion10StoresBlobsReadBackAfterTheMigrationAndNewContentIsStoredAsDeltasOfThem()
      throws Exception {
    DeltaBlobsTest.oldBlobsReadBackAndTakeDeltas(
        new StoreAddress.SqliteFile(storeAtMigration("v10", "10")));
  }

  @Test
  void aVersion12StoreKeepsItsChangesAndAcceptsTheDirectoryKinds() throws Exception {
    Path database = storeAtMigration("v12", "12");
    String change =
        "INSERT INTO file_change (id, turn_id, path, detected_by, before_snapshot_id,"
            + " after_snapshot_id, change) VALUES (%d, 1, x'%02x', 'snapshot', 1, 1, '%s')";
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database)) {
      var statement = connection.createStatement();
      statement.execute("INSERT INTO workspace VALUES (1, '/w', '/w', 1, 1, 0, NULL)");
      statement.execute("INSERT INTO session VALUES (1, 's', 1, 0)");
      statement.execute("INSERT INTO turn VALUES (1, 't', 1, 1, 'agent', 'finished', 0, 0)");
      statement.execute(
          "INSERT INTO snapshot (id, path, boundary, present, captured, taken_at)"
              + " VALUES (1, x'61', 'openat2', 0, 1, 0)");
      statement.execute(change.formatted(1, 0x61, "type_changed"));
      assertThrows(
          SQLException.class,
          () -> statement.execute(change.formatted(2, 0x62, "directory_created")),
          "before V13 the CHECK refuses it");
    }
    Store.open(database).close();
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database)) {
      var statement = connection.createStatement();
      statement.execute(change.formatted(2, 0x62, "directory_created"));
      statement.execute(change.formatted(3, 0x63, "directory_removed"));
      assertThrows(
          SQLException.class,
          () -> statement.execute(change.formatted(4, 0x64, "directory_moved")),
          "the CHECK still holds for anything else");
      ResultSet rows =
          statement.executeQuery(
              "SELECT group_concat(change, ',') FROM (SELECT change FROM file_change ORDER BY id)");
      assertTrue(rows.next());
      assertEquals(
          "type_changed,directory_created,directory_removed", rows.getString(1), "every row kept");
    }
  }

  /** The retention policy {@code database} keeps, as {@code turndiff config} reads it. */
  private static RetentionPolicy keptPolicy(Path database) {
    try (Store store = Store.open(database)) {
      return store.read(tx -> RetentionPolicy.stored(tx.settings(), Duration.ZERO));
    }
  }

  @Test
  void aNewStoreKeepsTheDefaultRetentionPolicy() {
    assertEquals(RetentionPolicy.DEFAULT, keptPolicy(temp.resolve("new/turndiff.db")));
  }

  /**
   * A local store keeps prompts (V17) unless its setting says {@code none}; a prompt is cut to
   * {@link Prompts#MAX_CHARS}, the first recorded for a turn stays its, and a removed turn's goes
   * with it.
   */
  @Test
  void aLocalStoreKeepsPromptsUnlessToldNotToCutToTheirBound() {
    try (Store store = Store.open(temp.resolve("prompts/turndiff.db"))) {
      assertTrue((boolean) store.read(tx -> tx.prompts().kept()), "a local store keeps prompts");
      String longPrompt = "fix the build\n" + "x".repeat(Prompts.MAX_CHARS);
      store.write(
          tx -> {
            long workspace = tx.workspaces().register("/w", "/w", 1, 2).id();
            long turn =
                tx.turns().begin("t1", tx.sessions().create("s", workspace), TurnKind.AGENT).id();
            tx.prompts().record(turn, longPrompt);
            tx.prompts().record(turn, "a repeated hook's prompt");
            return null;
          });
      String kept =
          store.read(
              tx ->
                  tx.prompts().of(tx.turns().byExternalId("t1").orElseThrow().id()).orElseThrow());
      assertEquals(Prompts.MAX_CHARS, kept.length());
      assertTrue(kept.startsWith("fix the build\nxxx") && kept.endsWith("\u2026"), kept);
      store.write(
          tx -> {
            tx.prompts().keep(false);
            return null;
          });
      assertFalse((boolean) store.read(tx -> tx.prompts().kept()), "prompts: none keeps none");
    }
  }

  /**
   * V14 gives the default to a store that has recorded nothing; a store upgraded with turns keeps
   * what its user chose (before V14 nothing was removed unless they set a policy), and so does an
   * empty store whose user set a policy of their own.
   */
  @Test
  void anUpgradedStoreWithTurnsKeepsNoPolicyAndAnEmptyOneGetsTheDefault() throws Exception {
    Path withTurns = storeAtMigration("v13-turns", "13");
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + withTurns)) {
      var statement = connection.createStatement();
      statement.execute("INSERT INTO workspace VALUES (1, '/w', '/w', 1, 1, 0, NULL)");
      statement.execute("INSERT INTO session VALUES (1, 's', 1, 0)");
      statement.execute("INSERT INTO turn VALUES (1, 't', 1, 1, 'agent', 'finished', 0, 0)");
    }
    assertFalse(keptPolicy(withTurns).any(), "nothing is removed that was not before");

    assertEquals(RetentionPolicy.DEFAULT, keptPolicy(storeAtMigration("v13-empty", "13")));

    Path chosen = storeAtMigration("v13-chosen", "13");
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + chosen)) {
      connection
          .createStatement()
          .execute("INSERT INTO store_setting VALUES ('gc.keep_turns', '3')");
    }
    RetentionPolicy kept = keptPolicy(chosen);
    assertEquals(3, kept.keepTurns().getAsInt());
    assertTrue(kept.olderThan().isEmpty() && kept.maxSize().isEmpty(), kept.toString());
  }

  @Test
  void aVersion6StoreKeepsItsSnapshotsAndAcceptsTheOpenatBoundary() throws Exception {
    Path database = storeAtMigration("v6", "6");
    String insert =
        "INSERT INTO snapshot (id, path, boundary, present, file_type, size, mtime_ns, mode, inode, "
            + "nlink, captured, reason, taken_at) VALUES (%d, x'61', '%s', 1, 'regular', 2, 5, 420, 7, 1, 0, "
            + "'too_large', 0)";
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database)) {
      var statement = connection.createStatement();
      statement.execute(insert.formatted(1, "openat2"));
      statement.execute(insert.formatted(2, "secure_directory_stream"));
      assertThrows(
          SQLException.class,
          () -> statement.execute(insert.formatted(3, "openat")),
          "before V7 the CHECK refuses it");
    }
    Store.open(database).close();
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database)) {
      var statement = connection.createStatement();
      statement.execute(insert.formatted(3, "openat"));
      assertThrows(
          SQLException.class,
          () -> statement.execute(insert.formatted(4, "open")),
          "the CHECK still holds for anything else");
      ResultSet rows =
          statement.executeQuery(
              "SELECT group_concat(boundary, ',') FROM (SELECT boundary FROM "
                  + "snapshot ORDER BY id)");
      assertTrue(rows.next());
      assertEquals("openat2,secure_directory_stream,openat", rows.getString(1), "every row kept");
    }
  }

  @Test
  void aVersion3StoreKeepsItsRowsWhenItsTablesAreRebuiltAndTheirNewValuesAreAccepted()
      throws Exception {
    Path database = storeAtMigration("v3", "3");
    // the real hash of "hi": a content is read back only as the bytes of its hash
    String sha = Sha256.of("hi".getBytes(StandardCharsets.UTF_8)).hex();
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database)) {
      var statement = connection.createStatement();
      statement.execute("PRAGMA foreign_keys = ON");
      statement.execute("INSERT INTO workspace VALUES (1, '/w', '/w', 1, 1, 0)");
      statement.execute("INSERT INTO session VALUES (1, 's', 1, 0)");
      statement.execute("INSERT INTO turn VALUES (1, 't', 1, 1, 'agent', 'finished', 0, 0)");
      statement.execute("INSERT INTO tool_call VALUES (1, 1, 'c', 0)");
      statement.execute("INSERT INTO blob VALUES ('" + sha + "', 2, 'raw', x'6869', 0)");
      statement.execute(
          "INSERT INTO snapshot (id, path, boundary, present, file_type, size, mtime_ns, mode, inode, "
              + "nlink, sha256, content_sha256, captured, taken_at) VALUES (1, x'61', 'openat2', 1, 'regular', 2, 5, 420, "
              + "7, 1, '"
              + sha
              + "', '"
              + sha
              + "', 1, 0)");
      statement.execute(
          "INSERT INTO file_change VALUES (1, 1, x'61', NULL, 'snapshot', 1, 1, 'unchanged', 0, 0, "
              + "NULL)");
      statement.execute("INSERT INTO file_change_tool_call VALUES (1, 1)");
      // an escape recorded before V4: compared by fingerprint, it said 'unchanged'
      statement.execute(
          "INSERT INTO snapshot (id, path, boundary, present, file_type, size, mtime_ns, mode, inode, "
              + "nlink, captured, reason, taken_at) VALUES (2, x'62', 'openat2', 1, 'symlink', 9, 5, 511, 8, 1, 0, "
              + "'escapes_workspace', 0)");
      statement.execute(
          "INSERT INTO file_change VALUES (2, 1, x'62', NULL, 'snapshot', 2, 2, 'unchanged', 0, 0, "
              + "NULL)");
    }
    try (Store store = Store.open(database)) {
      byte[] kept = store.read(tx -> tx.blobs().require(new Sha256(sha)));
      assertEquals("hi", new String(kept, StandardCharsets.UTF_8));
      List<StoredFileChange> changes = store.read(tx -> tx.fileChanges().ofTurn(1));
      assertEquals(List.of("c"), changes.getFirst().toolCalls());
      assertEquals(
          List.of(ChangeKind.UNCHANGED, ChangeKind.UNKNOWN),
          changes.stream().map(change -> change.change().orElseThrow()).toList(),
          "a change between captured states keeps its kind; one with an uncaptured side is unknown now");
    }
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database)) {
      var statement = connection.createStatement();
      statement.execute("PRAGMA foreign_keys = ON");
      assertFalse(
          statement.executeQuery("PRAGMA foreign_key_check").next(), "every reference still holds");
      statement.execute("UPDATE file_change SET change = 'unknown' WHERE id = 1");
      statement.execute(
          "INSERT INTO blob (sha256, size, encoding, data, stored_at) VALUES ('"
              + "b".repeat(64)
              + "', 5, 'chunked', x'', 0)");
      assertThrows(
          SQLException.class,
          () -> statement.execute("INSERT INTO file_change_tool_call VALUES (1, 99)"),
          "foreign keys are on again");
    }
  }

  @Test
  void aVersion3StoreOpenedByManyAtOnceIsMigratedOnceAndEveryOpenSucceeds() throws Exception {
    for (int round = 0; round < 5; round++) {
      Path database = storeAtMigration("concurrent" + round, "3");
      int threads = 6;
      CyclicBarrier start = new CyclicBarrier(threads);
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      try {
        List<Future<String>> opened = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
          opened.add(
              pool.submit(
                  () -> {
                    start.await();
                    try (Store store = Store.open(database)) {
                      return store.settings().journalMode();
                    }
                  }));
        }
        for (Future<String> each : opened) {
          assertEquals("wal", each.get(2, TimeUnit.MINUTES));
        }
      } finally {
        pool.shutdownNow();
      }
    }
  }

  @Test
  void contentStoredInChunksIsReadBackAsAStreamAndNeverWhole() throws Exception {
    try (Store store = Store.open(temp.resolve("turndiff.db"))) {
      byte[] content = new byte[3_000_000];
      new Random(5).nextBytes(content);
      Sha256 sha = Sha256.of(content);
      long upload = store.write(tx -> tx.blobs().beginChunks());
      for (int seq = 0, offset = 0; offset < content.length; seq++, offset += 1 << 20) {
        byte[] chunk =
            Arrays.copyOfRange(content, offset, Math.min(content.length, offset + (1 << 20)));
        int number = seq;
        store.write(
            tx -> {
              tx.blobs().putChunk(upload, number, BlobEncoder.encodeChunk(chunk));
              return null;
            });
      }
      store.write(tx -> tx.blobs().completeChunks(upload, sha, content.length));
      try (InputStream in = store.openContent(sha)) {
        assertArrayEquals(content, in.readAllBytes());
      }
      assertEquals(Optional.empty(), store.read(tx -> tx.blobs().requireInOnePiece(sha)));
      assertThrows(
          StoreException.class, () -> store.read(tx -> tx.blobs().get(sha)), "never loaded whole");
      long again = store.write(tx -> tx.blobs().beginChunks());
      store.write(
          tx -> {
            tx.blobs().putChunk(again, 0, BlobEncoder.encodeChunk(content));
            return tx.blobs().completeChunks(again, sha, content.length);
          });
      assertEquals(
          3,
          store.read(tx -> tx.blobs().chunked(sha)).orElseThrow().chunks(),
          "content stored already is kept once; the second upload's chunks are dropped");
    }
  }

  @Test
  void everyConnectionHasWalForeignKeysBusyTimeoutAndNormalSync() {
    try (Store store = Store.open(temp.resolve("turndiff.db"))) {
      Store.ConnectionSettings settings = store.settings();
      assertEquals("wal", settings.journalMode());
      assertTrue(settings.foreignKeys());
      assertEquals(30_000, settings.busyTimeoutMillis());
      assertEquals(1, settings.synchronous(), "NORMAL");
    }
  }

  @Test
  void aDurableWriteSyncsItsOwnCommitOnlyAndLeavesTheConnectionAtNormal() {
    byte[] content = "journaled before the workspace changes".getBytes(StandardCharsets.UTF_8);
    try (Store store = Store.open(temp.resolve("turndiff.db"))) {
      int during =
          store.writeDurably(
              tx -> {
                tx.blobs().put(content);
                return store.settings().synchronous();
              });
      assertEquals(2, during, "FULL while it commits: the commit syncs the WAL");
      assertEquals(1, store.settings().synchronous(), "NORMAL again for every other commit");
      boolean stored = store.read(tx -> tx.blobs().contains(Sha256.of(content)));
      assertTrue(stored);

      assertThrows(
          IllegalStateException.class,
          () ->
              store.writeDurably(
                  tx -> {
                    tx.blobs().put("rolled back".getBytes(StandardCharsets.UTF_8));
                    throw new IllegalStateException("the work failed");
                  }));
      assertEquals(1, store.settings().synchronous(), "NORMAL again after a failed one too");
      boolean rolledBack =
          store.read(
              tx -> tx.blobs().contains(Sha256.of("rolled back".getBytes(StandardCharsets.UTF_8))));
      assertFalse(rolledBack, "a failed durable write leaves nothing");
    }
  }

  @Test
  void foreignKeysAreEnforced() {
    try (Store store = Store.open(temp.resolve("turndiff.db"))) {
      assertThrows(RuntimeException.class, () -> store.write(tx -> tx.sessions().create("s", 999)));
    }
  }

  @Test
  void blobIsStoredOnceAndReadBackAfterReopening() {
    Path file = temp.resolve("turndiff.db");
    byte[] content = "some source text\n".repeat(100).getBytes(StandardCharsets.UTF_8);
    Sha256 sha;
    try (Store store = Store.open(file)) {
      sha = store.write(tx -> tx.blobs().put(content));
      assertEquals(sha, store.write(tx -> tx.blobs().put(content)));
    }
    try (Store store = Store.open(file)) {
      assertArrayEquals(content, store.read(tx -> tx.blobs().require(sha)));
      int[] count = {0};
      store.read(
          tx -> {
            tx.blobs().forEach((hash, bytes) -> count[0]++);
            return null;
          });
      assertEquals(1, count[0]);
    }
  }

  @Test
  void aFailedWriteLeavesNothingBehind() {
    Path file = temp.resolve("turndiff.db");
    try (Store store = Store.open(file)) {
      assertThrows(
          IllegalStateException.class,
          () ->
              store.write(
                  tx -> {
                    tx.blobs().put("partial".getBytes(StandardCharsets.UTF_8));
                    throw new IllegalStateException("boom");
                  }));
      assertEquals(
          Optional.empty(),
          store.read(tx -> tx.blobs().get(Sha256.of("partial".getBytes(StandardCharsets.UTF_8)))));
    }
  }

  @Test
  void defaultLocationFollowsTheFlagThenTheEnvironmentThenXdg() {
    Path home = Path.of("/home/u");
    assertEquals(
        Path.of("/x/given.db"),
        StoreLocation.resolve(
            Optional.of(Path.of("/x/given.db")), Map.of("TURNDIFF_DB", "/y/env.db"), home));
    assertEquals(
        Path.of("/y/env.db"),
        StoreLocation.resolve(Optional.empty(), Map.of("TURNDIFF_DB", "/y/env.db"), home));
    assertEquals(
        Path.of("/xdg/turndiff/turndiff.db"),
        StoreLocation.resolve(Optional.empty(), Map.of("XDG_DATA_HOME", "/xdg"), home));
    assertEquals(
        Path.of("/home/u/.local/share/turndiff/turndiff.db"),
        StoreLocation.resolve(Optional.empty(), Map.of(), home));
    assertEquals(
        Path.of("/home/u/.local/share/turndiff/turndiff.db"),
        StoreLocation.resolve(
            Optional.empty(), Map.of("XDG_DATA_HOME", "relative/not/allowed"), home),
        "XDG requires an absolute path");
  }

  @Test
  void theHomeOfTheDefaultStoreIsHomeAsTheHookScriptReadsIt() {
    // the JVM's user.home is the password database's, whatever $HOME says; the hook script, the
    // service's files and the runtimes use $HOME
    Path elsewhere = Path.of("/elsewhere/u");
    assertEquals(
        new StoreAddress.SqliteFile(elsewhere.resolve(".local/share/turndiff/turndiff.db")),
        StoreLocation.address(
            Optional.empty(), Optional.empty(), Map.of("HOME", elsewhere.toString())));
    assertEquals(
        elsewhere.resolve(".local/share/turndiff/turndiff.db"),
        StoreLocation.defaultFile(Map.of("HOME", elsewhere.toString())));
    assertEquals(
        Path.of(System.getProperty("user.home")),
        StoreLocation.home(Map.of("HOME", "not/absolute")));
  }

  @Test
  void aDirectoryInThePlaceOfTheStoreIsAClearError() throws Exception {
    Path file = temp.resolve("turndiff.db");
    Files.createDirectories(file);
    StoreException e = assertThrows(StoreException.class, () -> Store.open(file));
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
  }

  private static final Instant TAKEN_AT = Instant.ofEpochMilli(1_700_000_000_123L);

  private static FileMetadata stat(FileType type, long size, int mode) {
    return new FileMetadata(type, size, 1_700_000_000_123_456_789L, mode, 4242, 1);
  }

  /** One state of every kind (and each way of being metadata only), as the boundary builds them. */
  private static List<Snapshot> oneOfEachKind(Sha256 stored) {
    WorkspacePath path = WorkspacePath.of("src/a.txt");
    BoundaryKind boundary = BoundaryKind.OPENAT2;
    return List.of(
        Snapshot.absent(path, boundary, TAKEN_AT),
        Snapshot.regularFile(path, boundary, stat(FileType.REGULAR, 6, 0644), stored, TAKEN_AT),
        Snapshot.symlink(
            path, boundary, stat(FileType.SYMLINK, 4, 0777), LinkTarget.of("b.md"), TAKEN_AT),
        Snapshot.notCaptured(
            path,
            boundary,
            stat(FileType.DIRECTORY, 4096, 0750),
            new NotCaptured(Reason.DIRECTORY, "a directory"),
            TAKEN_AT),
        Snapshot.unknown(
            path, boundary, new NotCaptured(Reason.UNREADABLE, "Permission denied"), TAKEN_AT),
        Snapshot.MetadataOnly.of(
                path,
                boundary,
                stat(FileType.REGULAR, 9, 0600),
                new NotCaptured(Reason.TOO_LARGE, "9 bytes is over the size limit of 8"),
                TAKEN_AT)
            .withContentHash(Sha256.of("too large".getBytes(StandardCharsets.UTF_8))),
        Snapshot.sampled(
            path,
            boundary,
            stat(FileType.REGULAR, 1 << 30, 0644),
            Sha256.of("sampled".getBytes(StandardCharsets.UTF_8)),
            "sampled",
            TAKEN_AT),
        Snapshot.MetadataOnly.of(
                path,
                boundary,
                stat(FileType.SYMLINK, 9, 0777),
                new NotCaptured(Reason.ESCAPES_WORKSPACE, ""),
                TAKEN_AT)
            .withLinkTarget(LinkTarget.of("../../etc")),
        Snapshot.knownAbsent(
            WorkspacePath.outside("/etc/passwd".getBytes(StandardCharsets.UTF_8)),
            boundary,
            new NotCaptured(Reason.OUTSIDE_WORKSPACE, "outside the workspace root /w"),
            TAKEN_AT));
  }

  @Test
  void aSnapshotOfEveryKindIsReadBackAsThatKindAfterReopening() {
    Path file = temp.resolve("turndiff.db");
    List<Snapshot> written;
    List<Long> ids = new ArrayList<>();
    try (Store store = Store.open(file)) {
      written =
          oneOfEachKind(
              store.write(tx -> tx.blobs().put("hello\n".getBytes(StandardCharsets.UTF_8))));
      for (Snapshot snapshot : written) {
        ids.add(store.write(tx -> tx.snapshots().insert(snapshot)));
      }
    }
    try (Store store = Store.open(file)) {
      for (int i = 0; i < written.size(); i++) {
        long id = ids.get(i);
        Snapshot read = store.read(tx -> tx.snapshots().byId(id));
        assertEquals(written.get(i), read, "snapshot " + id);
        assertEquals(written.get(i).getClass(), read.getClass());
        assertEquals(written.get(i).fingerprint(), read.fingerprint());
      }
    }
  }

  /**
   * Writes one snapshot row with plain SQL, as only a damaged or hand-edited store could hold it.
   */
  private static long rawSnapshotRow(Path file, String columns, String values) throws Exception {
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement statement = connection.createStatement()) {
      statement.executeUpdate(
          "INSERT INTO snapshot (path, boundary, taken_at, "
              + columns
              + ") VALUES (x'612e747874', "
              + "'openat2', 0, "
              + values
              + ")");
      try (ResultSet key = statement.executeQuery("SELECT last_insert_rowid()")) {
        assertTrue(key.next());
        return key.getLong(1);
      }
    }
  }

  @Test
  void aSnapshotRowThatIsNoKindIsRefusedNamingIt() throws Exception {
    Path file = temp.resolve("turndiff.db");
    Store.open(file).close();
    String stat = "'regular', 3, 1000, 420, 7, 1";
    Map<Long, String> impossible =
        Map.of(
            rawSnapshotRow(
                file,
                "present, file_type, size, mtime_ns, mode, inode, nlink, captured",
                "1, " + stat + ", 1"),
            "it has no reason, yet it is not a known absence, a regular file with stored content or a symlink's text",
            rawSnapshotRow(file, "present, captured, reason", "1, 0, 'unreadable'"),
            "a present state holds what stat said",
            rawSnapshotRow(
                file,
                "present, file_type, size, mtime_ns, mode, inode, nlink, captured, link_target, reason",
                "1, " + stat + ", 0, x'78', 'unreadable'"),
            "a link's text is the text of a symlink, not of regular",
            rawSnapshotRow(file, "present, captured", "0, 0"),
            "as a known absence its captured would be true, not false",
            rawSnapshotRow(file, "present, file_type, size, captured", "0, 'regular', 3, 1"),
            "its file_type is set, but not all of size, mtime_ns, mode, inode, nlink");
    try (Store store = Store.open(file)) {
      impossible.forEach(
          (id, why) -> {
            StoreException refusal =
                assertThrows(StoreException.class, () -> store.read(tx -> tx.snapshots().byId(id)));
            assertTrue(
                refusal.getMessage().startsWith("snapshot " + id + " in the store is none of"),
                refusal.getMessage());
            assertTrue(refusal.getMessage().endsWith(why), refusal.getMessage());
          });
    }
  }
}
