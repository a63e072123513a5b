package io.turndiff.store;

import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import org.postgresql.util.PSQLException;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * Turns what SQLite reports (wrapped by jOOQ, Flyway or the store's own statements) into one clear
 * {@link StoreException} per kind of trouble, naming the file and what to do about it. Anything
 * that did not come from SQLite is left as it is.
 */
final class StoreFailures {

  private final String file;
  private final Duration busyTimeout;

  /**
   * @param file how the store is named in messages: its file, or its PostgreSQL URL without a
   *     password
   */
  StoreFailures(String file, Duration busyTimeout) {
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
      return postgresCause(failure).map(e -> translate(e, failure)).orElse(failure);
    }
    SQLiteErrorCode code = sqlite.get().getResultCode();
    String says = code.message;
    return switch (primary(code)) {
      case CORRUPT, NOTADB -> damaged(Path.of(file), "SQLite says: " + says, failure);
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
      case READONLY -> readOnly(Path.of(file), "SQLite says: " + says, failure);
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

  /**
   * What PostgreSQL reported, by its SQLSTATE class: no connection, refused credentials, a lock
   * wait past the busy timeout, a full disk; anything else is left as it is.
   */
  private RuntimeException translate(SQLException postgres, RuntimeException failure) {
    String state = postgres.getSQLState() == null ? "" : postgres.getSQLState();
    if (state.startsWith("08")) {
      return new StoreException(
          "cannot reach the store " + file + " (PostgreSQL: " + postgres.getMessage() + ")",
          failure);
    }
    if (state.startsWith("28")) {
      return new StoreException(
          "the store "
              + file
              + " refused the credentials (PostgreSQL: "
              + postgres.getMessage()
              + "); give the user in the URL or PGUSER, the password in a 0600 file "
              + "(--db-password-file), PGPASSWORD or ~/.pgpass",
          failure);
    }
    if (state.equals("55P03")) {
      return new StoreException(
          StoreException.Problem.BUSY,
          "the store "
              + file
              + " is busy: another writer held its lock for longer than "
              + busyTimeout.toMillis()
              + " ms; nothing was written. Try again.",
          failure);
    }
    if (state.equals("53100")) {
      return new StoreException(
          "the disk holding the store " + file + " is full; nothing was written", failure);
    }
    return failure;
  }

  private static Optional<PSQLException> postgresCause(Throwable failure) {
    return cause(failure, PSQLException.class);
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

  static Optional<SQLiteException> sqliteCause(Throwable failure) {
    return cause(failure, SQLiteException.class);
  }

  /** The first throwable of {@code kind} in the cause chain of {@code failure}. */
  // a throwable that is its own cause ends the chain: identity, not equality
  @SuppressWarnings("ReferenceEquality")
  private static <T extends Throwable> Optional<T> cause(Throwable failure, Class<T> kind) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (kind.isInstance(cause)) {
        return Optional.of(kind.cast(cause));
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
