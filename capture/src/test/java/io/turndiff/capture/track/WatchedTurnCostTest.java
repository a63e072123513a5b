package io.turndiff.capture.track;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.management.ThreadMXBean;
import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.boundary.Portability;
import io.turndiff.capture.CaptureService;
import io.turndiff.capture.TurnSummary;
import io.turndiff.capture.workspace.WorkspaceHandles;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.store.Store;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A watched turn's begin and finish cost what the turn changed, not the tree (issue 23 item 7): the
 * bytes every thread of the JVM allocates for a turn that rewrites, adds and removes a few files of
 * a tracked, watched tree, at {@value #SMALL} files and at {@value #LARGE}. Work proportional to
 * the tree allocates in proportion to it: the in-memory index copied at a finish (a hash map node
 * and a slot per entry, at least 40 bytes each), rebuilt after a file was added (more), or a list
 * of every entry filtered. Allocation is a count, not a time: the same on a loaded machine as on a
 * quiet one, within the noise of the JVM's own threads, which the median of several turns takes
 * out. Run against the index before it was layered ({@code IndexCache} copying every entry at each
 * finish that changed one), the test failed: see {@code docs/performance.md}.
 */
class WatchedTurnCostTest {

  private static final int SMALL = 1_000;
  private static final int LARGE = 10_000;
  private static final int FILES_PER_DIRECTORY = 250;

  /**
   * Files per directory of the trees of many small directories: a directory for every {@value}
   * files, so that what a turn does per directory of the tree shows per file (a quarter of it).
   */
  private static final int FILES_PER_SMALL_DIRECTORY = 4;

  private static final int WARMUP = 8;
  private static final int ROUNDS = 7;

  /**
   * What a turn in the larger tree may allocate beyond the same turn in the smaller one, per file
   * more: well below the 40 bytes per entry the smallest whole-index copy costs (measured before
   * the layered index: 108), and above what stays proportional to the tree on purpose (the scan's
   * bit set of seen entries, a bit each) with the noise (measured after: 2 to 3.5). In the trees of
   * a directory per {@value #FILES_PER_SMALL_DIRECTORY} files it bounds what a turn does per
   * directory too, at 40 bytes: the directories' modes copied whole at a finish cost more than that
   * (a hash map node each, several times over).
   */
  private static final double BYTES_PER_FILE_MORE = 10.0;

  @TempDir Path temp;

  @BeforeAll
  static void watching() {
    assumeTrue(Portability.current().watches(), "nothing is watched in the posix mode");
  }

  /** A tracked workspace watched by its own capture service, and its turns' allocation. */
  private static final class Watched implements AutoCloseable {
    private final TestWorkspace workspace;
    private final Store store;
    private final WorkspaceHandles handles;
    private final CaptureService capture;
    private final List<Path> rewritten = new ArrayList<>();
    private int turns;

    Watched(Path base, int files, int filesPerDirectory) throws IOException {
      workspace = TestWorkspace.in(base);
      for (int i = 0; i < files; i++) {
        Path directory = workspace.root().resolve("d" + i / filesPerDirectory);
        if (i % filesPerDirectory == 0) {
          Files.createDirectories(directory);
        }
        Files.writeString(directory.resolve("f" + i + ".txt"), "file " + i + "\n");
      }
      for (int i = 0; i < 5; i++) {
        int spread = i * files / 5;
        rewritten.add(
            workspace.root().resolve("d" + spread / filesPerDirectory + "/f" + spread + ".txt"));
      }
      store = TestStore.freshIn(base);
      handles = new WorkspaceHandles(store, BoundaryOptions.defaults());
      capture = new CaptureService(store, handles, WatchOptions.SERVICE, turn -> {});
      TrackSummary tracked =
          capture
              .tracker()
              .track(workspace.root(), new TrackingOptions(Integer.MAX_VALUE, Long.MAX_VALUE));
      assertEquals(files, tracked.files());
    }

    /**
     * One turn: its begin, then 5 files rewritten, one added and the one the turn before added
     * removed, then its finish; the bytes allocated by every thread from before the begin to after
     * the finish, less the writes' own.
     */
    long turn() throws IOException {
      int n = turns++;
      long before = allocated();
      String turn =
          capture.beginTurn(workspace.root(), Optional.of("cost"), Optional.empty()).turn();
      long begun = allocated();
      for (Path file : rewritten) {
        Files.writeString(file, "turn " + n + "\n");
      }
      Files.writeString(workspace.root().resolve("d0/new" + n + ".txt"), "new\n");
      Files.deleteIfExists(workspace.root().resolve("d0/new" + (n - 1) + ".txt"));
      long written = allocated();
      TurnSummary finished = capture.finishTurn(turn);
      long after = allocated();
      assertEquals(n == 0 ? 6 : 7, finished.files(), "the turn's changes: " + finished);
      return (begun - before) + (after - written);
    }

    @Override
    public void close() {
      capture.close();
      handles.close();
      workspace.assertNothingLeakedThenClose(store);
    }
  }

  private static long allocated() {
    return ((ThreadMXBean) ManagementFactory.getThreadMXBean()).getTotalThreadAllocatedBytes();
  }

  @Test
  void aWatchedTurnAllocatesNoMoreInATenTimesLargerTree() throws IOException {
    compareTurns(FILES_PER_DIRECTORY);
  }

  /**
   * The same in trees of many small directories ({@value #SMALL} / {@value
   * #FILES_PER_SMALL_DIRECTORY} and {@value #LARGE} / {@value #FILES_PER_SMALL_DIRECTORY} of them):
   * the directories' modes are layered as the entries are, so a finish neither copies nor compares
   * them all. Run against the modes copied whole (four passes a finish), it failed: see {@code
   * docs/performance.md}.
   */
  @Test
  void aWatchedTurnAllocatesNoMoreInATreeOfTenTimesMoreDirectories() throws IOException {
    compareTurns(FILES_PER_SMALL_DIRECTORY);
  }

  /**
   * The first turn after a track costs what it changed too: the track's scan wrote the workspace's
   * whole first index, which the process holds as written, so the first begin does not read every
   * entry back from the store (at 250,000 files that read was 2.2–2.8 s of the first prompt's
   * begin, docs/performance.md). One turn of each tree, after a third tree warmed the JIT: the
   * whole index read back allocates megabytes at {@value #LARGE} files, far above the bound. Run
   * against the cache that dropped a first index, it failed.
   */
  @Test
  void theFirstTurnAfterATrackAllocatesNoMoreInATenTimesLargerTree() throws IOException {
    try (Watched warm = new Watched(temp.resolve("warm"), SMALL, FILES_PER_DIRECTORY)) {
      for (int i = 0; i < WARMUP; i++) {
        warm.turn();
      }
    }
    try (Watched small = new Watched(temp.resolve("small"), SMALL, FILES_PER_DIRECTORY);
        Watched large = new Watched(temp.resolve("large"), LARGE, FILES_PER_DIRECTORY)) {
      long smallFirst = small.turn();
      long largeFirst = large.turn();
      long allowed = (long) ((LARGE - SMALL) * BYTES_PER_FILE_MORE);
      assertTrue(
          largeFirst - smallFirst < allowed,
          "the first turn after a track allocated "
              + largeFirst
              + " bytes at "
              + LARGE
              + " files and "
              + smallFirst
              + " at "
              + SMALL
              + ": more than "
              + allowed
              + " bytes more, so it read or walked the tree");
    }
  }

  private void compareTurns(int filesPerDirectory) throws IOException {
    try (Watched small = new Watched(temp.resolve("small"), SMALL, filesPerDirectory);
        Watched large = new Watched(temp.resolve("large"), LARGE, filesPerDirectory)) {
      // the track of each started its watch; the first turns of both warm the JIT
      for (int i = 0; i < WARMUP; i++) {
        small.turn();
        large.turn();
      }
      long[] smallTurns = new long[ROUNDS];
      long[] largeTurns = new long[ROUNDS];
      for (int i = 0; i < ROUNDS; i++) {
        smallTurns[i] = small.turn();
        largeTurns[i] = large.turn();
      }
      long smallMedian = median(smallTurns);
      long largeMedian = median(largeTurns);
      long allowed = (long) ((LARGE - SMALL) * BYTES_PER_FILE_MORE);
      assertTrue(
          largeMedian - smallMedian < allowed,
          "a watched turn allocated "
              + largeMedian
              + " bytes at "
              + LARGE
              + " files and "
              + smallMedian
              + " at "
              + SMALL
              + " (medians of "
              + ROUNDS
              + "): more than "
              + allowed
              + " bytes more, so it does work proportional to the tree");
      System.out.printf(
          "watched turn allocation, %d files per directory: %d bytes at %d files, %d at %d files"
              + " (%+.2f bytes per file)%n",
          filesPerDirectory,
          smallMedian,
          SMALL,
          largeMedian,
          LARGE,
          (largeMedian - smallMedian) / (double) (LARGE - SMALL));
    }
  }

  private static long median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
