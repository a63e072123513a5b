package io.turndiff.ownfiles;

/**
 * What any write to a file moves: its device, inode, size, and modification and change times in
 * nanoseconds (the change time is the one no user can set back).
 */
public record FileStamp(long device, long inode, long size, long mtimeNanos, long ctimeNanos) {

  public FileStamp {
    if (size < 0) {
      throw new IllegalArgumentException("a file's size is never negative: " + size);
    }
  }
}
