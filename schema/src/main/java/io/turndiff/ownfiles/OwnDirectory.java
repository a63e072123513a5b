package io.turndiff.ownfiles;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A directory of turndiff's own, by its name: the store's folder, the service's run directory, the
 * folder of sqlite-jdbc's library copy, the folders of the user's runtime settings and of
 * turndiff's backups, an installed program's tree. Made with its mode from its creation (a folder
 * only its owner may enter, {@link #PRIVATE}, where turndiff keeps anything another user must not
 * read or replace), listed, and removed without following a link.
 *
 * <p>What this does not protect: as {@link OwnFile}, names are resolved from the root each time;
 * the caller checks a directory that may be another user's ({@link OwnFile#attributes}, {@link
 * OwnFile#ownedByThisUser}) before it trusts what is in it.
 */
public final class OwnDirectory {

  /** {@code rwx------}: a directory only its owner may list, enter or write in. */
  public static final Set<PosixFilePermission> PRIVATE =
      PosixFilePermissions.fromString("rwx------");

  private final Path path;

  private OwnDirectory(Path path) {
    this.path = path;
  }

  public static OwnDirectory of(Path path) {
    return new OwnDirectory(path);
  }

  /** A new, empty directory in the system's temporary folder, its name starting {@code prefix}. */
  public static OwnDirectory temporary(String prefix) throws IOException {
    return new OwnDirectory(Files.createTempDirectory(prefix));
  }

  public Path path() {
    return path;
  }

  /** Its name, as a file (for what is asked of a name: attributes, owner, mode). */
  public OwnFile asFile() {
    return OwnFile.of(path);
  }

  /** Whether it is a directory (through links unless {@code options} say not to follow). */
  public boolean isDirectory(LinkOption... options) {
    return Files.isDirectory(path, options);
  }

  /** Makes it and each missing directory above it, in the process's default mode. */
  public OwnDirectory make() throws IOException {
    Files.createDirectories(path);
    return this;
  }

  /**
   * Makes it and each missing directory above it, each one it makes {@link #PRIVATE} from its
   * creation; one that exists is left as it is.
   */
  public OwnDirectory makePrivate() throws IOException {
    Files.createDirectories(path, PosixFilePermissions.asFileAttribute(PRIVATE));
    return this;
  }

  /**
   * Makes it (its parent must exist), {@link #PRIVATE} from its creation; false when a name is
   * there already, which is left as it is for the caller to check.
   */
  public boolean createPrivate() throws IOException {
    try {
      Files.createDirectory(path, PosixFilePermissions.asFileAttribute(PRIVATE));
      return true;
    } catch (FileAlreadyExistsException existing) {
      return false;
    }
  }

  /**
   * Makes each missing directory from the outermost down to it, in the process's default mode;
   * returns those it made, outermost first, so that a caller can remove them again.
   */
  public List<Path> makeEach() throws IOException {
    List<Path> missing = new ArrayList<>();
    for (Path at = path.toAbsolutePath();
        at != null && !Files.exists(at, LinkOption.NOFOLLOW_LINKS);
        at = at.getParent()) {
      missing.addFirst(at);
    }
    for (Path made : missing) {
      Files.createDirectory(made);
    }
    return missing;
  }

  /** The names in it matching {@code glob}; none when it is missing or not a directory. */
  public List<Path> list(String glob) throws IOException {
    List<Path> found = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(path, glob)) {
      entries.forEach(found::add);
    } catch (NoSuchFileException | NotDirectoryException none) {
      return List.of();
    }
    return found;
  }

  /** Removes it when it is empty; false when it is not (it stays), true when gone or removed. */
  public boolean removeIfEmpty() throws IOException {
    try {
      Files.deleteIfExists(path);
      return true;
    } catch (DirectoryNotEmptyException notEmpty) {
      return false;
    }
  }

  /**
   * Removes it and everything under it: a link in it is removed as a link, never followed. Nothing
   * when it is missing.
   */
  public void removeTree() throws IOException {
    if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    Files.walkFileTree(
        path,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attributes)
              throws IOException {
            Files.delete(file);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult postVisitDirectory(Path directory, IOException failure)
              throws IOException {
            if (failure != null && !(failure instanceof NoSuchFileException)) {
              throw failure;
            }
            Files.delete(directory);
            return FileVisitResult.CONTINUE;
          }
        });
  }
}
