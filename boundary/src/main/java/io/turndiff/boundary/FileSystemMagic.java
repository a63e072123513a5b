package io.turndiff.boundary;

import java.util.Map;

/**
 * The name of a file system from its {@code statfs} magic number: the name {@code /proc/mounts}
 * gives it, for the pseudo file systems {@link WorkspacePolicy} refuses and for the memory file
 * systems that share a number with one of them; any other as its number ({@code 0xef53}).
 *
 * <p>The numbers are {@code linux/magic.h}'s (Linux 6.1), except four the header does not export,
 * taken from the kernel file that defines each: configfs ({@code fs/configfs/mount.c}), fusectl
 * ({@code fs/fuse/control.c}, not FUSE's own {@code 0x65735546}), mqueue ({@code ipc/mqueue.c}) and
 * rpc_pipefs ({@code net/sunrpc/rpc_pipe.c}). devfs has none: it left the kernel in 2.6.18, long
 * before {@code statx}, which the boundary needs. The literals are {@code long}: as an {@code int},
 * {@code 0xf97cff8c} is negative and never equals {@code f_type}.
 *
 * <p>devtmpfs has no number of its own: it reports tmpfs's (ramfs's in a kernel without tmpfs), so
 * a root with either number is looked up by its mount instead ({@link FdHandle#fileSystemType}).
 */
final class FileSystemMagic {

  static final long TMPFS = 0x01021994L;
  static final long RAMFS = 0x858458f6L;

  private static final Map<Long, String> NAMES =
      Map.ofEntries(
          Map.entry(TMPFS, "tmpfs"),
          Map.entry(RAMFS, "ramfs"),
          Map.entry(0x9fa0L, "proc"),
          Map.entry(0x62656572L, "sysfs"),
          Map.entry(0x1cd1L, "devpts"),
          Map.entry(0x27e0ebL, "cgroup"),
          Map.entry(0x63677270L, "cgroup2"),
          Map.entry(0x73636673L, "securityfs"),
          Map.entry(0x64626720L, "debugfs"),
          Map.entry(0x74726163L, "tracefs"),
          Map.entry(0x6165676cL, "pstore"),
          Map.entry(0xcafe4a11L, "bpf"),
          Map.entry(0x62656570L, "configfs"),
          Map.entry(0x65735543L, "fusectl"),
          Map.entry(0xde5e81e4L, "efivarfs"),
          Map.entry(0xf97cff8cL, "selinuxfs"),
          Map.entry(0x19800202L, "mqueue"),
          Map.entry(0x42494e4dL, "binfmt_misc"),
          Map.entry(0x958458f6L, "hugetlbfs"),
          Map.entry(0x67596969L, "rpc_pipefs"),
          Map.entry(0x6e736673L, "nsfs"));

  private FileSystemMagic() {}

  /** The name of the file system whose magic number is {@code magic}, or the number in hex. */
  static String nameOf(long magic) {
    String name = NAMES.get(magic);
    return name != null ? name : "0x" + Long.toHexString(magic);
  }

  /** Whether {@code magic} is the number devtmpfs reports, shared with a memory file system. */
  static boolean sharedWithDevtmpfs(long magic) {
    return magic == TMPFS || magic == RAMFS;
  }
}
