package io.turndiff.store;

import io.turndiff.ownfiles.OwnFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

/**
 * What the first bytes of an existing store file say, read before SQLite sees the file: SQLite
 * takes an empty file for a new database (so a store truncated to nothing would silently start
 * over), and reports a file that is not a database only when a statement first touches it.
 *
 * <p>An SQLite file starts with the 16 bytes {@code "SQLite format 3\0"}, then its page size; the
 * file is a whole number of pages (the WAL holds whatever is newer), so a file cut in the middle of
 * a page was cut short.
 */
final class StoreHeader {

  static final byte[] MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
  private static final int HEADER_BYTES = 100;

  private StoreHeader() {}

  /** Why {@code file} is not an intact SQLite database, or empty when its header is sound. */
  static Optional<String> problem(Path file) {
    try {
      OwnFile store = OwnFile.of(file);
      long size = store.size();
      if (size == 0) {
        return Optional.of(
            "it is empty (0 bytes): a new store is only created where no file exists");
      }
      // zeros past the end of a file shorter than a header
      byte[] bytes = Arrays.copyOf(store.first(HEADER_BYTES), HEADER_BYTES);
      if (!Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
        return Optional.of(
            "it is not an SQLite database (it does not start with \"SQLite format 3\")");
      }
      if (size < HEADER_BYTES) {
        return Optional.of("it is cut short: " + size + " bytes, less than an SQLite header");
      }
      int pageSize = ((bytes[16] & 0xff) << 8) | (bytes[17] & 0xff);
      if (pageSize == 1) {
        pageSize = 65_536;
      }
      if (pageSize < 512 || Integer.bitCount(pageSize) != 1) {
        return Optional.of("its header names no valid page size (" + pageSize + ")");
      }
      if (size % pageSize != 0) {
        return Optional.of(
            "it is cut short: its "
                + size
                + " bytes are not a whole number of "
                + pageSize
                + "-byte pages");
      }
      return Optional.empty();
    } catch (IOException e) {
      throw new StoreException("cannot read the store " + file + ": " + e.getMessage(), e);
    }
  }
}
