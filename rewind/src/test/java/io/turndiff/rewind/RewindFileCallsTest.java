package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.turndiff.boundary.Portability;
import io.turndiff.fixtures.TestStore;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a rewind asks the file system for each path, counted with {@code strace} on a real process
 * ({@link TracedRewind}): a rewind of 50 files in 10 directories, every file present before and
 * after.
 */
class RewindFileCallsTest {

  /** A look at one of the ten directories by its name: {@code statx(<fd>, "d3", ...)}. */
  private static final Pattern LOOK_AT_A_DIRECTORY =
      Pattern.compile("\\b(statx|newfstatat)\\(\\d+, \"d\\d\",");

  /** An {@code fstat} of an opened descriptor: {@code statx(<fd>, "", AT_EMPTY_PATH...}. */
  private static final Pattern STAT_OF_A_DESCRIPTOR =
      Pattern.compile("\\b(statx|newfstatat)\\(\\d+, \"\",");

  /**
   * An open of one of the 50 files from the workspace's root: {@code openat2(<fd>, "d3/f13.txt"}.
   */
  private static final Pattern OPEN_OF_A_FILE_BY_ITS_PATH =
      Pattern.compile("\\bopenat2\\(\\d+, \"d\\d/f\\d+\\.txt\",");

  /** An open of one of the files by its name, through its parent held open. */
  private static final Pattern OPEN_OF_A_FILE_BY_ITS_NAME =
      Pattern.compile("\\bopenat2\\(\\d+, \"f\\d+\\.txt\",");

  @TempDir Path temp;

  /**
   * The dry run and the run read every file through its directory, following nothing, and such a
   * read shows the directory present ({@code DirectoryRewind.notePresentAbove}). The stats of the
   * files' descriptors are counted too, to show the trace holds the calls looked for. Before, each
   * of them looked at each directory again to decide whether it had to be made: 20 {@code statx}
   * calls here, 10 in the dry run and 10 in the run (in {@code bench}, a parent opened for each
   * too).
   */
  @Test
  void aRewindDoesNotLookAgainAtTheDirectoriesItReadFilesThrough() throws Exception {
    assumeCountable();
    TracedRewind traced = TracedRewind.of(50, temp, "statx,newfstatat");
    assertTrue(
        count(traced, STAT_OF_A_DESCRIPTOR) >= 100,
        "the files' reads stat their descriptors (two reads of each, before the answer)");
    List<String> looks =
        traced.beforeTheAnswer().stream()
            .filter(line -> LOOK_AT_A_DIRECTORY.matcher(line).find())
            .toList();
    assertEquals(List.of(), looks, "the directories looked at by name");
  }

  /**
   * Each file is opened by its path once, by the dry run's read, whose verdict the run takes; the
   * check right before the rename opens it again through the held parent, by its name alone. The
   * rewind turn's after-state of a file the rewind put in place is the state it wrote, with the
   * staged file's own {@code fstat}. Before, the after-state was a third read of each file, by its
   * path: 100 opens here, not 50.
   */
  @Test
  void aRewindOpensEachFileByItsPathOnce() throws Exception {
    assumeCountable();
    TracedRewind traced = TracedRewind.of(50, temp, "openat2");
    assumeTrue(
        traced.beforeTheAnswer().stream().anyMatch(line -> line.contains(" openat2(")),
        "the handles open with openat here (a kernel before 5.6)");
    assertEquals(50, count(traced, OPEN_OF_A_FILE_BY_ITS_PATH), "the opens by path");
    assertEquals(50, count(traced, OPEN_OF_A_FILE_BY_ITS_NAME), "the checks before the renames");
  }

  /**
   * Counted where {@code strace} is installed, once: in the default mode (the posix mode opens with
   * {@code openat}), over SQLite (the calls counted are the files', whatever the store).
   */
  private static void assumeCountable() {
    assumeTrue(
        new File("/usr/bin/strace").canExecute() || new File("/bin/strace").canExecute(),
        "strace is not installed");
    assumeTrue(Portability.current() == Portability.LINUX, "counted once, in the default mode");
    assumeTrue(!TestStore.onPostgres(), "counted once, over SQLite");
  }

  private static long count(TracedRewind traced, Pattern call) {
    return traced.beforeTheAnswer().stream().filter(line -> call.matcher(line).find()).count();
  }
}
