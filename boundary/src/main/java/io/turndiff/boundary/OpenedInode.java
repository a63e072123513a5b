package io.turndiff.boundary;

import io.turndiff.model.FileType;
import io.turndiff.model.Reason;
import java.util.Optional;

/**
 * The check on an opened inode before any of its bytes is read: content is read only from a regular
 * file with exactly one link, on the root's device. Both boundary implementations apply it.
 */
final class OpenedInode {

  private OpenedInode() {}

  /** Why the inode must not be read, or empty when it may be. */
  static Optional<ReadOutcome> refusal(StatInfo stat, StatInfo root) {
    if (stat.device() != root.device()) {
      return Optional.of(
          new ReadOutcome.MetadataOnly(
              Optional.of(stat),
              Reason.ESCAPES_WORKSPACE,
              "the file is on another mount than the workspace root"));
    }
    FileType type = stat.type();
    if (type == FileType.DIRECTORY) {
      return Optional.of(
          new ReadOutcome.MetadataOnly(Optional.of(stat), Reason.DIRECTORY, "a directory"));
    }
    if (type != FileType.REGULAR) {
      return Optional.of(
          new ReadOutcome.MetadataOnly(
              Optional.of(stat), Reason.SPECIAL_FILE, describe(type) + " is never read"));
    }
    if (stat.nlink() > 1) {
      return Optional.of(
          new ReadOutcome.MetadataOnly(
              Optional.of(stat),
              Reason.HARDLINKED,
              "the inode has " + stat.nlink() + " links; another may be outside the workspace"));
    }
    return Optional.empty();
  }

  static String describe(FileType type) {
    return switch (type) {
      case FIFO -> "a FIFO";
      case SOCKET -> "a socket";
      case CHAR_DEVICE -> "a character device";
      case BLOCK_DEVICE -> "a block device";
      case DIRECTORY -> "a directory";
      case SYMLINK -> "a symlink";
      case REGULAR -> "a regular file";
      case UNKNOWN -> "a file of unknown type";
    };
  }
}
