package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.BEFORE_LOG;
import static io.turndiff.store.jooq.Tables.BLOB;
import static io.turndiff.store.jooq.Tables.INDEX_ENTRY;
import static io.turndiff.store.jooq.Tables.SESSION;
import static io.turndiff.store.jooq.Tables.SNAPSHOT;
import static io.turndiff.store.jooq.Tables.TRACKED_WORKSPACE;
import static io.turndiff.store.jooq.Tables.TURN;
import static io.turndiff.store.jooq.Tables.WORKSPACE;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.turndiff.model.BoundaryKind;
import io.turndiff.model.FileMetadata;
import io.turndiff.model.FileType;
import io.turndiff.model.IndexEntry;
import io.turndiff.model.NotCaptured;
import io.turndiff.model.Reason;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.StatProof;
import io.turndiff.model.TurnKind;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.jooq.tables.records.BeforeLogRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jooq.DSLContext;
import org.jooq.Record2;
import org.jooq.Result;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * V30, a stored file's hash kept once (docs/store-layout.md, "A stored file's hash, once"): a row
 * whose content is stored keeps its hash in {@code content_sha256} alone, with {@code sha256}
 * empty, in the snapshots, the before log and a tracked workspace's index; {@code sha256} keeps the
 * hash of what was read and not stored. Rows a V29 store holds are migrated and read back as they
 * were (a before-state left in the log is folded at the open), and rows the store writes are
 * asserted on as they land, on both dialects.
 */
class StoredHashOnceTest {

  private static final byte[] CONTENT = "hello\n".getBytes(StandardCharsets.UTF_8);
  private static final Sha256 SHA = Sha256.of(CONTENT);

  /** The hash of a file read whole but not stored: over the size limit. */
  private static final Sha256 NOT_STORED = Sha256.of("a big file".getBytes(StandardCharsets.UTF_8));

  private static final Instant TAKEN_AT = Instant.ofEpochMilli(1_700_000_000_123L);
  private static final FileMetadata METADATA =
      new FileMetadata(FileType.REGULAR, CONTENT.length, 1_700_000_000_000_000_001L, 0644, 42, 1);

  private static final Snapshot STORED =
      Snapshot.regularFile(
          WorkspacePath.of("src/a.txt"), BoundaryKind.OPENAT2, METADATA, SHA, TAKEN_AT);
  private static final Snapshot READ_NOT_STORED =
      Snapshot.MetadataOnly.of(
              WorkspacePath.of("src/big.bin"),
              BoundaryKind.OPENAT2,
              METADATA,
              new NotCaptured(Reason.TOO_LARGE, "over the size limit"),
              TAKEN_AT)
          .withContentHash(NOT_STORED);
  private static final Snapshot LOGGED =
      Snapshot.regularFile(
          WorkspacePath.of("src/c.txt"), BoundaryKind.OPENAT2, METADATA, SHA, TAKEN_AT);

  private static final IndexEntry STORED_ENTRY =
      new IndexEntry(
          WorkspacePath.of("src/a.txt"),
          StatProof.of(METADATA, 1_700_000_000_000_000_002L),
          Optional.empty(),
          Optional.of(SHA),
          Optional.of(SHA),
          Optional.empty());
  private static final IndexEntry HASHED_ENTRY =
      new IndexEntry(
          WorkspacePath.of("src/big.bin"),
          StatProof.of(METADATA, 1_700_000_000_000_000_002L),
          Optional.empty(),
          Optional.of(NOT_STORED),
          Optional.empty(),
          Optional.of(Reason.TOO_LARGE));

  @TempDir Path temp;

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void aVersion29StoresRowsAreReadBackAsTheyWereWithEachStoredHashOnce(String dialect)
      throws Exception {
    StoreAddress address = DialectStores.fresh(dialect, temp);
    DialectStores.migrateTo(address, "29");
    try (Connection connection = DialectStores.connect(address)) {
      insertVersion29Rows(DSL.using(connection, sqlDialect(address)));
    }
    try (Store store = Store.open(address)) {
      assertEquals(STORED, store.read(tx -> tx.snapshots().byId(7)));
      assertEquals(READ_NOT_STORED, store.read(tx -> tx.snapshots().byId(8)));
      assertEquals(
          Map.of(STORED_ENTRY.path(), STORED_ENTRY, HASHED_ENTRY.path(), HASHED_ENTRY),
          store.read(tx -> tx.indexes().entries(1)));
      // the before-state the V29 store had logged is folded at the open into the turn's change
      List<StoredFileChange> changes = store.read(tx -> tx.fileChanges().ofTurn(1));
      assertEquals(1, changes.size());
      assertEquals(LOGGED, changes.getFirst().before());
    }
    try (Connection connection = DialectStores.connect(address)) {
      DSLContext rows = DSL.using(connection, sqlDialect(address));
      assertEquals(
          Map.of("src/a.txt", "-", "src/big.bin", NOT_STORED.hex(), "src/c.txt", "-"),
          snapshotHashes(rows));
      assertEquals(Map.of("src/a.txt", "-", "src/big.bin", NOT_STORED.hex()), indexHashes(rows));
      assertEquals(0, rows.fetchCount(BEFORE_LOG));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void theStoreWritesAStoredFilesHashOnceAndReadsItBack(String dialect) throws Exception {
    StoreAddress address = DialectStores.fresh(dialect, temp);
    try (Store store = Store.open(address)) {
      long turn =
          store.write(
              tx -> {
                StoredWorkspace workspace = tx.workspaces().register("/w", "/w", 1, 2);
                tx.blobs().put(SHA, CONTENT);
                tx.indexes()
                    .write(
                        workspace.id(),
                        5,
                        false,
                        100,
                        100,
                        List.of(STORED_ENTRY, HASHED_ENTRY),
                        List.of(),
                        Optional.empty());
                // one snapshot alone, two in a multi-row insert, one logged by a snapshot call
                tx.snapshots().insert(STORED);
                tx.snapshots().insertAll(List.of(READ_NOT_STORED, relocated(STORED, "src/d.txt")));
                StoredSession session = tx.sessions().create("s", workspace.id());
                StoredTurn begun = tx.turns().begin("t", session, TurnKind.AGENT);
                tx.beforeLog()
                    .append(
                        new BeforeLog.Entry(
                            begun.id(),
                            "call-1",
                            Optional.of("Edit"),
                            1_000,
                            LOGGED,
                            Optional.empty(),
                            Optional.empty()));
                return begun.id();
              });
      try (Connection connection = DialectStores.connect(address)) {
        DSLContext rows = DSL.using(connection, sqlDialect(address));
        assertEquals(
            List.of("-"),
            rows.select(DSL.coalesce(BEFORE_LOG.SHA256, "-")).from(BEFORE_LOG).fetch().getValues(0),
            "the logged before-state");
      }
      assertEquals(
          LOGGED,
          store.read(tx -> tx.fileChanges().ofTurn(turn)).getFirst().before(),
          "folded from the log");
      assertEquals(
          Map.of(STORED_ENTRY.path(), STORED_ENTRY, HASHED_ENTRY.path(), HASHED_ENTRY),
          store.read(tx -> tx.indexes().entries(1)));
    }
    try (Connection connection = DialectStores.connect(address)) {
      DSLContext rows = DSL.using(connection, sqlDialect(address));
      assertEquals(
          Map.of(
              "src/a.txt",
              "-",
              "src/big.bin",
              NOT_STORED.hex(),
              "src/c.txt",
              "-",
              "src/d.txt",
              "-"),
          snapshotHashes(rows));
      assertEquals(Map.of("src/a.txt", "-", "src/big.bin", NOT_STORED.hex()), indexHashes(rows));
    }
  }

  /**
   * A build before V30 still running against a migrated store (a service not restarted since the
   * upgrade, another machine of a shared store) writes a stored file's hash in both columns: its
   * snapshots read as the same snapshots, and a before-state it logged folds, rather than stopping
   * every later write of the store (each folds the log first).
   */
  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void rowsAnOlderBuildWritesIntoAMigratedStoreReadAsTheSameSnapshots(String dialect)
      throws Exception {
    StoreAddress address = DialectStores.fresh(dialect, temp);
    long turn;
    try (Store store = Store.open(address)) {
      turn =
          store.write(
              tx -> {
                StoredWorkspace workspace = tx.workspaces().register("/w", "/w", 1, 2);
                tx.blobs().put(SHA, CONTENT);
                StoredSession session = tx.sessions().create("s", workspace.id());
                return tx.turns().begin("t", session, TurnKind.AGENT).id();
              });
    }
    try (Connection connection = DialectStores.connect(address)) {
      DSLContext rows = DSL.using(connection, sqlDialect(address));
      var stored = Snapshots.row(STORED);
      stored.setSha256(SHA.hex());
      stored.setId(70L);
      rows.insertInto(SNAPSHOT).set(stored).execute();
      BeforeLogRecord logged = Snapshots.row(LOGGED).into(BeforeLogRecord.class);
      logged.setSha256(SHA.hex());
      logged.setTurnId(turn);
      logged.setToolCall("call-1");
      logged.setCalledAt(1_000L);
      rows.insertInto(BEFORE_LOG).set(logged).execute();
      insertIndexEntry(rows, 1, STORED_ENTRY, true);
    }
    try (Store store = Store.open(address)) {
      assertEquals(STORED, store.read(tx -> tx.snapshots().byId(70)));
      assertEquals(
          Map.of(STORED_ENTRY.path(), STORED_ENTRY), store.read(tx -> tx.indexes().entries(1)));
      assertEquals(
          LOGGED,
          store.read(tx -> tx.fileChanges().ofTurn(turn)).getFirst().before(),
          "folded from the log");
      store.write(tx -> tx.snapshots().insert(READ_NOT_STORED)); // the store still takes writes
    }
  }

  private static Snapshot relocated(Snapshot regular, String path) {
    return Snapshot.regularFile(
        WorkspacePath.of(path),
        regular.boundary(),
        regular.metadata().orElseThrow(),
        regular.storedContent().orElseThrow(),
        regular.takenAt());
  }

  /** Each snapshot row's path and its {@code sha256} column ({@code -}: empty). */
  private static Map<String, String> snapshotHashes(DSLContext rows) {
    return hashes(rows.select(SNAPSHOT.PATH, SNAPSHOT.SHA256).from(SNAPSHOT).fetch());
  }

  /** Each index entry's path and its {@code sha256} column ({@code -}: empty). */
  private static Map<String, String> indexHashes(DSLContext rows) {
    return hashes(rows.select(INDEX_ENTRY.PATH, INDEX_ENTRY.SHA256).from(INDEX_ENTRY).fetch());
  }

  private static Map<String, String> hashes(Result<Record2<byte[], String>> pathsAndHashes) {
    Map<String, String> hashes = new TreeMap<>();
    pathsAndHashes.forEach(
        row ->
            hashes.put(
                new String(row.value1(), StandardCharsets.UTF_8),
                row.value2() == null ? "-" : row.value2()));
    return hashes;
  }

  /**
   * The rows as V29 wrote them, each stored file's hash in both columns: two snapshots, two index
   * entries and a before-state logged by a snapshot call of an open turn, not yet folded.
   */
  private static void insertVersion29Rows(DSLContext rows) {
    rows.insertInto(WORKSPACE)
        .set(WORKSPACE.ID, 1L)
        .set(WORKSPACE.ROOT_GIVEN, "/w")
        .set(WORKSPACE.ROOT_REAL, "/w")
        .set(WORKSPACE.ROOT_DEVICE, 1L)
        .set(WORKSPACE.ROOT_INODE, 2L)
        .set(WORKSPACE.CREATED_AT, 0L)
        .execute();
    rows.insertInto(SESSION)
        .set(SESSION.ID, 1L)
        .set(SESSION.EXTERNAL_ID, "s")
        .set(SESSION.WORKSPACE_ID, 1L)
        .set(SESSION.CREATED_AT, 0L)
        .execute();
    rows.insertInto(TURN)
        .set(TURN.ID, 1L)
        .set(TURN.EXTERNAL_ID, "t")
        .set(TURN.SESSION_ID, 1L)
        .set(TURN.SEQ, 1L)
        .set(TURN.KIND, "agent")
        .set(TURN.STATE, "open")
        .set(TURN.BEGAN_AT, 0L)
        .execute();
    rows.insertInto(BLOB)
        .set(BLOB.SHA256, SHA.hex())
        .set(BLOB.SIZE, (long) CONTENT.length)
        .set(BLOB.ENCODING, BlobCodec.RAW)
        .set(BLOB.DATA, CONTENT)
        .set(BLOB.STORED_AT, 0L)
        .execute();
    var stored = Snapshots.row(STORED);
    stored.setSha256(SHA.hex());
    stored.setId(7L);
    rows.insertInto(SNAPSHOT).set(stored).execute();
    var hashed = Snapshots.row(READ_NOT_STORED);
    hashed.setId(8L);
    rows.insertInto(SNAPSHOT).set(hashed).execute();
    insertIndexEntry(rows, 1, STORED_ENTRY, true);
    insertIndexEntry(rows, 1, HASHED_ENTRY, false);
    BeforeLogRecord logged = Snapshots.row(LOGGED).into(BeforeLogRecord.class);
    logged.setId(1L);
    logged.setSha256(SHA.hex());
    logged.setTurnId(1L);
    logged.setToolCall("call-1");
    logged.setCalledAt(1_000L);
    rows.insertInto(BEFORE_LOG).set(logged).execute();
  }

  /**
   * {@code entry} of workspace {@code workspace} as a build before V30 wrote it, its hash in {@code
   * sha256} whether or not the content is stored; with {@code tracked}, its workspace's index
   * header too.
   */
  private static void insertIndexEntry(
      DSLContext rows, long workspace, IndexEntry entry, boolean tracked) {
    if (tracked) {
      rows.insertInto(TRACKED_WORKSPACE)
          .set(TRACKED_WORKSPACE.WORKSPACE_ID, workspace)
          .set(TRACKED_WORKSPACE.INDEXED_AT_NS, 0L)
          .set(TRACKED_WORKSPACE.VERSION, 1L)
          .set(TRACKED_WORKSPACE.PARTIAL, 0L)
          .set(TRACKED_WORKSPACE.MAX_FILES, 100L)
          .set(TRACKED_WORKSPACE.MAX_BYTES, 100L)
          .set(TRACKED_WORKSPACE.DIRECTORIES_INDEXED, 1L)
          .execute();
    }
    StatProof stat = entry.stat();
    rows.insertInto(INDEX_ENTRY)
        .set(INDEX_ENTRY.WORKSPACE_ID, workspace)
        .set(INDEX_ENTRY.PATH, entry.path().bytes())
        .set(INDEX_ENTRY.FILE_TYPE, stat.type().code())
        .set(INDEX_ENTRY.SIZE, stat.size())
        .set(INDEX_ENTRY.MTIME_NS, stat.mtimeNanos())
        .set(INDEX_ENTRY.CTIME_NS, stat.ctimeNanos())
        .set(INDEX_ENTRY.INODE, stat.inode())
        .set(INDEX_ENTRY.MODE, (long) stat.mode())
        .set(INDEX_ENTRY.NLINK, stat.nlink())
        .set(INDEX_ENTRY.SHA256, entry.sha256().orElseThrow().hex())
        .set(INDEX_ENTRY.CONTENT_SHA256, entry.storedContent().map(Sha256::hex).orElse(null))
        .set(INDEX_ENTRY.REASON, entry.reason().map(Reason::code).orElse(null))
        .execute();
  }

  private static SQLDialect sqlDialect(StoreAddress address) {
    return address instanceof PostgresDatabase ? SQLDialect.POSTGRES : SQLDialect.SQLITE;
  }
}
