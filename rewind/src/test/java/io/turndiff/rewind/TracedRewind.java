package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A rewind of {@code N} files in ten directories run in a process of its own ({@link MarkedRewind})
 * under {@code strace -f}, cut at its marks: the calls from where the rewind begins to where it
 * answers, and from there to where its sync after the answer ends. The store's checkpointer, which
 * moves a full log into the database file on a thread of its own, is not the rewind's: its lines
 * are left out.
 *
 * @param beforeTheAnswer the traced calls of the rewind, up to its answer
 * @param afterTheAnswer the traced calls of the sync after the answer
 */
record TracedRewind(List<String> beforeTheAnswer, List<String> afterTheAnswer) {

  /**
   * Rewinds {@code files} files in {@code directory} (made fresh) tracing {@code calls} ({@code
   * strace -e trace=}; the marks' {@code openat} and the threads' names are added).
   */
  static TracedRewind of(int files, Path directory, String calls) throws Exception {
    Files.createDirectories(directory);
    Path trace = directory.resolve("strace.out");
    Process process =
        new ProcessBuilder(
                "strace",
                "-f",
                "-qq",
                "-e",
                "trace=" + calls + ",openat,prctl",
                "-o",
                trace.toString(),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                MarkedRewind.class.getName(),
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
    int begins = indexOf(lines, MarkedRewind.BEGINS);
    int ends = indexOf(lines, MarkedRewind.ENDS);
    int synced = indexOf(lines, MarkedRewind.SYNCED);
    Set<String> checkpointers = checkpointerThreads(lines);
    return new TracedRewind(
        withoutThreads(lines.subList(begins, ends), checkpointers),
        withoutThreads(lines.subList(ends, synced), checkpointers));
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

  /** {@code lines} but those of {@code threads}. */
  private static List<String> withoutThreads(List<String> lines, Set<String> threads) {
    return lines.stream()
        .filter(line -> !threads.contains(line.substring(0, Math.max(0, line.indexOf(' ')))))
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
