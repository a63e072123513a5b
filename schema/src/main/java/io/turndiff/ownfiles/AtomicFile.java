package io.turndiff.ownfiles;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * Writes one of turndiff's own files so that a reader, or the machine after a crash, finds the old
 * file or the new one whole, never a part of either, and no file of the writer's left beside it:
 *
 * <ol>
 *   <li>a temporary file in the target's directory (so the rename stays on one file system), named
 *       {@code .<target's name>.<random>.turndiff-tmp} and made owner-only ({@code 0600}) as it is
 *       created, so no one else can open it while it is written;
 *   <li>the bytes written (or the file another library writes, {@link Content}), the file given its
 *       final mode, then synced ({@code fsync}): content and mode are on the disk before the file
 *       has its name;
 *   <li>the commit point: renamed over the target ({@link #replace}), or linked to the target's
 *       name only if no file has it ({@link #createIfAbsent}, where the first of two writers wins);
 *   <li>the directory synced, so that the new name survives a crash too.
 * </ol>
 *
 * <p>If any step fails the temporary file is removed and the target is left as it was; the step's
 * failure is what is thrown (a failure to remove the temporary file is added to it as suppressed,
 * never thrown in its place). A writer killed between the first step and the last ({@code kill -9},
 * a crash) leaves its temporary file, and for a new SQLite database its {@code -wal}, {@code -shm}
 * or {@code -journal}: the next write of the same target removes them ({@link #STALE_AFTER}). What
 * this does not protect: the target's directory itself (the caller chose it, and checks it when it
 * may be another user's), and a reader that opened the old file, which keeps reading the old file.
 */
public final class AtomicFile {

  /** {@code rw-------}: the mode of a file only its owner may read, such as a token. */
  public static final Set<PosixFilePermission> OWNER_ONLY =
      PosixFilePermissions.fromString("rw-------");

  /** What a temporary file's name ends in, so a left one (a killed process) is known for ours. */
  public static final String TEMPORARY_SUFFIX = ".turndiff-tmp";

  /**
   * How old a temporary file of the same target must be to be taken for a killed writer's. A live
   * writer keeps its temporary file for the time of one write and one fsync (milliseconds; the
   * store's new database, the longest, well under a second), so ten minutes are never a live one,
   * and the age needs no process id, which another host or PID namespace sharing the directory
   * would make meaningless.
   */
  static final Duration STALE_AFTER = Duration.ofMinutes(10);

  /** What SQLite adds to a database's name for its side files, which a killed create may leave. */
  private static final List<String> SIDE_FILES = List.of("", "-wal", "-shm", "-journal");

  private AtomicFile() {}

  /**
   * Writes the content of a new file by its path: for a file another library writes, such as a new
   * SQLite database. It must leave the file closed, and nothing else beside it.
   */
  @FunctionalInterface
  public interface Content {
    void writeTo(Path temporary) throws IOException;
  }

  /** Puts the synced temporary file in the target's place; false when it could not have it. */
  @FunctionalInterface
  private interface Commit {
    boolean into(Path temporary, Path target) throws IOException;
  }

  /** Replaces {@code target} (or creates it) with {@code bytes}, with file mode {@code mode}. */
  public static void replace(Path target, byte[] bytes, Set<PosixFilePermission> mode)
      throws IOException {
    write(target, mode, bytesOf(bytes), AtomicFile::rename);
  }

  /**
   * Creates {@code target} with {@code bytes} and mode {@code mode} unless a file has its name;
   * returns whether this call made it. Two processes may call this at once for the same file: one
   * makes it, the other gets false and reads the one made.
   */
  public static boolean createIfAbsent(Path target, byte[] bytes, Set<PosixFilePermission> mode)
      throws IOException {
    return write(target, mode, bytesOf(bytes), AtomicFile::link);
  }

  /** {@link #createIfAbsent(Path, byte[], Set)} with a file {@code content} writes. */
  public static boolean createIfAbsent(Path target, Set<PosixFilePermission> mode, Content content)
      throws IOException {
    return write(target, mode, content, AtomicFile::link);
  }

  private static boolean write(
      Path target, Set<PosixFilePermission> mode, Content content, Commit commit)
      throws IOException {
    Path directory = target.toAbsolutePath().getParent();
    String prefix = "." + target.getFileName() + ".";
    removeLeftovers(directory, prefix);
    Path temporary =
        Files.createTempFile(
            directory, prefix, TEMPORARY_SUFFIX, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
    boolean committed;
    try {
      content.writeTo(temporary);
      syncFile(temporary, mode);
      committed = commit.into(temporary, target);
    } catch (Throwable failure) {
      // the partial file goes; the failure that stopped the write is the one the caller sees
      try {
        Files.deleteIfExists(temporary);
      } catch (IOException cleanup) {
        failure.addSuppressed(cleanup);
      }
      throw failure;
    }
    // after a rename there is nothing under this name, after a link a second name of the target
    Files.deleteIfExists(temporary);
    if (committed) {
      // the directory's fsync: the names made and removed in it survive a crash
      force(directory);
    }
    return committed;
  }

  /**
   * Removes what killed writers of the same target left in {@code directory}: entries named {@code
   * <prefix><random>.turndiff-tmp}, or that with a SQLite side file's ending, not changed for
   * {@link #STALE_AFTER}. Only those names, never through a link (a link is removed as itself), and
   * never another target's.
   */
  private static void removeLeftovers(Path directory, String prefix) throws IOException {
    FileTime staleBefore = FileTime.from(Instant.now().minus(STALE_AFTER));
    try (DirectoryStream<Path> ours =
        Files.newDirectoryStream(directory, entry -> isTemporaryName(entry, prefix))) {
      for (Path left : ours) {
        BasicFileAttributes attributes;
        try {
          attributes =
              Files.readAttributes(left, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException gone) {
          continue;
        }
        if (attributes.lastModifiedTime().compareTo(staleBefore) < 0) {
          Files.deleteIfExists(left);
        }
      }
    }
  }

  private static boolean isTemporaryName(Path entry, String prefix) {
    String name = entry.getFileName().toString();
    return name.startsWith(prefix)
        && SIDE_FILES.stream().anyMatch(side -> name.endsWith(TEMPORARY_SUFFIX + side));
  }

  private static Content bytesOf(byte[] bytes) {
    return temporary -> {
      try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
      }
    };
  }

  /**
   * Gives the written file its mode, then syncs it ({@code fsync}: content and metadata, the mode
   * included), before it has its name.
   */
  private static void syncFile(Path file, Set<PosixFilePermission> mode) throws IOException {
    if (!mode.equals(OWNER_ONLY)) {
      Files.setPosixFilePermissions(file, mode);
    }
    force(file);
  }

  private static void force(Path path) throws IOException {
    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }

  /** rename(2): the target's old content or the new, never neither. */
  private static boolean rename(Path temporary, Path target) throws IOException {
    Files.move(
        temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    return true;
  }

  /** link(2) never replaces a name: the first whole file to get it keeps it. */
  private static boolean link(Path temporary, Path target) throws IOException {
    try {
      Files.createLink(target, temporary);
      return true;
    } catch (FileAlreadyExistsException another) {
      return false;
    }
  }
}
