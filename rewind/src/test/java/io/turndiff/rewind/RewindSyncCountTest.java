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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rewind is made durable by its journal, not by an {@code fsync} per file and per directory, and
 * its caller waits for one synced commit only: counted with {@code strace} on a real process, the
 * sync calls ({@code fsync}, {@code fdatasync}, {@code syncfs}) a rewind makes before it answers
 * are one (the store's commit of every decided path, before the first file is staged), whatever its
 * number of files; the {@code syncfs} comes after the answer, with nothing else. Before, a rewind
 * of 50 files in 10 directories made at least 61 of them (50 files, 11 directories) besides the
 * store's commits; then 4 or 5, all before its answer. The store's checkpointer, which moves a full
 * log into the database file on a thread of its own ({@code WalCheckpointer}), is not the rewind's:
 * nobody waits for its syncs, and the trace's lines of its thread (named as it starts, {@code
 * prctl(PR_SET_NAME, "turndiff-checkp...")}) are left out of the count. What it does to the
 * rewind's own thread is counted: a checkpointer that moved the log after every quiet second made
 * the rewind's commit sync the log a second time (SQLite syncs the header of a log it starts
 * again), and this test found it.
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
    Syncs fifty = syncsOfARewindOf(50, temp.resolve("fifty"));
    Syncs twoHundred = syncsOfARewindOf(200, temp.resolve("two-hundred"));
    // the figures for docs/rewind-protocol.md, section 4a
    System.out.println("sync calls of a rewind, 50 files: " + fifty + "; 200 files: " + twoHundred);
    // 2 before the answer on 2026-12-03 for either: the one synced commit of the store (an fsync of
    // its log), and the fsync of the store's directory SQLite makes at the first sync of a log file
    // it opened (once per connection: this process's first synced commit is the rewind's); and the
    // one syncfs after the answer. It was 4 before the answer (two synced commits, that directory,
    // the syncfs) and nothing after, before the sync moved after the answer and the commits but one
    // were ordered
    for (Syncs syncs : List.of(fifty, twoHundred)) {
      assertTrue(syncs.beforeTheAnswer() <= 2, "before the answer: " + syncs);
      assertEquals(List.of("syncfs"), syncs.afterTheAnswer(), "after the answer: " + syncs);
    }
  }

  /** The sync calls a rewind made before it answered, and those of the sync after the answer. */
  private record Syncs(long beforeTheAnswer, List<String> afterTheAnswer) {}

  /** The sync calls of one process's rewind of {@code files} files, between its marks. */
  private static Syncs syncsOfARewindOf(int files, Path directory) throws Exception {
    Files.createDirectories(directory);
    Path trace = directory.resolve("strace.out");
    Process process =
        new ProcessBuilder(
                "strace",
                "-f",
                "-qq",
                "-e",
                "trace=fsync,fdatasync,syncfs,openat,prctl",
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
    assertTrue(
        output.contains("true " + files + " IN_PLACE true"),
        "every file restored, in place when it answered, synced after: " + output);
    List<String> lines = Files.readAllLines(trace, StandardCharsets.UTF_8);
    int begins = indexOf(lines, SyncCountedRewind.BEGINS);
    int ends = indexOf(lines, SyncCountedRewind.ENDS);
    int synced = indexOf(lines, SyncCountedRewind.SYNCED);
    Set<String> checkpointers = checkpointerThreads(lines);
    return new Syncs(
        syncCalls(lines.subList(begins, ends), checkpointers).size(),
        syncCalls(lines.subList(ends, synced), checkpointers));
  }

  /**
   * The thread ids of the store's checkpointer threads: each names itself as it starts (the JVM's
   * {@code prctl(PR_SET_NAME)}, the name cut to 15 bytes), and {@code strace -f} begins every line
   * with the id of the thread that made the call.
   */
  private static Set<String> checkpointerThreads(List<String> lines) {
    Set<String> threads = new HashSet<>();
    for (String line : lines) {
      if (line.contains("prctl(PR_SET_NAME, \"turndiff-checkp")) {
        threads.add(line.substring(0, line.indexOf(' ')));
      }
    }
    return threads;
  }

  /** The names of the sync calls among {@code lines}, in order, but those of {@code leftOut}. */
  private static List<String> syncCalls(List<String> lines, Set<String> leftOut) {
    return lines.stream()
        .filter(line -> !leftOut.contains(line.substring(0, Math.max(0, line.indexOf(' ')))))
        // a call another thread interrupted is split in two lines: counted once, by its start
        .flatMap(
            line ->
                Stream.of("fsync", "fdatasync", "syncfs")
                    .filter(call -> line.contains(" " + call + "(")))
        .toList();
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
