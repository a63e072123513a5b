package io.turndiff.hooks.install;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.ownfiles.AtomicFile;
import io.turndiff.ownfiles.OwnDirectory;
import io.turndiff.ownfiles.OwnFile;
import java.io.IOException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The user's own configuration files {@code turndiff hooks} edits: a runtime's settings in the
 * user's home or {@code $CODEX_HOME}, turndiff's installation record and backups. They are the
 * user's configuration, not a workspace's (a workspace's settings go through its boundary: {@link
 * WorkspaceSettings}), so they go through {@code io.turndiff.ownfiles}: each write is atomic
 * ({@link AtomicFile}, the file's mode kept) and a settings file that is a symbolic link (a
 * dotfiles checkout) is never replaced by a file: the write goes to the link's target, which the
 * caller names to the user.
 */
public final class ConfigFiles {

  static final Set<PosixFilePermission> PRIVATE_FILE = PosixFilePermissions.fromString("rw-------");
  static final Set<PosixFilePermission> PRIVATE_DIRECTORY = OwnDirectory.PRIVATE;
  static final Set<PosixFilePermission> SHARED_FILE = PosixFilePermissions.fromString("rw-r--r--");

  /** More than a runtime's settings file holds: a longer one is refused, not read. */
  private static final int BOUND = 16 * 1024 * 1024;

  private ConfigFiles() {}

  /** The file's bytes (through a link), or empty when there is no file. */
  static Optional<byte[]> read(Path file) {
    try {
      Optional<byte[]> bytes = OwnFile.of(file).read(BOUND);
      if (bytes.isEmpty() && OwnFile.of(file).isSymbolicLink()) {
        throw new CliException(
            ExitCode.USAGE,
            file + " is a symbolic link to a file that does not exist; nothing was written");
      }
      return bytes;
    } catch (IOException e) {
      throw new CliException(ExitCode.ERROR, "cannot read " + file + ": " + e.getMessage());
    }
  }

  /**
   * The file a write of {@code file} replaces: the file itself, or, when it or a directory above it
   * is a symbolic link, the file the links lead to (the links stay links). The caller names it to
   * the user when it differs from {@code file}.
   */
  static Path writeTarget(Path file) {
    Path absolute = file.toAbsolutePath().normalize();
    Path existing = absolute;
    while (existing != null && !OwnFile.of(existing).exists(LinkOption.NOFOLLOW_LINKS)) {
      existing = existing.getParent();
    }
    if (existing == null) {
      return absolute;
    }
    try {
      return OwnFile.of(existing).realPath().resolve(existing.relativize(absolute));
    } catch (IOException e) {
      throw new CliException(
          ExitCode.USAGE,
          existing
              + " is a symbolic link that leads nowhere ("
              + e.getMessage()
              + "); nothing was written");
    }
  }

  /**
   * Replaces {@code target} (a regular file or none) with {@code bytes}, the one way ({@link
   * AtomicFile}): it keeps the target's mode, or gets {@code modeIfNew}.
   */
  static void writeAtomically(Path target, byte[] bytes, Set<PosixFilePermission> modeIfNew) {
    try {
      OwnFile file = OwnFile.of(target);
      Set<PosixFilePermission> mode =
          file.exists(LinkOption.NOFOLLOW_LINKS)
              ? file.permissions(LinkOption.NOFOLLOW_LINKS)
              : modeIfNew;
      file.replace(bytes, mode);
    } catch (IOException e) {
      throw new CliException(ExitCode.ERROR, "cannot write " + target + ": " + e.getMessage());
    }
  }

  /** Makes the missing directories of {@code directory}, returns those it made, outermost first. */
  static List<Path> createDirectories(Path directory) {
    try {
      return OwnDirectory.of(directory).makeEach();
    } catch (IOException e) {
      throw new CliException(ExitCode.ERROR, "cannot create " + directory + ": " + e.getMessage());
    }
  }

  /** Removes those of {@code directories} (outermost first) that are empty, innermost first. */
  static void removeEmptyDirectories(List<Path> directories) {
    for (Path directory : directories.reversed()) {
      try {
        if (!OwnDirectory.of(directory).removeIfEmpty()) {
          return;
        }
      } catch (IOException e) {
        throw new CliException(
            ExitCode.ERROR, "cannot remove " + directory + ": " + e.getMessage());
      }
    }
  }

  static void delete(Path file) {
    try {
      OwnFile.of(file).deleteIfExists();
    } catch (IOException e) {
      throw new CliException(ExitCode.ERROR, "cannot remove " + file + ": " + e.getMessage());
    }
  }

  /** Writes a private copy {@code name} into {@code directory} (made 0700 when missing). */
  static Path backup(Path directory, String name, byte[] bytes) {
    try {
      if (!OwnDirectory.of(directory).isDirectory()) {
        createDirectories(directory.getParent());
        OwnDirectory.of(directory).createPrivate();
      }
      Path copy = directory.resolve(name);
      writeAtomically(copy, bytes, PRIVATE_FILE);
      return copy;
    } catch (IOException e) {
      throw new CliException(
          ExitCode.ERROR, "cannot back up into " + directory + ": " + e.getMessage());
    }
  }

  /** The real path {@code path} names now (every link resolved), or empty when it cannot. */
  static Optional<Path> realPath(Path path) {
    try {
      return Optional.of(OwnFile.of(path).realPath());
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  public static boolean isDirectory(Path path) {
    return OwnDirectory.of(path).isDirectory();
  }

  public static boolean exists(Path path) {
    return OwnFile.of(path).exists(LinkOption.NOFOLLOW_LINKS);
  }

  static boolean isSymbolicLink(Path path) {
    return OwnFile.of(path).isSymbolicLink();
  }

  static boolean isExecutableFile(Path file) {
    return OwnFile.of(file).isRegularFile() && OwnFile.of(file).isExecutable();
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JDK", e);
    }
  }
}
