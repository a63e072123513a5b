package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.turndiff.boundary.Portability;
import io.turndiff.fixtures.TestStore;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rewind is made durable by its journal and one {@code syncfs} at its end, not by an {@code
 * fsync} per file and per directory: counted with {@code strace} on a real process, the sync calls
 * ({@code fsync}, {@code fdatasync}, {@code syncfs}) a rewind makes do not grow with its files.
 * Before, a rewind of 50 files in 10 directories made at least 61 of them (50 files, 11
 * directories) besides the store's commits.
 */
class RewindSyncCountTest {

  @TempDir Path temp;

  @Test
  void aRewindMakesAFixedNumberOfSyncCallsWhateverItsNumberOfFiles() throws Exception {
    assumeTrue(
        new File("/usr/bin/strace").canExecute() || new File("/bin/strace").canExecute(),
        "strace is not installed");
    assumeTrue(!TestStore.onPostgres(), "the store's commits are another process's there");
    assumeTrue(Portability.current() == Portability.LINUX, "counted once, in the default mode");
    long fifty = syncsOfARewindOf(50, temp.resolve("fifty"));
    long twoHundred = syncsOfARewindOf(200, temp.resolve("two-hundred"));
    // the figures for docs/rewind-protocol.md, section 4a
    System.out.println("sync calls of a rewind: 50 files " + fifty + ", 200 files " + twoHundred);
    // 4 on 2026-12-03 for either (the store's durable commits and the one syncfs); 5 before the
    // boot and the temporary names were journaled in one durable commit instead of two
    assertTrue(fifty <= 4, "a rewind of 50 files made " + fifty + " sync calls");
    assertTrue(
        twoHundred <= fifty + 2,
        "50 files: " + fifty + " sync calls, 200 files: " + twoHundred + " (they must not grow)");
  }

  /** The sync calls of one process's rewind of {@code files} files, between its marks. */
  private static long syncsOfARewindOf(int files, Path directory) throws Exception {
    Files.createDirectories(directory);
    Path trace = directory.resolve("strace.out");
    Process process =
        new ProcessBuilder(
                "strace",
                "-f",
                "-qq",
                "-e",
                "trace=fsync,fdatasync,syncfs,openat",
                "-o",
                trace.toString(),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                SyncCountedRewind.class.getName(),
                directory.toString(),
                String.valueOf(files))
            .redirectErrorStream(true)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(5, TimeUnit.MINUTES), "the rewind did not end");
    assertEquals(0, process.exitValue(), output);
    assertTrue(output.contains("true " + files), "every file restored: " + output);
    List<String> lines = Files.readAllLines(trace, StandardCharsets.UTF_8);
    int begins = indexOf(lines, SyncCountedRewind.BEGINS);
    int ends = indexOf(lines, SyncCountedRewind.ENDS);
    return lines.subList(begins, ends).stream()
        // a call another thread interrupted is split in two lines: counted once, by its start
        .filter(
            line ->
                line.contains(" fsync(")
                    || line.contains(" fdatasync(")
                    || line.contains(" syncfs("))
        .count();
  }

  private static int indexOf(List<String> lines, String mark) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(mark)) {
        return i;
      }
    }
    throw new AssertionError("no openat of " + mark + " in the trace");
  }
}
