package io.turndiff.store;

import io.turndiff.ownfiles.AtomicFile;
import io.turndiff.ownfiles.OwnDirectory;
import io.turndiff.ownfiles.OwnFile;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Optional;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.LibraryLoaderUtil;

/**
 * sqlite-jdbc's native library loaded from a copy kept in a folder of its own, instead of the copy
 * sqlite-jdbc writes into the temporary folder at every start (under a random name, read back and
 * compared byte by byte with the jar's, then deleted at exit: about a megabyte inflated twice and
 * written once per command, and a listing of the temporary folder for leftovers).
 *
 * <p>The folder is named by the {@value #FOLDER_PROPERTY} system property, which the launcher sets
 * to one beside the jar; without it sqlite-jdbc loads its library as it always does. The copy is
 * made once, whole under a temporary name and then renamed into place, so no process ever loads a
 * half-written one; it lives under a name holding sqlite-jdbc's version and the JVM's {@code
 * os.name} and {@code os.arch}, so another version of sqlite-jdbc makes a copy of its own.
 *
 * <p>The copy is found without asking sqlite-jdbc which of its platform folders this machine needs:
 * its answer ({@code OSInfo}) resolves every entry of {@code /proc/self/map_files} and starts
 * {@code uname -o} in a process of its own, at every start of every command, to tell musl and
 * Android from other Linux systems. That answer is asked only to make the copy. A musl and a glibc
 * system sharing the folder (one jar mounted in both) would share one copy: the one that cannot
 * load it has sqlite-jdbc extract its own, as without a folder. A copy made by another jar is not
 * looked at here (that would cost the jar's library read again): the launcher removes a folder
 * older than its jar, as it does its caches. When the copy cannot be made (a read-only folder),
 * sqlite-jdbc extracts its own as it always does.
 */
final class SqliteLibraryCopy {

  /** The system property naming the folder that keeps the copy. */
  static final String FOLDER_PROPERTY = "turndiff.sqlite.library";

  /** sqlite-jdbc's own properties: where its library is, its file name, its temporary folder. */
  static final String LIBRARY_PATH = "org.sqlite.lib.path";

  static final String LIBRARY_NAME = "org.sqlite.lib.name";
  static final String TEMPORARY_FOLDER = "org.sqlite.tmpdir";

  private SqliteLibraryCopy() {}

  /**
   * Points sqlite-jdbc at the copy in the folder {@value #FOLDER_PROPERTY} names, making it first
   * when needed; does nothing when the property is not set or sqlite-jdbc was already told where
   * its library is. Called before the first connection of the process.
   */
  static void useWhenAsked() {
    String folder = System.getProperty(FOLDER_PROPERTY);
    if (folder == null || folder.isBlank() || System.getProperty(LIBRARY_PATH) != null) {
      return;
    }
    use(Path.of(folder))
        .ifPresent(
            copy -> {
              System.setProperty(LIBRARY_PATH, copy.getParent().toString());
              System.setProperty(LIBRARY_NAME, copy.getFileName().toString());
              // sqlite-jdbc lists its temporary folder for leftovers of earlier extractions at its
              // first load: this one is small
              System.setProperty(TEMPORARY_FOLDER, copy.getParent().toString());
            });
  }

  /**
   * The copy of this platform's library in {@code folder}, made when it is missing; empty when the
   * jar has none for this platform or the copy cannot be made.
   */
  static Optional<Path> use(Path folder) {
    String name = LibraryLoaderUtil.getNativeLibName();
    Path copy =
        folder
            .resolve("sqlite-jdbc-" + SQLiteJDBCLoader.getVersion())
            .resolve(platform())
            .resolve(name)
            .toAbsolutePath();
    if (OwnFile.of(copy).isRegularFile(LinkOption.NOFOLLOW_LINKS)) {
      return Optional.of(copy);
    }
    URL library =
        SQLiteJDBCLoader.class.getResource(
            LibraryLoaderUtil.getNativeLibResourcePath() + "/" + name);
    if (library == null) {
      return Optional.empty();
    }
    try {
      make(library, copy);
      return Optional.of(copy);
    } catch (IOException | RuntimeException cannot) {
      // sqlite-jdbc extracts its own copy, as without a folder
      return Optional.empty();
    }
  }

  /**
   * The JVM's operating system and architecture as one folder name ({@code Linux-amd64}): what
   * tells one platform's copy from another's without starting a process.
   */
  private static String platform() {
    return (System.getProperty("os.name") + "-" + System.getProperty("os.arch"))
        .replaceAll("[^A-Za-z0-9._-]", "_");
  }

  /**
   * Writes the library whole beside {@code copy} and renames it there, the one way ({@link
   * AtomicFile}), once it has the size the jar's directory gives it.
   */
  private static void make(URL library, Path copy) throws IOException {
    OwnDirectory.of(copy.getParent()).make();
    byte[] bytes;
    try (InputStream in = library.openStream()) {
      bytes = in.readAllBytes();
    }
    URLConnection entry = library.openConnection();
    long size = entry.getContentLengthLong();
    if (size < 0 || bytes.length != size) {
      throw new IOException("the copy of " + library + " is " + bytes.length + " bytes");
    }
    OwnFile.of(copy).replace(bytes, AtomicFile.OWNER_ONLY);
  }
}
