package io.turndiff.boundary;

import java.util.Optional;

/**
 * The Linux constants the boundary needs, for the architecture the JVM runs on. Open flags differ
 * between x86_64 and aarch64 ({@code O_DIRECTORY}, {@code O_NOFOLLOW}); errno values, {@code AT_*}
 * flags, file type bits and the {@code openat2} syscall number (437: numbers from 424 on are shared
 * by every architecture) do not.
 */
record LinuxAbi(String arch, int oDirectory, int oNoFollow) {

  static final long SYS_OPENAT2 = 437;

  /** {@code setpriority}'s {@code which} for a task: with {@code who} 0, the calling thread. */
  static final int PRIO_PROCESS = 0;

  static final int O_RDONLY = 0;
  static final int O_WRONLY = 01;
  static final int O_CREAT = 0100;
  static final int O_EXCL = 0200;
  static final int O_NOCTTY = 0400;
  static final int O_NONBLOCK = 04000;
  static final int O_CLOEXEC = 02000000;
  static final int O_PATH = 010000000;

  static final long RESOLVE_NO_XDEV = 0x01;
  static final long RESOLVE_NO_MAGICLINKS = 0x02;
  static final long RESOLVE_NO_SYMLINKS = 0x04;
  static final long RESOLVE_BENEATH = 0x08;

  static final int AT_FDCWD = -100;
  static final int AT_SYMLINK_NOFOLLOW = 0x100;
  static final int AT_REMOVEDIR = 0x200;
  static final int AT_NO_AUTOMOUNT = 0x800;
  static final int AT_EMPTY_PATH = 0x1000;

  static final int STATX_BASIC_STATS = 0x7ff;
  static final int STATX_MNT_ID = 0x1000;

  static final int MFD_CLOEXEC = 0x1;

  static final int S_IFMT = 0170000;
  static final int S_IFSOCK = 0140000;
  static final int S_IFLNK = 0120000;
  static final int S_IFREG = 0100000;
  static final int S_IFBLK = 060000;
  static final int S_IFDIR = 040000;
  static final int S_IFCHR = 020000;
  static final int S_IFIFO = 010000;

  static final int EPERM = 1;
  static final int ENOENT = 2;
  static final int EINTR = 4;
  static final int ENXIO = 6;
  static final int EAGAIN = 11;
  static final int EACCES = 13;
  static final int EEXIST = 17;
  static final int EXDEV = 18;
  static final int ENOTDIR = 20;
  static final int EISDIR = 21;
  static final int ENOSPC = 28;
  static final int ENAMETOOLONG = 36;
  static final int ENOSYS = 38;
  static final int ENOTEMPTY = 39;
  static final int ELOOP = 40;
  static final int EOPNOTSUPP = 95;

  private static final LinuxAbi X86_64 = new LinuxAbi("x86_64", 0200000, 0400000);
  private static final LinuxAbi AARCH64 = new LinuxAbi("aarch64", 040000, 0100000);

  /**
   * The ABI of this JVM's architecture, or empty on an architecture the boundary has no table for.
   */
  static Optional<LinuxAbi> current() {
    if (!System.getProperty("os.name", "").equals("Linux")) {
      return Optional.empty();
    }
    return switch (System.getProperty("os.arch", "")) {
      case "amd64", "x86_64" -> Optional.of(X86_64);
      case "aarch64", "arm64" -> Optional.of(AARCH64);
      default -> Optional.empty();
    };
  }
}
