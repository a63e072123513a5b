package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.fixtures.TestStore;
import io.turndiff.model.Sha256;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A stored content's row changed behind the store's back, through a plain connection to the SQLite
 * file in a test's temp dir: what a damaged disk, another program or a bug would leave.
 */
final class StoredRow {

  private StoredRow() {}

  /**
   * Replaces the first chunk of {@code content}, stored in chunks, by as many other bytes, raw: the
   * stream reads them without a fault until the whole content's hash is checked.
   */
  static void replaceFirstChunk(Path temp, Sha256 content) {
    String chunk =
        "FROM content_chunk WHERE seq = 0 AND content_id ="
            + " (SELECT id FROM chunked_content WHERE sha256 = ?)";
    try (Connection connection =
            DriverManager.getConnection("jdbc:sqlite:" + TestStore.fileIn(temp));
        PreparedStatement size = connection.prepareStatement("SELECT size " + chunk);
        PreparedStatement update =
            connection.prepareStatement(
                "UPDATE content_chunk SET encoding = 'raw', data = ? WHERE seq = 0 AND content_id ="
                    + " (SELECT id FROM chunked_content WHERE sha256 = ?)")) {
      size.setString(1, content.hex());
      int bytes;
      try (ResultSet row = size.executeQuery()) {
        assertTrue(row.next(), "the content's first chunk");
        bytes = row.getInt(1);
      }
      update.setBytes(1, new byte[bytes]);
      update.setString(2, content.hex());
      assertEquals(1, update.executeUpdate(), "the content's first chunk");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Replaces the stored bytes of {@code content} by {@code other}, kept whole and readable. */
  static void replaceBytes(Path temp, Sha256 content, String other) {
    byte[] bytes = other.getBytes(StandardCharsets.UTF_8);
    try (Connection connection =
            DriverManager.getConnection("jdbc:sqlite:" + TestStore.fileIn(temp));
        PreparedStatement update =
            connection.prepareStatement(
                "UPDATE blob SET encoding = 'raw', data = ?, size = ?, base_sha256 = NULL,"
                    + " depth = 0 WHERE sha256 = ?")) {
      update.setBytes(1, bytes);
      update.setLong(2, bytes.length);
      update.setString(3, content.hex());
      assertEquals(1, update.executeUpdate(), "the content's row");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
