package io.turndiff.boundary;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;

import io.turndiff.model.BoundaryKind;
import io.turndiff.model.WorkspacePath;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The handles where no file descriptor can be used (no native access, no libc table for the
 * architecture): the JDK's {@link SecureDirectoryStream}, each directory a stream opened from its
 * parent with {@code NOFOLLOW_LINKS}, so that a symlinked component is refused rather than
 * followed.
 *
 * <p>It is weaker than the {@link FdHandle}s, and every record it produces says which boundary took
 * it:
 *
 * <ul>
 *   <li>it cannot {@code fstat} an opened channel, so the inode is checked by name before and after
 *       the read (an inode swapped in and back between the checks could be read);
 *   <li>it cannot open without blocking, so an open runs on a helper thread with a deadline (a FIFO
 *       swapped in after the type check leaves that thread blocked, not the capture);
 *   <li>it cannot see {@code nlink} through the stream, so the stat comes from a by-name stat whose
 *       inode must match the stream's;
 *   <li>it cannot create directories or symlinks relative to a held directory: they are created at
 *       the root's path, verified through the held root, and moved into place;
 *   <li>it cannot sync a directory, so each new file is synced on its own;
 *   <li>names must be representable in the JVM's file name encoding ({@code sun.jnu.encoding}).
 * </ul>
 */
final class StreamHandle extends StreamDirectory implements RootHandle {

  final Path rootReal;
  final StatInfo rootStat;
  final Charset nameEncoding;
  final MountPoints mountPoints;
  final Supplier<String> temporaryNames;

  private StreamHandle(
      Path rootReal,
      SecureDirectoryStream<Path> root,
      StatInfo rootStat,
      Supplier<String> temporaryNames) {
    super(null, root, List.of());
    this.rootReal = rootReal;
    this.rootStat = rootStat;
    this.temporaryNames = temporaryNames;
    this.nameEncoding = Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
    this.mountPoints = MountPoints.under(rootReal);
  }

  // the root's stream is the handle: it stays open for the handle's life and closeRoot() closes it,
  // so it cannot be a try-with-resources
  @SuppressWarnings("StreamResourceLeak")
  static StreamHandle open(Path rootReal, Supplier<String> temporaryNames) {
    DirectoryStream<Path> stream;
    try {
      stream = Files.newDirectoryStream(rootReal);
    } catch (IOException e) {
      throw new BoundaryException(
          "cannot open the workspace root " + rootReal + ": " + e.getMessage());
    }
    if (!(stream instanceof SecureDirectoryStream<Path> secure)) {
      closeQuietly(stream);
      throw new UnsupportedOperationException("this platform has no SecureDirectoryStream");
    }
    try {
      Object heldKey =
          secure.getFileAttributeView(BasicFileAttributeView.class).readAttributes().fileKey();
      StatInfo stat = statOf(Files.readAttributes(rootReal, "unix:*", NOFOLLOW_LINKS));
      if (!DeviceNumber.sameInode(heldKey, stat)) {
        closeQuietly(secure);
        throw new BoundaryException(
            "the workspace root " + rootReal + " was replaced while it was opened");
      }
      return new StreamHandle(rootReal, secure, stat, temporaryNames);
    } catch (IOException e) {
      closeQuietly(secure);
      throw new BoundaryException(
          "cannot stat the workspace root " + rootReal + ": " + e.getMessage());
    }
  }

  /** A stat from the JDK's {@code unix:*} attributes, its device numbered as {@code statx} does. */
  static StatInfo statOf(Map<String, Object> unix) {
    return new StatInfo(
        (Integer) unix.get("mode"),
        ((Number) unix.get("nlink")).longValue(),
        ((Number) unix.get("ino")).longValue(),
        ((Number) unix.get("size")).longValue(),
        ((FileTime) unix.get("lastModifiedTime")).to(TimeUnit.NANOSECONDS),
        ((FileTime) unix.get("ctime")).to(TimeUnit.NANOSECONDS),
        DeviceNumber.fromStDev(((Number) unix.get("dev")).longValue()));
  }

  @Override
  StreamHandle root() {
    return this;
  }

  @Override
  public BoundaryKind kind() {
    return BoundaryKind.SECURE_DIRECTORY_STREAM;
  }

  @Override
  public StatInfo rootStat() {
    return rootStat;
  }

  /**
   * Empty: a directory stream has no descriptor to ask ({@link WorkspacePolicy} reads the mounts).
   */
  @Override
  public Optional<String> fileSystemType() {
    return Optional.empty();
  }

  @Override
  public Optional<Attempt<OpenedFile>> openBeneath(WorkspacePath path) {
    return Optional.empty();
  }

  @Override
  public Optional<Attempt<DirectoryHandle>> openDirectoryBeneath(WorkspacePath directory) {
    return Optional.empty();
  }

  @Override
  public void removeLeftover(Name temporary) {
    // a symlink is made at the root first and then moved beside its target: one a process killed in
    // between left is at the root under the same name
    javaName(temporary).ifPresent(name -> quietlyDelete(stream, name));
  }

  @Override
  public void close() {
    // the root stays open until closeRoot
  }

  @Override
  public void closeRoot() {
    closeQuietly(stream);
  }

  /** A name as a JDK path, or empty when its bytes cannot be represented in the name encoding. */
  Optional<Path> javaName(Name name) {
    String text = new String(name.raw(), nameEncoding);
    return Arrays.equals(text.getBytes(nameEncoding), name.raw())
        ? Optional.of(rootReal.getFileSystem().getPath(text))
        : Optional.empty();
  }

  Path absolute(List<byte[]> location) {
    Path result = rootReal;
    for (byte[] component : location) {
      result = result.resolve(new String(component, nameEncoding));
    }
    return result;
  }

  HandleFailure unrepresentable() {
    return new HandleFailure.Failed("the name is not representable in " + nameEncoding);
  }

  /** The one exception → failure mapping. */
  static HandleFailure failure(IOException e) {
    return switch (e) {
      case NoSuchFileException missing -> new HandleFailure.Missing();
      case FileAlreadyExistsException exists -> new HandleFailure.Exists();
      case DirectoryNotEmptyException notEmpty -> new HandleFailure.NotEmpty();
      case NotDirectoryException notDirectory -> new HandleFailure.NotDirectory();
      case FileSystemException fse when fse.getReason() != null ->
          new HandleFailure.Failed(fse.getReason());
      default -> new HandleFailure.Failed(String.valueOf(e.getMessage()));
    };
  }

  static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception ignored) {
      // nothing was written through it
    }
  }

  static void quietlyDelete(SecureDirectoryStream<Path> directory, Path name) {
    try {
      directory.deleteFile(name);
    } catch (IOException ignored) {
      // a temporary name of ours; nothing else refers to it
    }
  }

  static void deleteQuietly(Path made) {
    try {
      Files.deleteIfExists(made);
    } catch (IOException ignored) {
      // it was created a moment ago by this process and holds nothing
    }
  }

  static Set<PosixFilePermission> permissions(int mode) {
    Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
    PosixFilePermission[] bits = {
      PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE,
          PosixFilePermission.OTHERS_READ,
      PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE,
          PosixFilePermission.GROUP_READ,
      PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE,
          PosixFilePermission.OWNER_READ
    };
    for (int bit = 0; bit < bits.length; bit++) {
      if ((mode & (1 << bit)) != 0) {
        permissions.add(bits[bit]);
      }
    }
    return permissions;
  }

  /**
   * Moves {@code temporary}, just created at the root's path as {@code made}, into {@code parent}
   * as {@code name} if the held root really has it: null when done, else why not.
   */
  String adoptFromRoot(Path made, Path temporary, SecureDirectoryStream<Path> parent, Path name) {
    try {
      Object held =
          stream
              .getFileAttributeView(temporary, BasicFileAttributeView.class, NOFOLLOW_LINKS)
              .readAttributes()
              .fileKey();
      Object created =
          Files.readAttributes(made, BasicFileAttributes.class, NOFOLLOW_LINKS).fileKey();
      if (!held.equals(created)) {
        deleteQuietly(made);
        return "the workspace root's path no longer leads to the workspace";
      }
      stream.move(temporary, parent, name);
      return null;
    } catch (IOException e) {
      deleteQuietly(made);
      return e.getMessage();
    }
  }

  /** Whether {@code name} exists in {@code directory} (anything, a dangling link included). */
  static boolean nameTaken(SecureDirectoryStream<Path> directory, Path name) {
    try {
      directory
          .getFileAttributeView(name, BasicFileAttributeView.class, NOFOLLOW_LINKS)
          .readAttributes();
      return true;
    } catch (NoSuchFileException free) {
      return false;
    } catch (IOException unknown) {
      return true;
    }
  }
}
