package io.turndiff.store;

import io.turndiff.ownfiles.AtomicFile;
import io.turndiff.ownfiles.OwnDirectory;
import io.turndiff.ownfiles.OwnFile;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;

/**
 * The store's file on disk and how SQLite may open it: a new store where no file exists, an
 * existing one only when its header is sound, and read-only where the file or its folder cannot be
 * written.
 *
 * <p>A new store is made whole under a temporary name (mode 0600, in a folder created 0700) and
 * then linked to its name, which fails if another process got there first: so an existing file is
 * never half-made, and an existing empty file is refused instead of taken for a new store.
 *
 * <p>A WAL database on read-only media (SQLite, "WAL mode on read-only media"): SQLite reads it
 * with {@code mode=ro} when its {@code -wal} and {@code -shm} files exist (a store some other
 * process has open), or when it may create them (a writable folder). A store closed cleanly has
 * neither, and its folder on a read-only mount cannot get them: then it is opened {@code
 * immutable}, which reads the database file alone, correct because without a WAL the file holds
 * everything. A non-empty {@code -wal} without its {@code -shm} cannot be read there at all, and is
 * refused rather than read as if the WAL were not there.
 */
final class StoreFile {

  /** How the file may be opened. */
  enum Access {
    /** Writable file and folder: one writer and any number of readers. */
    READ_WRITE,
    /** Read-only, through its WAL and shared-memory files. */
    READ_ONLY,
    /** Read-only, and no WAL to read: the database file alone, without locks or shared memory. */
    IMMUTABLE
  }

  private final Path path;
  private final Access access;

  private StoreFile(Path path, Access access) {
    this.path = path;
    this.access = access;
  }

  /**
   * The store at {@code file} (absolute), created when no file is there.
   *
   * @throws StoreException {@link StoreException.Problem#DAMAGED} when an existing file is not a
   *     sound SQLite database; {@link StoreException.Problem#READ_ONLY} when it cannot be read
   *     where it is
   */
  static StoreFile prepare(Path file) {
    OwnFile store = OwnFile.of(file);
    if (!store.exists(LinkOption.NOFOLLOW_LINKS)) {
      create(file);
    }
    if (store.isDirectory()) {
      throw new StoreException("the store " + file + " is a directory");
    }
    if (!store.isRegularFile()) {
      throw new StoreException("the store " + file + " exists but is not a regular file");
    }
    StoreHeader.problem(file)
        .ifPresent(
            problem -> {
              throw StoreFailures.damaged(file, problem, null);
            });
    return new StoreFile(file, access(file));
  }

  private static Access access(Path file) {
    Path folder = file.getParent();
    boolean folderWritable = OwnFile.of(folder).isWritable();
    if (OwnFile.of(file).isWritable() && folderWritable) {
      return Access.READ_WRITE;
    }
    Path wal = walOf(file);
    boolean walHasContent;
    try {
      walHasContent = OwnFile.of(wal).exists() && OwnFile.of(wal).size() > 0;
    } catch (IOException e) {
      throw new StoreException("cannot read " + wal + ": " + e.getMessage(), e);
    }
    if (folderWritable || (walHasContent && OwnFile.of(sibling(file, "-shm")).isReadable())) {
      return Access.READ_ONLY;
    }
    if (!walHasContent) {
      return Access.IMMUTABLE;
    }
    throw new StoreException(
        StoreException.Problem.READ_ONLY,
        "the store "
            + file
            + " cannot be read here: its "
            + wal
            + " holds changes that SQLite reads only with "
            + sibling(file, "-shm")
            + ", which is missing, "
            + "and its folder cannot be written to make one. Open the store once where it can be written.",
        null);
  }

  /**
   * The write-ahead log SQLite keeps beside the database {@code file}: its name with {@code -wal}
   * appended, in the same folder (SQLite, "Write-Ahead Logging", the WAL file).
   */
  static Path walOf(Path file) {
    return sibling(file, "-wal");
  }

  /** This store's write-ahead log, whether or not it exists now. */
  Path wal() {
    return walOf(path);
  }

  private static Path sibling(Path file, String suffix) {
    return file.resolveSibling(file.getFileName() + suffix);
  }

  private static void create(Path file) {
    Path folder = file.getParent();
    try {
      OwnDirectory.of(folder).makePrivate();
      // when another process got there first, theirs is used: it too was whole before it got the
      // name
      AtomicFile.createIfAbsent(file, AtomicFile.OWNER_ONLY, StoreFile::initialise);
    } catch (IOException e) {
      throw new StoreException("cannot create the store " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Writes an empty WAL-mode database (its first page, with the header) into the new file, and
   * removes the WAL and shared-memory files SQLite may leave beside it.
   */
  private static void initialise(Path file) throws IOException {
    try {
      initialiseDatabase(file);
    } finally {
      OwnFile.of(walOf(file)).deleteIfExists();
      OwnFile.of(sibling(file, "-shm")).deleteIfExists();
    }
  }

  /** Writes an empty WAL-mode database (its first page, with the header) into the new file. */
  private static void initialiseDatabase(Path file) {
    try (Connection connection =
            DriverManager.getConnection("jdbc:sqlite:" + uri(file, Optional.empty()));
        Statement statement = connection.createStatement()) {
      // connection-level pragmas, not queries: jOOQ has no DSL for them. auto_vacuum takes effect
      // only before the first table is created: a collection then gives pages back in small steps
      statement.execute("PRAGMA auto_vacuum=INCREMENTAL");
      statement.execute("PRAGMA journal_mode=WAL");
    } catch (SQLException e) {
      throw new StoreException("cannot create the store " + file + ": " + e.getMessage(), e);
    }
  }

  /** The bytes on disk of the database file and its write-ahead log (0 for one not there). */
  long bytesOnDisk() {
    long bytes = 0;
    for (Path part : List.of(path, wal())) {
      try {
        bytes += OwnFile.of(part).size();
      } catch (NoSuchFileException absent) {
        // no log: everything is in the file
      } catch (IOException e) {
        throw new StoreException("cannot read the size of " + part + ": " + e.getMessage(), e);
      }
    }
    return bytes;
  }

  Path path() {
    return path;
  }

  Access access() {
    return access;
  }

  boolean writable() {
    return access == Access.READ_WRITE;
  }

  /** The SQLite URI of the file, with the parameters its access needs. */
  String uri() {
    return uri(
        path,
        switch (access) {
          case READ_WRITE -> Optional.empty();
          case READ_ONLY -> Optional.of("mode=ro");
          case IMMUTABLE -> Optional.of("immutable=1");
        });
  }

  /** A {@code file:} URI: a name with {@code ?}, {@code #} or {@code %} in it stays one name. */
  private static String uri(Path file, Optional<String> query) {
    try {
      return new URI("file", null, file.toString(), null).toASCIIString()
          + query.map(q -> "?" + q).orElse("");
    } catch (URISyntaxException e) {
      throw new StoreException(
          "the store path " + file + " cannot be named to SQLite: " + e.getMessage(), e);
    }
  }
}
