package io.turndiff.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When a stat proves a file unchanged: every field equal, and not racy. */
class StatProofTest {

  private static final long SECOND = 1_000_000_000L;
  private static final int MOVES = 200;
  private static final long MTIME = 1_700_000_000L * SECOND;
  private static final StatProof INDEXED =
      new StatProof(FileType.REGULAR, 5, MTIME, MTIME + 7, 42, 0644, 1);

  @TempDir Path temp;

  /**
   * The racy window has to cover how far behind the clock a write's timestamp can fall: the rule
   * trusts an entry whose mtime is older than the scan's start by more than the window, which is
   * sound only if every write made after that start is stamped later than the entry. This measures
   * it here, as JGit measures its file store's timestamp resolution and "minimal racy interval": a
   * real file is rewritten (same size) until its mtime has moved {@value #MOVES} times, two writes
   * per look (the second one follows no stat, so the kernel stamps it from its coarse clock, as it
   * stamps a file nobody looked at); each stamp is compared with the wall clock read just before
   * its write. The figure is the larger of the finest step the mtime moved by and the largest lag
   * of a stamp behind the clock; with JGit's margin (2.5 times, below 100 ms) it must stay inside
   * the window. A busy machine only lengthens steps and shortens lags (the write lands later), so
   * the lag measured is what the file system does, not how fast the test ran.
   */
  @Test
  void racyWindowCoversThisFileSystemsTimestampTick() throws Exception {
    Path file = temp.resolve("tick");
    Files.write(file, new byte[] {'a'});
    long mtime = mtimeNanos(file);
    long finestStep = Long.MAX_VALUE;
    long largestLag = Long.MIN_VALUE;
    int moves = 0;
    for (int writes = 0; moves < MOVES; writes += 2) {
      assertTrue(
          writes < 1_000_000, "the mtime moved only " + moves + " times in " + writes + " writes");
      Files.write(file, new byte[] {(byte) ('a' + writes % 26)});
      long before = nowNanos();
      Files.write(file, new byte[] {(byte) ('b' + writes % 26)});
      long stamped = mtimeNanos(file);
      long after = nowNanos();
      assertTrue(
          stamped <= after,
          "the mtime is stamped from the wall clock, never ahead of it: "
              + stamped
              + " after "
              + after);
      long lag = before - stamped;
      largestLag = Math.max(largestLag, lag);
      if (stamped != mtime) {
        assertTrue(stamped > mtime, "an mtime moves forward: " + mtime + " then " + stamped);
        finestStep = Math.min(finestStep, stamped - mtime);
        moves++;
        mtime = stamped;
      }
    }
    long tick = Math.max(finestStep, largestLag);
    System.out.printf(
        "timestamps of %s: finest step %.3f ms, largest lag behind the clock %.3f ms (%d moves)%n",
        Files.getFileStore(temp).type(), finestStep / 1e6, largestLag / 1e6, moves);
    assertTrue(
        tick * 5 / 2 < StatProof.RACY_WINDOW_NANOS,
        "this file system's timestamps move in steps of "
            + finestStep / 1e6
            + " ms and lag the clock by up to "
            + largestLag / 1e6
            + " ms: the racy window of "
            + StatProof.RACY_WINDOW_NANOS / 1e6
            + " ms does not cover that with a margin");
  }

  private static long mtimeNanos(Path file) throws Exception {
    return Files.getLastModifiedTime(file).to(TimeUnit.NANOSECONDS);
  }

  private static long nowNanos() {
    Instant now = Instant.now();
    return now.getEpochSecond() * SECOND + now.getNano();
  }

  @Test
  void anEqualStatOlderThanTheRacyWindowProvesTheFileUnchanged() {
    StatProof now = new StatProof(FileType.REGULAR, 5, MTIME, MTIME + 7, 42, 0644, 1);
    assertTrue(now.provesUnchangedSince(INDEXED, MTIME + StatProof.RACY_WINDOW_NANOS + 1));
    assertTrue(now.provesUnchangedSince(INDEXED, MTIME + 3600 * SECOND));
  }

  @Test
  void aFileModifiedWithinTheRacyWindowOfTheScanIsNeverProvenUnchanged() {
    StatProof now = new StatProof(FileType.REGULAR, 5, MTIME, MTIME + 7, 42, 0644, 1);
    for (long indexedAt :
        new long[] {
          MTIME - SECOND, MTIME, MTIME + 1_000_000, MTIME + StatProof.RACY_WINDOW_NANOS
        }) {
      assertFalse(
          now.provesUnchangedSince(INDEXED, indexedAt),
          "indexed at " + (indexedAt - MTIME) + " ns after");
    }
  }

  @Test
  void everyFieldThatMovedProvesNothing() {
    long longAfter = MTIME + 3600 * SECOND;
    List<StatProof> moved =
        List.of(
            new StatProof(FileType.SYMLINK, 5, MTIME, MTIME + 7, 42, 0644, 1),
            new StatProof(FileType.REGULAR, 6, MTIME, MTIME + 7, 42, 0644, 1),
            new StatProof(FileType.REGULAR, 5, MTIME + 1, MTIME + 7, 42, 0644, 1),
            new StatProof(FileType.REGULAR, 5, MTIME, MTIME + 8, 42, 0644, 1),
            new StatProof(FileType.REGULAR, 5, MTIME, MTIME + 7, 43, 0644, 1),
            new StatProof(FileType.REGULAR, 5, MTIME, MTIME + 7, 42, 0755, 1),
            new StatProof(FileType.REGULAR, 5, MTIME, MTIME + 7, 42, 0644, 2));
    for (StatProof now : moved) {
      assertFalse(now.provesUnchangedSince(INDEXED, longAfter), now.toString());
    }
    StatProof unknownChangeTime = new StatProof(FileType.REGULAR, 5, MTIME, 0, 42, 0644, 1);
    assertFalse(
        INDEXED.provesUnchangedSince(unknownChangeTime, longAfter),
        "an entry whose change time is not known (0) is read again");
  }

  @Test
  void aStatHoldsPermissionBitsOnlyAndNoNegativeSize() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new StatProof(FileType.REGULAR, 5, MTIME, MTIME, 1, 0100644, 1));
    assertThrows(
        IllegalArgumentException.class,
        () -> new StatProof(FileType.REGULAR, -1, MTIME, MTIME, 1, 0644, 1));
    assertThrows(
        IllegalArgumentException.class, () -> new StatProof(null, 5, MTIME, MTIME, 1, 0644, 1));
    FileMetadata metadata = new FileMetadata(FileType.REGULAR, 5, MTIME, 0644, 42, 1);
    assertEquals(metadata, StatProof.of(metadata, MTIME + 7).metadata());
    assertEquals(INDEXED, StatProof.of(metadata, MTIME + 7));
  }
}
