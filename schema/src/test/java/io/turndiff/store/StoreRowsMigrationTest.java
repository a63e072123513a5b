package io.turndiff.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.BoundaryKind;
import io.turndiff.model.DirectoryState;
import io.turndiff.model.FileMetadata;
import io.turndiff.model.FileType;
import io.turndiff.model.IndexEntry;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.StatProof;
import io.turndiff.model.WorkspacePath;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * V28, rows that cost what they hold (docs/store-layout.md, "Rows that cost what they hold"): a
 * store made at V27 with rows in it is migrated on both dialects, and every row it held is read
 * back through the store; the column nothing read is gone, the indexes a unique key answers are
 * gone, and on SQLite the tables keyed by a path have no rowid.
 */
class StoreRowsMigrationTest {

  private static final byte[] CONTENT = "hello\n".getBytes(StandardCharsets.UTF_8);
  private static final Sha256 SHA = Sha256.of(CONTENT);
  private static final Instant TAKEN_AT = Instant.ofEpochMilli(1_700_000_000_123L);
  private static final FileMetadata METADATA =
      new FileMetadata(FileType.REGULAR, CONTENT.length, 1_700_000_000_000_000_001L, 0644, 42, 1);

  @TempDir Path temp;

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void aVersion27StoreWithRowsKeepsEveryRowAndLosesWhatNothingRead(String dialect)
      throws Exception {
    StoreAddress address = DialectStores.fresh(dialect, temp);
    DialectStores.migrateTo(address, "27");
    try (Connection connection = DialectStores.connect(address)) {
      insertVersion27Rows(connection);
    }
    Snapshot expected =
        Snapshot.regularFile(
            WorkspacePath.of("src/a.txt"), BoundaryKind.OPENAT2, METADATA, SHA, TAKEN_AT);
    IndexEntry entry =
        new IndexEntry(
            WorkspacePath.of("src/a.txt"),
            StatProof.of(METADATA, 1_700_000_000_000_000_002L),
            Optional.empty(),
            Optional.of(SHA),
            Optional.of(SHA),
            Optional.empty());
    long inserted;
    try (Store store = Store.open(address)) {
      assertEquals(expected, store.read(tx -> tx.snapshots().byId(7)));
      assertEquals(
          Map.of(entry.path(), entry), store.read(tx -> tx.indexes().entries(1)), "index entries");
      assertEquals(
          Map.of(WorkspacePath.of("src"), 0755),
          store.read(tx -> tx.indexDirectories().all(1)),
          "index directories");
      assertEquals(
          List.of(directoryChange("src", 0755, Optional.of(0700))),
          store.read(tx -> tx.directoryChanges().ofTurn(1)),
          "directory changes");
      // the migrated tables take new rows through the store's own statements
      inserted =
          store.write(
              tx -> {
                tx.indexes()
                    .write(
                        1,
                        5,
                        false,
                        100,
                        100,
                        List.of(another(entry)),
                        List.of(),
                        Optional.empty());
                tx.indexDirectories()
                    .write(
                        1, Map.of(WorkspacePath.of("lib"), 0700), List.of(WorkspacePath.of("src")));
                tx.directoryChanges()
                    .recordBefore(1, DirectoryState.present(WorkspacePath.of("lib"), 0700));
                return tx.snapshots().insert(expected);
              });
    }
    try (Store reopened = Store.open(address)) {
      assertEquals(
          Map.of(entry.path(), entry, another(entry).path(), another(entry)),
          reopened.read(tx -> tx.indexes().entries(1)));
      assertEquals(
          Map.of(WorkspacePath.of("lib"), 0700), reopened.read(tx -> tx.indexDirectories().all(1)));
      assertEquals(expected, reopened.read(tx -> tx.snapshots().byId(inserted)));
      assertEquals(
          List.of(
              directoryChange("lib", 0700, Optional.empty()),
              directoryChange("src", 0755, Optional.of(0700))),
          reopened.read(tx -> tx.directoryChanges().ofTurn(1)));
    }
    try (Connection connection = DialectStores.connect(address)) {
      assertFalse(columns(connection, "snapshot").contains("fingerprint"));
      assertFalse(columns(connection, "before_log").contains("fingerprint"));
      assertFalse(columns(connection, "directory_change").contains("id"));
      assertFalse(indexes(connection).contains("rewind_entry_operation"));
      assertFalse(indexes(connection).contains("rewind_directory_operation"));
      assertFalse(indexes(connection).contains("blob_stored_at"));
      assertTrue(indexes(connection).contains("index_entry_content"), "kept: gc needs it");
      if (dialect.equals("sqlite")) {
        assertTrue(withoutRowid(connection, "index_entry"));
        assertTrue(withoutRowid(connection, "index_directory"));
        assertTrue(withoutRowid(connection, "directory_change"));
        try (Statement statement = connection.createStatement();
            ResultSet violations = statement.executeQuery("PRAGMA foreign_key_check")) {
          assertFalse(violations.next(), "every row still points at what it refers to");
        }
      }
    }
  }

  /**
   * The look-ups by operation the dropped indexes served are answered by the unique key's index:
   * the store's reads and the check a foreign key makes when an operation is deleted.
   */
  @Test
  void theUniqueKeyAnswersEveryLookUpByOperation() throws Exception {
    StoreAddress address = DialectStores.fresh("sqlite", temp);
    Store.open(address).close();
    try (Connection connection = DialectStores.connect(address)) {
      assertEquals(
          "SEARCH rewind_entry USING INDEX sqlite_autoindex_rewind_entry_1 (operation_id=?)",
          plan(connection, "SELECT * FROM rewind_entry WHERE operation_id = 1"));
      assertEquals(
          "SEARCH rewind_directory USING INDEX sqlite_autoindex_rewind_directory_1 (operation_id=?)",
          plan(connection, "SELECT * FROM rewind_directory WHERE operation_id = 1"));
    }
  }

  /**
   * A collection's two look-ups of blobs by age (Retention: among named blobs, and the next batch
   * in key order) are not planned through {@code blob_stored_at} even on a V27 store that has it:
   * it finds the blobs by their key and tests {@code stored_at} on the row, so V28 drops the index.
   */
  @Test
  void noLookUpOfBlobsByAgeWasPlannedThroughTheirAgeIndex() throws Exception {
    StoreAddress address = DialectStores.fresh("sqlite", temp);
    DialectStores.migrateTo(address, "27");
    try (Connection connection = DialectStores.connect(address)) {
      assertEquals(
          "SEARCH blob USING INDEX sqlite_autoindex_blob_1 (sha256=?)",
          plan(
              connection,
              "SELECT sha256 FROM blob WHERE sha256 IN ('a', 'b') AND stored_at < 5"
                  + " ORDER BY sha256"));
      assertEquals(
          "SEARCH blob USING INDEX sqlite_autoindex_blob_1 (sha256>?)",
          plan(
              connection,
              "SELECT sha256 FROM blob WHERE sha256 > 'a' AND stored_at < 5"
                  + " ORDER BY sha256 LIMIT 100"));
    }
  }

  /** Turn 1's change of the directory {@code path} between two modes (no after: still open). */
  private static StoredDirectoryChange directoryChange(
      String path, int before, Optional<Integer> after) {
    WorkspacePath directory = WorkspacePath.of(path);
    return new StoredDirectoryChange(
        1,
        directory,
        DirectoryState.present(directory, before),
        after.map(mode -> DirectoryState.present(directory, mode)));
  }

  /** An entry of another path with the same stat, its content not in the baseline. */
  private static IndexEntry another(IndexEntry entry) {
    return new IndexEntry(
        WorkspacePath.of("src/b.txt"),
        entry.stat(),
        Optional.empty(),
        Optional.of(SHA),
        Optional.empty(),
        Optional.empty());
  }

  /** A turn's snapshot, with the fingerprint V27 wrote, and a tracked workspace's index. */
  private static void insertVersion27Rows(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(
          "INSERT INTO workspace (id, root_given, root_real, root_device, root_inode, created_at)"
              + " VALUES (1, '/w', '/w', 1, 2, 0)");
      statement.execute("INSERT INTO session VALUES (1, 's', 1, 0)");
      statement.execute(
          "INSERT INTO turn (id, external_id, session_id, seq, kind, state, began_at, finished_at)"
              + " VALUES (1, 't', 1, 1, 'agent', 'finished', 0, 0)");
      statement.execute(
          "INSERT INTO tracked_workspace (workspace_id, indexed_at_ns, version, partial,"
              + " max_files, max_bytes, directories_indexed) VALUES (1, 0, 1, 0, 100, 100, 1)");
    }
    try (PreparedStatement blob =
        connection.prepareStatement(
            "INSERT INTO blob (sha256, size, encoding, data, stored_at) VALUES (?, ?, 'raw', ?, 0)")) {
      blob.setString(1, SHA.hex());
      blob.setLong(2, CONTENT.length);
      blob.setBytes(3, CONTENT);
      blob.execute();
    }
    try (PreparedStatement snapshot =
        connection.prepareStatement(
            "INSERT INTO snapshot (id, path, boundary, present, file_type, size, mtime_ns, mode,"
                + " inode, nlink, sha256, content_sha256, captured, fingerprint, taken_at)"
                + " VALUES (7, ?, 'openat2', ?, 'regular', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      snapshot.setBytes(1, "src/a.txt".getBytes(StandardCharsets.UTF_8));
      snapshot.setBoolean(2, true);
      snapshot.setLong(3, METADATA.size());
      snapshot.setLong(4, METADATA.mtimeNanos());
      snapshot.setLong(5, METADATA.mode());
      snapshot.setLong(6, METADATA.inode());
      snapshot.setLong(7, METADATA.nlink());
      snapshot.setString(8, SHA.hex());
      snapshot.setString(9, SHA.hex());
      snapshot.setBoolean(10, true);
      snapshot.setString(11, METADATA.fingerprint());
      snapshot.setLong(12, TAKEN_AT.toEpochMilli());
      snapshot.execute();
    }
    try (PreparedStatement entry =
        connection.prepareStatement(
            "INSERT INTO index_entry (workspace_id, path, file_type, size, mtime_ns, ctime_ns,"
                + " inode, mode, nlink, sha256, content_sha256)"
                + " VALUES (1, ?, 'regular', ?, ?, ?, ?, ?, ?, ?, ?)")) {
      entry.setBytes(1, "src/a.txt".getBytes(StandardCharsets.UTF_8));
      entry.setLong(2, METADATA.size());
      entry.setLong(3, METADATA.mtimeNanos());
      entry.setLong(4, 1_700_000_000_000_000_002L);
      entry.setLong(5, METADATA.inode());
      entry.setLong(6, METADATA.mode());
      entry.setLong(7, METADATA.nlink());
      entry.setString(8, SHA.hex());
      entry.setString(9, SHA.hex());
      entry.execute();
    }
    try (PreparedStatement change =
        connection.prepareStatement(
            "INSERT INTO directory_change (id, turn_id, path, before_present, before_mode,"
                + " after_present, after_mode) VALUES (9, 1, ?, 1, ?, 1, ?)")) {
      change.setBytes(1, "src".getBytes(StandardCharsets.UTF_8));
      change.setLong(2, 0755);
      change.setLong(3, 0700);
      change.execute();
    }
    try (PreparedStatement directory =
        connection.prepareStatement(
            "INSERT INTO index_directory (workspace_id, path, mode) VALUES (1, ?, ?)")) {
      directory.setBytes(1, "src".getBytes(StandardCharsets.UTF_8));
      directory.setLong(2, 0755);
      directory.execute();
    }
  }

  private static List<String> columns(Connection connection, String table) throws SQLException {
    List<String> columns = new ArrayList<>();
    try (ResultSet rows = connection.getMetaData().getColumns(null, null, table, null)) {
      while (rows.next()) {
        columns.add(rows.getString("COLUMN_NAME"));
      }
    }
    assertFalse(columns.isEmpty(), "no table " + table);
    return columns;
  }

  private static List<String> indexes(Connection connection) throws SQLException {
    List<String> names = new ArrayList<>();
    for (String table : List.of("rewind_entry", "rewind_directory", "index_entry", "blob")) {
      try (ResultSet rows =
          connection.getMetaData().getIndexInfo(null, null, table, false, false)) {
        while (rows.next()) {
          names.add(rows.getString("INDEX_NAME"));
        }
      }
    }
    return names;
  }

  private static boolean withoutRowid(Connection connection, String table) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement("SELECT sql FROM sqlite_schema WHERE name = ?")) {
      statement.setString(1, table);
      try (ResultSet row = statement.executeQuery()) {
        return row.next() && row.getString(1).strip().endsWith("WITHOUT ROWID");
      }
    }
  }

  private static String plan(Connection connection, String query) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("EXPLAIN QUERY PLAN " + query)) {
      assertTrue(rows.next());
      return rows.getString("detail");
    }
  }
}
