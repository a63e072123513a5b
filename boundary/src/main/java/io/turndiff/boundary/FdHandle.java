package io.turndiff.boundary;

import static io.turndiff.boundary.LinuxAbi.AT_FDCWD;
import static io.turndiff.boundary.LinuxAbi.EAGAIN;
import static io.turndiff.boundary.LinuxAbi.EEXIST;
import static io.turndiff.boundary.LinuxAbi.EINTR;
import static io.turndiff.boundary.LinuxAbi.ELOOP;
import static io.turndiff.boundary.LinuxAbi.ENOENT;
import static io.turndiff.boundary.LinuxAbi.ENOSYS;
import static io.turndiff.boundary.LinuxAbi.ENOTDIR;
import static io.turndiff.boundary.LinuxAbi.ENOTEMPTY;
import static io.turndiff.boundary.LinuxAbi.ENXIO;
import static io.turndiff.boundary.LinuxAbi.EPERM;
import static io.turndiff.boundary.LinuxAbi.EXDEV;
import static io.turndiff.boundary.LinuxAbi.O_CLOEXEC;
import static io.turndiff.boundary.LinuxAbi.O_NOCTTY;
import static io.turndiff.boundary.LinuxAbi.O_NONBLOCK;
import static io.turndiff.boundary.LinuxAbi.O_PATH;
import static io.turndiff.boundary.LinuxAbi.O_RDONLY;
import static io.turndiff.boundary.LinuxAbi.RESOLVE_BENEATH;
import static io.turndiff.boundary.LinuxAbi.RESOLVE_NO_MAGICLINKS;
import static io.turndiff.boundary.LinuxAbi.RESOLVE_NO_SYMLINKS;
import static io.turndiff.boundary.LinuxAbi.RESOLVE_NO_XDEV;

import io.turndiff.model.BoundaryKind;
import io.turndiff.model.FileType;
import io.turndiff.model.PathParser;
import io.turndiff.model.WorkspacePath;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The kernel-enforced handles: directories are file descriptors, and each name is resolved relative
 * to one.
 *
 * <ul>
 *   <li>{@link Resolution#OPENAT2}: {@code openat2} with {@code RESOLVE_BENEATH |
 *       RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV}, so no symlink, {@code ..},
 *       magic link or mount leads out, whatever is swapped in meanwhile; a whole path resolves in
 *       one call ({@link #openBeneath}).
 *   <li>{@link Resolution#OPENAT}: where {@code openat2} is missing or blocked (a seccomp filter),
 *       as Go's {@code os.Root} does: {@code openat(O_NOFOLLOW | O_DIRECTORY)} one component at a
 *       time, each directory then checked to be on the root's device and not a mount root ({@code
 *       STATX_ATTR_MOUNT_ROOT}, or the mount table read at open on kernels that do not say).
 * </ul>
 *
 * Opened files are checked by {@code fstat} of the opened descriptor before a byte is read ({@link
 * FileReader}).
 */
final class FdHandle extends FdDirectory implements RootHandle {

  /** How a name is resolved relative to a directory descriptor. */
  enum Resolution {
    OPENAT2,
    OPENAT
  }

  private static final long BENEATH_NOTHING_FOLLOWED =
      RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV;
  private static final int TRANSIENT_RETRIES = 16;

  /** The longest path the kernel takes, its terminating NUL included ({@code limits.h}). */
  private static final int PATH_MAX = 4096;

  static final int MAX_SCRATCH = 4 << 20;

  final Libc libc;
  private final Resolution resolution;
  private final StatInfo rootStat;
  private final Path rootReal;
  private final MountPoints mountPoints;

  private FdHandle(Libc libc, Resolution resolution, int rootFd, StatInfo rootStat, Path rootReal) {
    super(null, rootFd, List.of());
    this.libc = libc;
    this.resolution = resolution;
    this.rootStat = rootStat;
    this.rootReal = rootReal;
    // in the posix mode only the descriptor's own stat says whether it is a mount root
    this.mountPoints =
        resolution == Resolution.OPENAT && Portability.current().readsProc()
            ? MountPoints.under(rootReal)
            : MountPoints.none();
  }

  /**
   * Opens the root directory (its real path, with {@code O_NOFOLLOW}: a swap between {@code
   * realpath} and the open is refused) and, for {@link Resolution#OPENAT2}, proves that {@code
   * openat2} works here.
   *
   * @throws UnsupportedOperationException when this resolution is not available here; the caller
   *     falls back
   */
  static FdHandle open(Path rootReal, Resolution resolution) {
    Libc libc = Libc.load();
    byte[] name = PathParser.nameBytes(rootReal);
    try (NativeCall call = libc.call()) {
      int fd =
          libc.openat(
              call,
              AT_FDCWD,
              name,
              O_RDONLY | libc.abi().oDirectory() | libc.abi().oNoFollow() | O_CLOEXEC,
              0);
      if (fd < 0) {
        throw new BoundaryException(
            "cannot open the workspace root " + rootReal + ": " + libc.describe(-fd));
      }
      if (resolution == Resolution.OPENAT2) {
        int probe =
            libc.openat2(
                call, fd, new byte[] {'.'}, O_PATH | O_CLOEXEC, 0, BENEATH_NOTHING_FOLLOWED);
        if (probe < 0) {
          libc.close(call, fd);
          if (-probe == ENOSYS || -probe == EPERM) {
            throw new UnsupportedOperationException(
                "openat2 is not available: " + libc.describe(-probe));
          }
          throw new BoundaryException("cannot probe the workspace root: " + libc.describe(-probe));
        }
        libc.close(call, probe);
      }
      StatResult stat = libc.fstat(call, fd);
      if (!stat.ok()) {
        libc.close(call, fd);
        throw new BoundaryException(
            "cannot stat the workspace root: " + libc.describe(stat.errno()));
      }
      return new FdHandle(libc, resolution, fd, stat.stat(), rootReal);
    }
  }

  @Override
  FdHandle root() {
    return this;
  }

  @Override
  public BoundaryKind kind() {
    return resolution == Resolution.OPENAT2 ? BoundaryKind.OPENAT2 : BoundaryKind.OPENAT;
  }

  @Override
  public StatInfo rootStat() {
    return rootStat;
  }

  /**
   * The file system {@code fstatfs} of the root's own descriptor names: one system call on the very
   * directory held, where the mount table would be read and parsed whole, and would name the wrong
   * mount where one is stacked over another at the root's mount point (the JDK's {@code FileStore}
   * takes the first entry for that directory, the hidden one). Empty when the call fails, or when
   * neither the mount table nor the JDK can say which memory file system it is.
   */
  @Override
  public Optional<String> fileSystemType() {
    try (NativeCall call = libc.call()) {
      long magic = libc.fileSystemMagic(call, fd);
      if (magic < 0) {
        return Optional.empty();
      }
      if (FileSystemMagic.sharedWithDevtmpfs(magic)) {
        return typeOfRootMount(call, magic);
      }
      return Optional.of(FileSystemMagic.nameOf(magic));
    }
  }

  /**
   * The type the mount table gives the mount the root is on, found by its ID ({@code statx}'s
   * {@code STATX_MNT_ID}, the mount the descriptor was opened through): devtmpfs reports tmpfs's
   * number, and only the table tells the two apart. Read for a root on a memory file system only
   * ({@code /tmp} on some systems). In the posix mode, which reads nothing under {@code /proc}, and
   * before Linux 5.8, which has no mount IDs in {@code statx}, the JDK is asked instead.
   */
  private Optional<String> typeOfRootMount(NativeCall call, long magic) {
    if (Portability.current().readsProc()) {
      OptionalLong mount = libc.mountId(call, fd);
      Optional<String> type =
          mount.isPresent() ? MountTable.typeOfMount(mount.getAsLong()) : Optional.empty();
      if (type.isPresent()) {
        return type;
      }
    }
    return devtmpfsByTheJdk(magic);
  }

  /**
   * Whether the JDK's {@code FileStore} (which reads {@code /proc/mounts} for itself) names the
   * root's file system devtmpfs, believed only when it does: for two mounts stacked at one
   * directory it names the lower, hidden one, and the number already says a memory file system is
   * the one on top. So devtmpfs mounted over a tmpfs passes as tmpfs here, where mount IDs cannot
   * be had. Empty when the JDK cannot tell either (then the policy reports it).
   */
  private Optional<String> devtmpfsByTheJdk(long magic) {
    try {
      boolean devtmpfs = "devtmpfs".equals(Files.getFileStore(rootReal).type());
      return Optional.of(devtmpfs ? "devtmpfs" : FileSystemMagic.nameOf(magic));
    } catch (IOException unknown) {
      return Optional.empty();
    }
  }

  @Override
  public Optional<Attempt<OpenedFile>> openBeneath(WorkspacePath path) {
    // A path of PATH_MAX bytes or more is refused by the kernel (ENAMETOOLONG) before it resolves
    // anything: such a file is reached in its parent by the walker, one component at a time where
    // the parent is that long too, instead of being recorded as unreadable.
    if (resolution != Resolution.OPENAT2 || path.length() >= PATH_MAX) {
      return Optional.empty();
    }
    return Optional.of(openFile(this, path.bytes(), path.components()));
  }

  @Override
  public Optional<Attempt<DirectoryHandle>> openDirectoryBeneath(WorkspacePath directory) {
    if (resolution != Resolution.OPENAT2) {
      return Optional.empty();
    }
    return Optional.of(openDirectory(this, directory.bytes(), directory.components()));
  }

  @Override
  public void removeLeftover(Name temporary) {
    // everything is staged in the target's own directory
  }

  @Override
  public void close() {
    // the root stays open until closeRoot
  }

  @Override
  public void closeRoot() {
    try (NativeCall call = libc.call()) {
      libc.close(call, fd);
    }
  }

  // ---- resolution: the one place the two kinds differ

  /**
   * Opens {@code relative} (one name, or with OPENAT2 a whole path) in {@code dir} with {@code
   * flags}.
   */
  private int openIn(NativeCall call, FdDirectory dir, byte[] relative, int flags) {
    if (resolution == Resolution.OPENAT) {
      return libc.openat(call, dir.fd, relative, flags | libc.abi().oNoFollow(), 0);
    }
    int fd = -EAGAIN;
    for (int attempt = 0;
        attempt < TRANSIENT_RETRIES && (fd == -EAGAIN || fd == -EINTR);
        attempt++) {
      fd = libc.openat2(call, dir.fd, relative, flags, 0, BENEATH_NOTHING_FOLLOWED);
    }
    return fd;
  }

  /**
   * Why an fd opened by {@link Resolution#OPENAT} is refused: on another device, or the root of a
   * mount (a bind mount of the same file system has the same device). OPENAT2's {@code
   * RESOLVE_NO_XDEV} refused those already.
   */
  private Optional<HandleFailure> crossesMount(NativeCall call, int opened, List<byte[]> location) {
    if (resolution != Resolution.OPENAT) {
      return Optional.empty();
    }
    StatResult stat = libc.fstat(call, opened);
    if (!stat.ok()) {
      return Optional.of(new HandleFailure.Failed("fstat: " + libc.describe(stat.errno())));
    }
    boolean mountRoot =
        libc.isMountRoot(call, opened)
            .orElseGet(() -> mountPoints.isMountPoint(absolute(location)));
    return stat.stat().device() != rootStat.device() || mountRoot
        ? Optional.of(new HandleFailure.OtherMount())
        : Optional.empty();
  }

  private Path absolute(List<byte[]> location) {
    Path path = rootReal;
    for (byte[] component : location) {
      path = path.resolve(new String(component, StandardCharsets.UTF_8));
    }
    return path;
  }

  Attempt<DirectoryHandle> openDirectory(FdDirectory dir, byte[] relative, List<byte[]> location) {
    try (NativeCall call = libc.call()) {
      int opened = openIn(call, dir, relative, O_PATH | libc.abi().oDirectory() | O_CLOEXEC);
      if (opened == -ENOTDIR && resolution == Resolution.OPENAT) {
        // O_PATH | O_NOFOLLOW opens a symlink itself, which O_DIRECTORY then refuses as not a
        // directory
        StatResult there = libc.lstatAt(call, dir.fd, relative);
        return there.ok() && there.stat().type() == FileType.SYMLINK
            ? Attempt.refused(new HandleFailure.Symlink())
            : Attempt.refused(new HandleFailure.NotDirectory());
      }
      if (opened < 0) {
        return Attempt.refused(failure(-opened));
      }
      Optional<HandleFailure> mount = crossesMount(call, opened, location);
      if (mount.isPresent()) {
        libc.close(call, opened);
        return Attempt.refused(mount.get());
      }
      return Attempt.done(new FdDirectory(this, opened, location));
    }
  }

  Attempt<OpenedFile> openFile(FdDirectory dir, byte[] relative, List<byte[]> location) {
    NativeCall call = libc.call();
    int opened = openIn(call, dir, relative, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (opened < 0) {
      call.close();
      return Attempt.refused(failure(-opened));
    }
    Optional<HandleFailure> mount = crossesMount(call, opened, location);
    StatResult stat = mount.isPresent() ? null : libc.fstat(call, opened);
    if (mount.isPresent() || !stat.ok()) {
      libc.close(call, opened);
      call.close();
      return Attempt.refused(
          mount.orElseGet(() -> new HandleFailure.Failed("fstat: " + libc.describe(stat.errno()))));
    }
    return Attempt.done(new FdOpenedFile(libc, call, opened, stat.stat()));
  }

  /** The one errno → failure mapping. */
  HandleFailure failure(int errno) {
    return switch (errno) {
      case ENOENT -> new HandleFailure.Missing();
      case ENOTDIR -> new HandleFailure.NotDirectory();
      case ELOOP -> new HandleFailure.Symlink();
      case EXDEV -> new HandleFailure.OtherMount();
      case EEXIST -> new HandleFailure.Exists();
      case ENOTEMPTY -> new HandleFailure.NotEmpty();
      case ENXIO -> new HandleFailure.NoDevice();
      default -> new HandleFailure.Failed(libc.describe(errno));
    };
  }

  Attempt<Void> result(int returned) {
    return returned < 0 ? Attempt.refused(failure(-returned)) : Attempt.done();
  }

  // ---- files

  /** A file descriptor opened for reading; its native memory lives as long as it does. */
  static final class FdOpenedFile implements OpenedFile {
    private final Libc libc;
    private final NativeCall call;
    private final int fd;
    private final StatInfo opened;
    private MemorySegment scratch;

    FdOpenedFile(Libc libc, NativeCall call, int fd, StatInfo opened) {
      this.libc = libc;
      this.call = call;
      this.fd = fd;
      this.opened = opened;
    }

    @Override
    public StatInfo opened() {
      return opened;
    }

    @Override
    public Optional<StatInfo> now() {
      StatResult now = libc.fstat(call, fd);
      return now.ok() ? Optional.of(now.stat()) : Optional.empty();
    }

    @Override
    public int read(ByteBuffer into, long position) throws IOException {
      int wanted = Math.min(into.remaining(), MAX_SCRATCH);
      if (scratch == null || scratch.byteSize() < wanted) {
        scratch = call.allocate(Math.max(wanted, 1));
      }
      while (true) {
        long n = libc.pread(call, fd, scratch, wanted, position);
        if (n == -EINTR || n == -EAGAIN) {
          continue;
        }
        if (n < 0) {
          throw new IOException("read: " + libc.describe((int) -n));
        }
        if (n == 0 && wanted > 0) {
          return -1;
        }
        into.put(scratch.asSlice(0, n).asByteBuffer());
        return (int) n;
      }
    }

    @Override
    public void close() {
      libc.close(call, fd);
      call.close();
    }
  }

  /** A new file's descriptor, open for writing. */
  static final class FdNewFile implements NewFile {
    private final Libc libc;
    private final NativeCall call;
    private final int fd;
    private MemorySegment scratch;

    FdNewFile(Libc libc, NativeCall call, int fd) {
      this.libc = libc;
      this.call = call;
      this.fd = fd;
    }

    @Override
    public void write(ByteBuffer from) throws IOException {
      while (from.hasRemaining()) {
        int length = Math.min(from.remaining(), MAX_SCRATCH);
        if (scratch == null || scratch.byteSize() < length) {
          scratch = call.allocate(length);
        }
        ByteBuffer chunk = from.slice(from.position(), length);
        scratch.asByteBuffer().put(chunk);
        long written = 0;
        while (written < length) {
          long n = libc.write(call, fd, scratch.asSlice(written), length - written);
          if (n == -EINTR || n == -EAGAIN) {
            continue;
          }
          if (n < 0) {
            throw new IOException(libc.describe((int) -n));
          }
          written += n;
        }
        from.position(from.position() + length);
      }
    }

    @Override
    public void chmod(int mode) throws IOException {
      int changed = libc.fchmod(call, fd, mode & 07777);
      if (changed < 0) {
        throw new IOException(libc.describe(-changed));
      }
    }

    @Override
    public void sync() throws IOException {
      int synced = libc.fsync(call, fd);
      if (synced < 0) {
        throw new IOException(libc.describe(-synced));
      }
    }

    @Override
    public Optional<StatInfo> now() {
      StatResult now = libc.fstat(call, fd);
      return now.ok() ? Optional.of(now.stat()) : Optional.empty();
    }

    @Override
    public void close() {
      libc.close(call, fd);
      call.close();
    }
  }
}
