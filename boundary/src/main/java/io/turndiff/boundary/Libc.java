package io.turndiff.boundary;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The libc calls the native boundary makes, through the Foreign Function &amp; Memory API. Every
 * call returns its result, or {@code -errno} when it failed; nothing here throws for a failed
 * system call.
 *
 * <p>{@code openat2} has no glibc wrapper on the project's machines and goes through {@code
 * syscall(2)}; everything else uses the libc wrappers, whose argument layouts are the same on the
 * two architectures {@link LinuxAbi} knows ({@code statx} fills a fixed layout, unlike {@code
 * struct stat}; {@code struct statfs} is fifteen longs on both).
 */
final class Libc {

  private static final int STATX_SIZE = 256;
  private static final long STATX_MASK = 0;
  private static final long STATX_ATTRIBUTES = 8;
  private static final long STATX_NLINK = 16;
  private static final long STATX_MODE = 28;
  private static final long STATX_INO = 32;
  private static final long STATX_SIZE_OFFSET = 40;
  private static final long STATX_CTIME = 96;
  private static final long STATX_MTIME = 112;
  private static final long STATX_DEV_MAJOR = 136;
  private static final long STATX_DEV_MINOR = 140;
  private static final long STATX_ATTRIBUTES_MASK = 56;
  private static final long STATX_ATTR_MOUNT_ROOT = 0x2000;
  private static final long STATX_MNT_ID_OFFSET = 144;

  /**
   * {@code struct statfs} of 64-bit glibc on x86_64 and aarch64 alike: fifteen eight-byte words,
   * {@code f_type} (a {@code long}: {@code __fsword_t}, {@code __SWORD_TYPE}) the first. Not so on
   * every architecture (s390x's {@code f_type} is 32 bits): one that {@link LinuxAbi} comes to know
   * must bring its own layout.
   */
  private static final long STATFS_SIZE = 120;

  private static final long STATFS_TYPE = 0;

  private final LinuxAbi abi;
  private final StructLayout captureLayout;
  private final VarHandle errno;
  private final MethodHandle syscall6;
  private final MethodHandle openat;
  private final MethodHandle statx;
  private final MethodHandle read;
  private final MethodHandle pread;
  private final MethodHandle write;
  private final MethodHandle close;
  private final MethodHandle fsync;
  private final MethodHandle syncfs;
  private final MethodHandle fstatfs;
  private final MethodHandle fchmod;
  private final MethodHandle mkdirat;
  private final MethodHandle unlinkat;
  private final MethodHandle renameat;
  private final MethodHandle renameat2;
  private final MethodHandle symlinkat;
  private final MethodHandle readlinkat;
  private final MethodHandle strerror;
  private final MethodHandle fdopendir;
  private final MethodHandle readdir;
  private final MethodHandle closedir;
  private final MethodHandle inotifyInit1;
  private final MethodHandle inotifyAddWatch;
  private final MethodHandle inotifyRmWatch;
  private final MethodHandle setpriority;

  /**
   * Absent from a libc older than glibc 2.27: then no anonymous file can be made, and nothing else
   * is lost.
   */
  private final Optional<MethodHandle> memfdCreate;

  private Libc(LinuxAbi abi) {
    this.abi = abi;
    Linker linker = Linker.nativeLinker();
    SymbolLookup libc = linker.defaultLookup();
    this.captureLayout = Linker.Option.captureStateLayout();
    this.errno = captureLayout.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    Linker.Option captureErrno = Linker.Option.captureCallState("errno");
    this.syscall6 =
        linker.downcallHandle(
            libc.findOrThrow("syscall"),
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG),
            captureErrno,
            Linker.Option.firstVariadicArg(1));
    this.openat =
        linker.downcallHandle(
            libc.findOrThrow("openat"),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT),
            captureErrno,
            Linker.Option.firstVariadicArg(3));
    this.statx =
        linker.downcallHandle(
            libc.findOrThrow("statx"),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS),
            captureErrno);
    this.read =
        linker.downcallHandle(
            libc.findOrThrow("read"),
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG),
            captureErrno);
    this.pread =
        linker.downcallHandle(
            libc.findOrThrow("pread64"),
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG),
            captureErrno);
    this.write =
        linker.downcallHandle(
            libc.findOrThrow("write"),
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG),
            captureErrno);
    this.close =
        linker.downcallHandle(
            libc.findOrThrow("close"), FunctionDescriptor.of(JAVA_INT, JAVA_INT), captureErrno);
    this.fsync =
        linker.downcallHandle(
            libc.findOrThrow("fsync"), FunctionDescriptor.of(JAVA_INT, JAVA_INT), captureErrno);
    this.syncfs =
        linker.downcallHandle(
            libc.findOrThrow("syncfs"), FunctionDescriptor.of(JAVA_INT, JAVA_INT), captureErrno);
    this.fstatfs =
        linker.downcallHandle(
            libc.findOrThrow("fstatfs"),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS),
            captureErrno);
    this.fchmod =
        linker.downcallHandle(
            libc.findOrThrow("fchmod"),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT),
            captureErrno);
    this.mkdirat =
        linker.downcallHandle(
            libc.findOrThrow("mkdirat"),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT),
            captureErrno);
    this.unlinkat =
        linker.downcallHandle(
            libc.findOrThrow("unlinkat"),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT),
            captureErrno);
    this.renameat =
        linker.downcallHandle(
            libc.findOrThrow("renameat"),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS),
            captureErrno);
    this.renameat2 =
        linker.downcallHandle(
            libc.findOrThrow("renameat2"),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT),
            captureErrno);
    this.symlinkat =
        linker.downcallHandle(
            libc.findOrThrow("symlinkat"),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS),
            captureErrno);
    this.readlinkat =
        linker.downcallHandle(
            libc.findOrThrow("readlinkat"),
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG),
            captureErrno);
    this.strerror =
        linker.downcallHandle(
            libc.findOrThrow("strerror"), FunctionDescriptor.of(ADDRESS, JAVA_INT));
    this.fdopendir =
        linker.downcallHandle(
            libc.findOrThrow("fdopendir"), FunctionDescriptor.of(ADDRESS, JAVA_INT), captureErrno);
    this.readdir =
        linker.downcallHandle(
            libc.findOrThrow("readdir64"), FunctionDescriptor.of(ADDRESS, ADDRESS), captureErrno);
    this.closedir =
        linker.downcallHandle(
            libc.findOrThrow("closedir"), FunctionDescriptor.of(JAVA_INT, ADDRESS), captureErrno);
    this.inotifyInit1 =
        linker.downcallHandle(
            libc.findOrThrow("inotify_init1"),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT),
            captureErrno);
    this.inotifyAddWatch =
        linker.downcallHandle(
            libc.findOrThrow("inotify_add_watch"),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT),
            captureErrno);
    this.setpriority =
        linker.downcallHandle(
            libc.findOrThrow("setpriority"),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT),
            captureErrno);
    this.inotifyRmWatch =
        linker.downcallHandle(
            libc.findOrThrow("inotify_rm_watch"),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT),
            captureErrno);
    this.memfdCreate =
        libc.find("memfd_create")
            .map(
                symbol ->
                    linker.downcallHandle(
                        symbol, FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), captureErrno));
  }

  /**
   * The bindings, or an exception saying why there are none: not Linux, an architecture without a
   * constant table, native access denied ({@code --illegal-native-access=deny} throws {@link
   * IllegalCallerException}), or a libc without one of the symbols.
   */
  static Libc load() {
    return Loaded.LIBC.orElseThrow(() -> new UnsupportedOperationException(Loaded.WHY_NOT));
  }

  /** The bindings are made once per JVM: making the downcall handles costs milliseconds. */
  private static final class Loaded {
    private static final Optional<Libc> LIBC;
    private static final String WHY_NOT;

    static {
      Optional<Libc> libc = Optional.empty();
      String whyNot = "";
      Optional<LinuxAbi> abi = LinuxAbi.current();
      if (abi.isEmpty()) {
        whyNot =
            "no native boundary for "
                + System.getProperty("os.name")
                + "/"
                + System.getProperty("os.arch");
      } else {
        try {
          libc = Optional.of(new Libc(abi.get()));
        } catch (IllegalCallerException | IllegalArgumentException | NoSuchElementException e) {
          whyNot = "native calls unavailable: " + e.getMessage();
        }
      }
      LIBC = libc;
      WHY_NOT = whyNot;
    }
  }

  LinuxAbi abi() {
    return abi;
  }

  NativeCall call() {
    return new NativeCall(captureLayout.byteSize());
  }

  private int errno(NativeCall call) {
    return (int) errno.get(call.errnoCapture(), 0L);
  }

  private int checked(NativeCall call, int result) {
    return result == -1 ? -errno(call) : result;
  }

  private long checked(NativeCall call, long result) {
    return result == -1 ? -errno(call) : result;
  }

  /** {@code openat2(dirfd, path, {flags, mode, resolve})}: an fd, or {@code -errno}. */
  int openat2(NativeCall call, int dirfd, byte[] path, long flags, long mode, long resolve) {
    MemorySegment how = call.allocate(24);
    how.set(JAVA_LONG, 0, flags);
    how.set(JAVA_LONG, 8, mode);
    how.set(JAVA_LONG, 16, resolve);
    try {
      long result =
          (long)
              syscall6.invokeExact(
                  call.errnoCapture(),
                  LinuxAbi.SYS_OPENAT2,
                  (long) dirfd,
                  call.cString(path),
                  how,
                  24L);
      return (int) checked(call, result);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  int openat(NativeCall call, int dirfd, byte[] path, int flags, int mode) {
    try {
      return checked(
          call,
          (int) openat.invokeExact(call.errnoCapture(), dirfd, call.cString(path), flags, mode));
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /**
   * {@code fstat} of an fd, through {@code statx(fd, "", AT_EMPTY_PATH)}; {@code -errno} as an
   * exception.
   */
  StatResult fstat(NativeCall call, int fd) {
    return statx(call, fd, new byte[0], LinuxAbi.AT_EMPTY_PATH | LinuxAbi.AT_SYMLINK_NOFOLLOW);
  }

  /** {@code lstat} of a name in a directory fd. */
  StatResult lstatAt(NativeCall call, int dirfd, byte[] name) {
    return statx(call, dirfd, name, LinuxAbi.AT_SYMLINK_NOFOLLOW);
  }

  /**
   * {@code stat} of a name in a directory fd, a symlink followed to what it finally reaches ({@code
   * fstatat} with no flags); an automount point there is not mounted by the look.
   */
  StatResult statFollowingAt(NativeCall call, int dirfd, byte[] name) {
    return statx(call, dirfd, name, LinuxAbi.AT_NO_AUTOMOUNT);
  }

  private StatResult statx(NativeCall call, int dirfd, byte[] path, int flags) {
    return statx(call, dirfd, call.cString(path), flags, call.allocate(STATX_SIZE));
  }

  /**
   * {@code statx} of a NUL-terminated name already in native memory, into a caller's (reused)
   * buffer.
   */
  private StatResult statx(
      NativeCall call, int dirfd, MemorySegment path, int flags, MemorySegment buffer) {
    int result;
    try {
      result =
          checked(
              call,
              (int)
                  statx.invokeExact(
                      call.errnoCapture(), dirfd, path, flags, LinuxAbi.STATX_BASIC_STATS, buffer));
    } catch (Throwable t) {
      throw rethrow(t);
    }
    if (result < 0) {
      return StatResult.failed(-result);
    }
    long mtimeSeconds = buffer.get(JAVA_LONG, STATX_MTIME);
    long mtimeNanos = Integer.toUnsignedLong(buffer.get(JAVA_INT, STATX_MTIME + 8));
    long ctimeSeconds = buffer.get(JAVA_LONG, STATX_CTIME);
    long ctimeNanos = Integer.toUnsignedLong(buffer.get(JAVA_INT, STATX_CTIME + 8));
    long device =
        (Integer.toUnsignedLong(buffer.get(JAVA_INT, STATX_DEV_MAJOR)) << 32)
            | Integer.toUnsignedLong(buffer.get(JAVA_INT, STATX_DEV_MINOR));
    return StatResult.of(
        new StatInfo(
            Short.toUnsignedInt(buffer.get(ValueLayout.JAVA_SHORT, STATX_MODE)),
            Integer.toUnsignedLong(buffer.get(JAVA_INT, STATX_NLINK)),
            buffer.get(JAVA_LONG, STATX_INO),
            buffer.get(JAVA_LONG, STATX_SIZE_OFFSET),
            Math.addExact(Math.multiplyExact(mtimeSeconds, 1_000_000_000L), mtimeNanos),
            Math.addExact(Math.multiplyExact(ctimeSeconds, 1_000_000_000L), ctimeNanos),
            device));
  }

  /**
   * Whether the inode open as {@code fd} is the root of a mount ({@code statx}'s {@code
   * STATX_ATTR_MOUNT_ROOT}): empty when the kernel does not say (before Linux 5.8) or the call
   * failed.
   */
  Optional<Boolean> isMountRoot(NativeCall call, int fd) {
    return statxOf(call, fd, LinuxAbi.STATX_BASIC_STATS)
        .filter(
            buffer -> (buffer.get(JAVA_LONG, STATX_ATTRIBUTES_MASK) & STATX_ATTR_MOUNT_ROOT) != 0)
        .map(buffer -> (buffer.get(JAVA_LONG, STATX_ATTRIBUTES) & STATX_ATTR_MOUNT_ROOT) != 0);
  }

  /**
   * The ID of the mount {@code fd} is on ({@code statx}'s {@code stx_mnt_id}, the first field of
   * its line in {@code /proc/self/mountinfo}): the mount the descriptor was opened through, the
   * upper one where two are stacked. Empty when the kernel does not say (before Linux 5.8) or the
   * call failed.
   */
  OptionalLong mountId(NativeCall call, int fd) {
    return statxOf(call, fd, LinuxAbi.STATX_MNT_ID)
        .filter(buffer -> (buffer.get(JAVA_INT, STATX_MASK) & LinuxAbi.STATX_MNT_ID) != 0)
        .map(buffer -> OptionalLong.of(buffer.get(JAVA_LONG, STATX_MNT_ID_OFFSET)))
        .orElse(OptionalLong.empty());
  }

  /** {@code statx} of the descriptor itself, asking for {@code mask}; empty when it failed. */
  private Optional<MemorySegment> statxOf(NativeCall call, int fd, int mask) {
    MemorySegment buffer = call.allocate(STATX_SIZE);
    int result;
    try {
      result =
          checked(
              call,
              (int)
                  statx.invokeExact(
                      call.errnoCapture(),
                      fd,
                      call.cString(new byte[0]),
                      LinuxAbi.AT_EMPTY_PATH | LinuxAbi.AT_SYMLINK_NOFOLLOW,
                      mask,
                      buffer));
    } catch (Throwable t) {
      throw rethrow(t);
    }
    return result < 0 ? Optional.empty() : Optional.of(buffer);
  }

  /** {@code memfd_create(name, flags)}: an anonymous file in memory, or {@code -errno}. */
  int memfdCreate(NativeCall call, byte[] name, int flags) {
    if (memfdCreate.isEmpty()) {
      return -LinuxAbi.ENOSYS;
    }
    try {
      return checked(
          call,
          (int) memfdCreate.get().invokeExact(call.errnoCapture(), call.cString(name), flags));
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long read(NativeCall call, int fd, MemorySegment buffer, long count) {
    try {
      return checked(call, (long) read.invokeExact(call.errnoCapture(), fd, buffer, count));
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /** {@code pread}: reads at {@code offset} without moving the fd's position. */
  long pread(NativeCall call, int fd, MemorySegment buffer, long count, long offset) {
    try {
      return checked(
          call, (long) pread.invokeExact(call.errnoCapture(), fd, buffer, count, offset));
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long write(NativeCall call, int fd, MemorySegment buffer, long count) {
    try {
      return checked(call, (long) write.invokeExact(call.errnoCapture(), fd, buffer, count));
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /** {@code inotify_init1(flags)}: an inotify descriptor, or {@code -errno}. */
  int inotifyInit1(NativeCall call, int flags) {
    try {
      return checked(call, (int) inotifyInit1.invokeExact(call.errnoCapture(), flags));
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /** {@code inotify_add_watch(fd, path, mask)}: a watch descriptor, or {@code -errno}. */
  int inotifyAddWatch(NativeCall call, int fd, byte[] path, int mask) {
    try {
      return checked(
          call,
          (int) inotifyAddWatch.invokeExact(call.errnoCapture(), fd, call.cString(path), mask));
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /**
   * {@code setpriority(PRIO_PROCESS, 0, nice)}: on Linux, the calling thread's nice value alone (a
   * thread is a task of its own to the scheduler, and {@code 0} names the calling one); {@code 0}
   * or {@code -errno}.
   */
  int setThisThreadsNice(NativeCall call, int nice) {
    try {
      return checked(
          call, (int) setpriority.invokeExact(call.errnoCapture(), LinuxAbi.PRIO_PROCESS, 0, nice));
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  int inotifyRmWatch(NativeCall call, int fd, int wd) {
    try {
      return checked(call, (int) inotifyRmWatch.invokeExact(call.errnoCapture(), fd, wd));
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  int close(NativeCall call, int fd) {
    try {
      return checked(call, (int) close.invokeExact(call.errnoCapture(), fd));
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  int fsync(NativeCall call, int fd) {
    try {
      return checked(call, (int) fsync.invokeExact(call.errnoCapture(), fd));
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /** {@code syncfs(2)}: writes back everything dirty on the file system that holds {@code fd}. */
  int syncfs(NativeCall call, int fd) {
    try {
      return checked(call, (int) syncfs.invokeExact(call.errnoCapture(), fd));
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /**
   * The magic number of the file system that holds {@code fd} ({@code fstatfs(2)}'s {@code f_type},
   * one of {@code linux/magic.h}'s: the kernel widens an unsigned 32-bit number, so it is never
   * negative), or {@code -errno}.
   */
  long fileSystemMagic(NativeCall call, int fd) {
    MemorySegment buffer = call.allocate(STATFS_SIZE);
    int result;
    try {
      result = checked(call, (int) fstatfs.invokeExact(call.errnoCapture(), fd, buffer));
    } catch (Throwable t) {
      throw rethrow(t);
    }
    return result < 0 ? result : buffer.get(JAVA_LONG, STATFS_TYPE);
  }

  int fchmod(NativeCall call, int fd, int mode) {
    try {
      return checked(call, (int) fchmod.invokeExact(call.errnoCapture(), fd, mode));
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  int mkdirat(NativeCall call, int dirfd, byte[] name, int mode) {
    try {
      return checked(
          call, (int) mkdirat.invokeExact(call.errnoCapture(), dirfd, call.cString(name), mode));
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  int unlinkat(NativeCall call, int dirfd, byte[] name, int flags) {
    try {
      return checked(
          call, (int) unlinkat.invokeExact(call.errnoCapture(), dirfd, call.cString(name), flags));
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  int renameat(NativeCall call, int fromDir, byte[] from, int toDir, byte[] to) {
    try {
      return checked(
          call,
          (int)
              renameat.invokeExact(
                  call.errnoCapture(), fromDir, call.cString(from), toDir, call.cString(to)));
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  int renameat2(NativeCall call, int fromDir, byte[] from, int toDir, byte[] to, int flags) {
    try {
      return checked(
          call,
          (int)
              renameat2.invokeExact(
                  call.errnoCapture(),
                  fromDir,
                  call.cString(from),
                  toDir,
                  call.cString(to),
                  flags));
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  int symlinkat(NativeCall call, byte[] target, int dirfd, byte[] name) {
    try {
      return checked(
          call,
          (int)
              symlinkat.invokeExact(
                  call.errnoCapture(), call.cString(target), dirfd, call.cString(name)));
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /** The text of the symlink {@code name} in {@code dirfd}, or {@code -errno} as the length. */
  LinkText readlinkat(NativeCall call, int dirfd, byte[] name) {
    long capacity = 4096;
    MemorySegment buffer = call.allocate(capacity);
    long length;
    try {
      length =
          checked(
              call,
              (long)
                  readlinkat.invokeExact(
                      call.errnoCapture(), dirfd, call.cString(name), buffer, capacity));
    } catch (Throwable t) {
      throw rethrow(t);
    }
    if (length < 0) {
      return new LinkText(null, (int) -length);
    }
    return new LinkText(buffer.asSlice(0, length).toArray(JAVA_BYTE), 0);
  }

  /** One name of a directory with its {@code lstat} (and its text, for a symlink). */
  record DirectoryEntry(byte[] name, StatResult stat, byte[] linkText) {}

  /**
   * The names in the directory open as {@code fd} (without {@code .} and {@code ..}), each with its
   * {@code lstat} taken relative to that same fd, and the text of each symlink; {@code fd} is
   * consumed (closed with the listing). Null when the listing failed.
   */
  List<DirectoryEntry> list(NativeCall call, int fd) {
    MemorySegment dir;
    try {
      dir = (MemorySegment) fdopendir.invokeExact(call.errnoCapture(), fd);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    if (dir.equals(MemorySegment.NULL)) {
      close(call, fd);
      return null;
    }
    List<DirectoryEntry> entries = new ArrayList<>();
    // one buffer for every lstat of the listing; names are passed where readdir left them
    // (NUL-terminated)
    MemorySegment statBuffer = call.allocate(STATX_SIZE);
    try {
      while (true) {
        MemorySegment entry;
        try {
          entry = (MemorySegment) readdir.invokeExact(call.errnoCapture(), dir);
        } catch (Throwable t) {
          throw rethrow(t);
        }
        if (entry.equals(MemorySegment.NULL)) {
          break;
        }
        // struct dirent64: d_ino 8, d_off 8, d_reclen 2, d_type 1, d_name (NUL-terminated, at most
        // 256)
        MemorySegment record = entry.reinterpret(DIRENT_NAME + 256);
        int length = 0;
        while (length < 256 && record.get(JAVA_BYTE, DIRENT_NAME + length) != 0) {
          length++;
        }
        byte[] name = record.asSlice(DIRENT_NAME, length).toArray(JAVA_BYTE);
        if ((length == 1 && name[0] == '.') || (length == 2 && name[0] == '.' && name[1] == '.')) {
          continue;
        }
        StatResult stat =
            statx(
                call,
                fd,
                record.asSlice(DIRENT_NAME, length + 1),
                LinuxAbi.AT_SYMLINK_NOFOLLOW,
                statBuffer);
        byte[] linkText = null;
        if (stat.ok() && (stat.stat().mode() & LinuxAbi.S_IFMT) == LinuxAbi.S_IFLNK) {
          LinkText text = readlinkat(call, fd, name);
          linkText = text.ok() ? text.bytes() : null;
        }
        entries.add(new DirectoryEntry(name, stat, linkText));
      }
    } finally {
      try {
        int ignored = (int) closedir.invokeExact(call.errnoCapture(), dir);
      } catch (Throwable t) {
        throw rethrow(t);
      }
    }
    return entries;
  }

  private static final long DIRENT_NAME = 19;

  /** A symlink's text, or the errno of the failed {@code readlinkat}. */
  record LinkText(byte[] bytes, int errno) {
    boolean ok() {
      return errno == 0;
    }
  }

  String describe(int errnoValue) {
    try {
      MemorySegment text = (MemorySegment) strerror.invokeExact(errnoValue);
      return text.reinterpret(256).getString(0, StandardCharsets.UTF_8)
          + " (errno "
          + errnoValue
          + ")";
    } catch (Throwable t) {
      return "errno " + errnoValue;
    }
  }

  private static RuntimeException rethrow(Throwable t) {
    if (t instanceof RuntimeException runtime) {
      return runtime;
    }
    if (t instanceof Error error) {
      throw error;
    }
    return new IllegalStateException("native call failed", t);
  }
}
