package io.turndiff.boundary;

import io.turndiff.model.FileMetadata;
import io.turndiff.model.FileType;

/**
 * What {@code stat} said about one inode (the fallback boundary fills it from the JDK's {@code
 * unix:*} attributes).
 */
record StatInfo(
    int mode, long nlink, long inode, long size, long mtimeNanos, long ctimeNanos, long device) {

  FileType type() {
    return switch (mode & LinuxAbi.S_IFMT) {
      case LinuxAbi.S_IFREG -> FileType.REGULAR;
      case LinuxAbi.S_IFDIR -> FileType.DIRECTORY;
      case LinuxAbi.S_IFLNK -> FileType.SYMLINK;
      case LinuxAbi.S_IFIFO -> FileType.FIFO;
      case LinuxAbi.S_IFSOCK -> FileType.SOCKET;
      case LinuxAbi.S_IFCHR -> FileType.CHAR_DEVICE;
      case LinuxAbi.S_IFBLK -> FileType.BLOCK_DEVICE;
      default -> FileType.UNKNOWN;
    };
  }

  FileMetadata metadata() {
    return new FileMetadata(type(), size, mtimeNanos, mode & 07777, inode, nlink);
  }

  /** Same inode, size, modification and change time: nothing wrote to the file in between. */
  boolean unchangedSince(StatInfo earlier) {
    return inode == earlier.inode
        && device == earlier.device
        && size == earlier.size
        && mtimeNanos == earlier.mtimeNanos
        && ctimeNanos == earlier.ctimeNanos;
  }
}
