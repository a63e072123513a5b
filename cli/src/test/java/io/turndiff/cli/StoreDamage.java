package io.turndiff.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The ways a store file gets damaged, each made on a copy of a real store (closed cleanly, so
 * without a WAL).
 */
enum StoreDamage {

  /** Truncated to nothing. */
  EMPTY(true),
  /** Cut short in the middle of a page, as by a copy that stopped. */
  CUT_MID_PAGE(true),
  /** The 16-byte header magic overwritten. */
  HEADER_OVERWRITTEN(true),
  /**
   * A page of garbage over a page of stored content (a leaf or overflow page of the blob table, the
   * middle one): what lists turns still reads, what needs that content finds it damaged.
   */
  GARBAGE_PAGE(false),
  /** A file that never was SQLite. */
  NOT_SQLITE(true);

  private final boolean refusedAtOpen;

  StoreDamage(boolean refusedAtOpen) {
    this.refusedAtOpen = refusedAtOpen;
  }

  /**
   * Whether the store is refused before SQLite reads it (its header tells), rather than opened as
   * damaged.
   */
  boolean refusedAtOpen() {
    return refusedAtOpen;
  }

  /** A damaged copy of {@code good} at {@code folder}/turndiff.db. */
  Path copy(Path good, Path folder) throws IOException {
    Path file = Files.createDirectories(folder).resolve("turndiff.db");
    Files.copy(good, file);
    int pageSize = pageSize(good);
    long size = Files.size(file);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      switch (this) {
        case EMPTY -> channel.truncate(0);
        case CUT_MID_PAGE -> channel.truncate(size / 2 / pageSize * pageSize + pageSize / 2);
        case HEADER_OVERWRITTEN ->
            channel.write(
                ByteBuffer.wrap("Garbage format 9\0".getBytes(StandardCharsets.US_ASCII)), 0);
        case GARBAGE_PAGE -> garbageOver(channel, contentPage(good), pageSize, size);
        case NOT_SQLITE -> {
          channel.truncate(0);
          channel.write(
              ByteBuffer.wrap(
                  "this is not a database\n".repeat(3000).getBytes(StandardCharsets.UTF_8)));
        }
      }
    }
    return file;
  }

  /**
   * Writes a page of garbage over page {@code page} of {@code file} in place, as another program
   * writing into it would: same file, same size.
   */
  static void garbageOver(Path file, long page) throws IOException {
    int pageSize = pageSize(file);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      garbageOver(channel, page, pageSize, Files.size(file));
    }
  }

  private static void garbageOver(FileChannel channel, long page, int pageSize, long seed)
      throws IOException {
    byte[] garbage = new byte[pageSize];
    new Random(seed).nextBytes(garbage);
    channel.write(ByteBuffer.wrap(garbage), (page - 1) * pageSize);
  }

  /**
   * The number (from 1) of the middle leaf or overflow page of the blob table, found with SQLite's
   * dbstat table: where that table lies in the file moves with every change to the schema or to how
   * contents are stored, so a fixed offset would damage whatever table happens to be there.
   */
  static long contentPage(Path good) throws IOException {
    try (Connection connection =
            DriverManager.getConnection("jdbc:sqlite:file:" + good + "?mode=ro");
        Statement statement = connection.createStatement();
        ResultSet pages =
            statement.executeQuery(
                "SELECT pageno FROM dbstat WHERE name = 'blob'"
                    + " AND pagetype IN ('leaf', 'overflow') ORDER BY pageno")) {
      List<Long> numbers = new ArrayList<>();
      while (pages.next()) {
        numbers.add(pages.getLong(1));
      }
      if (numbers.isEmpty()) {
        throw new IOException(good + " has no page of stored content to damage");
      }
      return numbers.get(numbers.size() / 2);
    } catch (SQLException e) {
      throw new IOException("cannot list the pages of " + good, e);
    }
  }

  private static int pageSize(Path file) throws IOException {
    byte[] header = new byte[18];
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      channel.read(ByteBuffer.wrap(header));
    }
    int size = ((header[16] & 0xff) << 8) | (header[17] & 0xff);
    return size == 1 ? 65_536 : size;
  }
}
