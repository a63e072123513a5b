package io.turndiff.store;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * Turns what SQLite reports (wrapped by jOOQ, Flyway or the store's own statements) into one clear
 * {@link StoreException} per kind of trouble, naming the file and what to do about it. Anything
 * that did not come from SQLite is left as it is.
 */
final class StoreFailures {

  private final Path file;
  private final Duration busyTimeout;

  StoreFailures(Path file, Duration busyTimeout) {
    this.file = file;
    this.busyTimeout = busyTimeout;
  }

  /**
   * {@code failure} as the store's own exception when SQLite caused it; else {@code failure}
   * itself.
   */
  RuntimeException translate(RuntimeException failure) {
    if (failure instanceof StoreException known
        && known.problem() != StoreException.Problem.OTHER) {
      return failure;
    }
    Optional<SQLiteException> sqlite = sqliteCause(failure);
    if (sqlite.isEmpty()) {
      return failure;
    }
    SQLiteErrorCode code = sqlite.get().getResultCode();
    String says = code.message;
    return switch (primary(code)) {
      case CORRUPT, NOTADB -> damaged(file, "SQLite says: " + says, failure);
      case BUSY, LOCKED ->
          new StoreException(
              StoreException.Problem.BUSY,
              "the store "
                  + file
                  + " is busy: "
                  + "another process held its write lock for longer than "
                  + busyTimeout.toMillis()
                  + " ms; nothing was "
                  + "written. Try again.",
              failure);
      case READONLY -> readOnly(file, "SQLite says: " + says, failure);
      case FULL ->
          new StoreException(
              "the disk holding the store " + file + " is full; nothing was written", failure);
      case IOERR, CANTOPEN ->
          new StoreException(
              "the store " + file + " could not be read or written (SQLite says: " + says + ")",
              failure);
      default -> failure;
    };
  }

  private enum Primary {
    CORRUPT,
    NOTADB,
    BUSY,
    LOCKED,
    READONLY,
    FULL,
    IOERR,
    CANTOPEN,
    OTHER
  }

  /**
   * The primary result code: an extended code (such as SQLITE_CORRUPT_INDEX) keeps it in its low
   * byte.
   */
  private static Primary primary(SQLiteErrorCode code) {
    return switch (code.code & 0xff) {
      case 5 -> Primary.BUSY;
      case 6 -> Primary.LOCKED;
      case 8 -> Primary.READONLY;
      case 10 -> Primary.IOERR;
      case 11 -> Primary.CORRUPT;
      case 13 -> Primary.FULL;
      case 14 -> Primary.CANTOPEN;
      case 26 -> Primary.NOTADB;
      default -> Primary.OTHER;
    };
  }

  /** Whether {@code failure} says the database is damaged or is not a database. */
  static boolean isDamage(Throwable failure) {
    return sqliteCause(failure)
        .map(e -> primary(e.getResultCode()))
        .filter(p -> p == Primary.CORRUPT || p == Primary.NOTADB)
        .isPresent();
  }

  /**
   * Whether {@code failure} is SQLite stopping a statement on request (the integrity check's time
   * budget).
   */
  static boolean isInterrupt(Throwable failure) {
    return sqliteCause(failure).filter(e -> (e.getResultCode().code & 0xff) == 9).isPresent();
  }

  // a throwable that is its own cause ends the chain: identity, not equality
  @SuppressWarnings("ReferenceEquality")
  static Optional<SQLiteException> sqliteCause(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof SQLiteException sqlite) {
        return Optional.of(sqlite);
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return Optional.empty();
  }

  /** The one message for a damaged store: which file, what is wrong, and how to get out of it. */
  static StoreException damaged(Path file, String detail, Throwable cause) {
    return new StoreException(
        StoreException.Problem.DAMAGED,
        "the store "
            + file
            + " is damaged: "
            + detail
            + ". turndiff writes nothing to it. Restore it from a backup; or save what it still holds with "
            + "`sqlite3 '"
            + file
            + "' .recover | sqlite3 recovered.db` and use that file (--db); or move it away "
            + "to start a new store.",
        cause);
  }

  /** The one message for a store that cannot be written. */
  static StoreException readOnly(Path file, String detail, Throwable cause) {
    return new StoreException(
        StoreException.Problem.READ_ONLY,
        "the store "
            + file
            + " cannot be written ("
            + detail
            + "): it answers queries, but nothing can be recorded in it. Use a writable store (--db).",
        cause);
  }
}
