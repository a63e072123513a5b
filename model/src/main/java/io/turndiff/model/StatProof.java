package io.turndiff.model;

/**
 * The stat fields that prove a path unchanged without reading it, as git's index and JGit's {@code
 * DirCacheEntry} keep them: type, size, modification and change times (ns), inode, permission bits
 * and link count. The change time is the one no user can set ({@code touch -d} moves it to now),
 * the inode sees a file replaced by a rename, the link count a hardlink made to it.
 *
 * <p>Equal stat fields are not enough on their own: see {@link #provesUnchangedSince} and {@link
 * #RACY_WINDOW_NANOS}.
 *
 * @param ctimeNanos the change time; 0 when it is not known to belong to the content indexed (no
 *     stat has it, so the path is read again)
 * @param mode permission bits only ({@code 07777}); the type is {@link #type()}
 */
public record StatProof(
    FileType type, long size, long mtimeNanos, long ctimeNanos, long inode, int mode, long nlink) {

  /**
   * A file modified within this much before the scan that indexed it is <em>racy</em>: its stat
   * cannot prove it unchanged, so the next scan reads it again (git's "racily clean" entries,
   * JGit's {@code FileSnapshot.isRacyClean} and {@code DirCacheEntry.mightBeRacilyClean}).
   *
   * <p>The window must cover how far behind the clock a write's timestamp can fall (the kernel
   * stamps files from a coarse clock that moves once per tick), with JGit's margin: 2.5 times what
   * was measured, below 100 ms. Measured by {@code
   * StatProofTest#racyWindowCoversThisFileSystemsTimestampTick} on the project's machine (ext4,
   * Linux 6.18, 2 cores under load): <b>stamps lag the clock by up to 3.6 to 3.8 ms</b> (four
   * runs), one 4 ms jiffy ({@code CONFIG_HZ=250}); the finest step an mtime moved by was 0.16 to
   * 0.56 ms (since Linux 6.13 a file whose times were looked at gets a fine-grained stamp at its
   * next change). Kernels at {@code CONFIG_HZ=100} tick every 10 ms: 25 ms with the margin, still
   * inside. FAT stamps in 2 s steps, which no window this short covers: git and JGit fail the same
   * way there, and the test fails on such a file system.
   */
  public static final long RACY_WINDOW_NANOS = 50_000_000L;

  public StatProof {
    if (type == null) {
      throw new IllegalArgumentException("a stat has a type");
    }
    if (mode < 0 || mode > 07777) {
      throw new IllegalArgumentException(
          "mode holds permission bits only: " + Integer.toOctalString(mode));
    }
    if (size < 0 || nlink < 0) {
      throw new IllegalArgumentException(
          "size and link count are never negative: " + size + ", " + nlink);
    }
  }

  /** A stat from what a snapshot knows and the change time taken with it. */
  public static StatProof of(FileMetadata metadata, long ctimeNanos) {
    return new StatProof(
        metadata.type(),
        metadata.size(),
        metadata.mtimeNanos(),
        ctimeNanos,
        metadata.inode(),
        metadata.mode(),
        metadata.nlink());
  }

  public FileMetadata metadata() {
    return new FileMetadata(type, size, mtimeNanos, mode, inode, nlink);
  }

  /**
   * Whether this stat, found now, proves that the path still holds what was read when {@code
   * indexed} was taken, by a scan that started at {@code indexedAtNanos} (wall clock, ns since the
   * epoch): every field equal, and the indexed mtime older than the scan by more than {@link
   * #RACY_WINDOW_NANOS}.
   */
  public boolean provesUnchangedSince(StatProof indexed, long indexedAtNanos) {
    // Racy (git's racy-git problem, JGit's DirCacheEntry.mightBeRacilyClean): files are stamped
    // from a clock that moves in ticks. A file written within one tick of the scan that read it can
    // be rewritten after the read, same size, within that same tick: every field compared below
    // stays equal and only its content can tell. A write made after the scan started is stamped no
    // earlier than that start minus the clock's lag (up to 3.8 ms measured here, see
    // RACY_WINDOW_NANOS), so an indexed mtime older than the start by more than the window would
    // show any later write as a new mtime: only then do equal fields prove the content.
    return indexed.mtimeNanos < indexedAtNanos - RACY_WINDOW_NANOS && equals(indexed);
  }
}
