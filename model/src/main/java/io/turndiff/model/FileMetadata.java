package io.turndiff.model;

/**
 * What {@code stat} says about a file: enough to see that it changed even when its content was not
 * read.
 *
 * @param mode permission bits only ({@code 07777}); the type is {@link #type()}
 */
public record FileMetadata(
    FileType type, long size, long mtimeNanos, int mode, long inode, long nlink) {

  public FileMetadata {
    if (mode < 0 || mode > 07777) {
      throw new IllegalArgumentException(
          "mode holds permission bits only: " + Integer.toOctalString(mode));
    }
  }

  /**
   * Type, size, modification time and mode: equal fingerprints are how metadata-only records
   * compare.
   */
  public String fingerprint() {
    return type.code() + ":" + size + ":" + mtimeNanos + ":" + String.format("%04o", mode);
  }

  public boolean isExecutable() {
    return (mode & 0111) != 0;
  }
}
