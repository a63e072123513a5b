package io.turndiff.boundary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The opens a process made between its two marks ({@link CountedDeepWalk#BEGINS}, {@link
 * CountedDeepWalk#ENDS}), counted by running it under {@code strace}: how many, and how many path
 * bytes they gave the kernel to resolve (what an {@code openat2} beneath the root costs there). The
 * workspace's names are always relative to a directory's descriptor; an absolute name is the JVM's
 * own (a class, /proc), which a walk's cost does not include.
 */
record TracedOpens(List<String> opens, String output) {

  /** Skips the calling test where the count cannot be made. */
  static void assumeTraceable() {
    assumeTrue(
        new File("/usr/bin/strace").canExecute() || new File("/bin/strace").canExecute(),
        "strace is not installed");
    assumeTrue(Portability.current() == Portability.LINUX, "counted once, in the default mode");
  }

  /**
   * Runs {@code main} with {@code args} under {@code strace}, the trace written in {@code temp},
   * and keeps the opens of workspace names between its marks.
   */
  static TracedOpens of(Class<?> main, Path temp, String... args) throws Exception {
    Path trace = temp.resolve("strace.out");
    List<String> command =
        new ArrayList<>(
            List.of(
                "strace",
                "-f",
                "-qq",
                "-s",
                "65536",
                "-e",
                "trace=openat,openat2",
                "-o",
                trace.toString(),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                main.getName()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(10, TimeUnit.MINUTES), "the traced process did not end");
    assertEquals(0, process.exitValue(), output);
    List<String> lines = Files.readAllLines(trace, StandardCharsets.UTF_8);
    List<String> opens =
        lines
            .subList(
                indexOf(lines, CountedDeepWalk.BEGINS) + 1, indexOf(lines, CountedDeepWalk.ENDS))
            .stream()
            // a call another thread interrupted is split in two lines: counted once, by its start
            .filter(line -> line.contains(" openat(") || line.contains(" openat2("))
            .filter(line -> !line.contains("\"/"))
            .toList();
    return new TracedOpens(opens, output);
  }

  /**
   * Prints the figures (for docs/performance.md) and asserts that {@code what} made at most {@code
   * mostOpens} opens and gave the kernel at most {@code mostPathBytes} path bytes to resolve.
   */
  void assertAtMost(String what, int mostOpens, long mostPathBytes) {
    long pathBytes = opens.stream().mapToLong(TracedOpens::pathArgumentLength).sum();
    System.out.println(what + ": " + opens.size() + " opens, " + pathBytes + " path bytes");
    assertTrue(opens.size() <= mostOpens, what + " made " + opens.size() + " opens");
    assertTrue(
        pathBytes <= mostPathBytes,
        what + " gave the kernel " + pathBytes + " path bytes to resolve");
  }

  /** The length of the path an {@code openat} or {@code openat2} line names (its first string). */
  private static long pathArgumentLength(String line) {
    int open = line.indexOf('"');
    int close = line.indexOf('"', open + 1);
    return open < 0 || close < 0 ? 0 : close - open - 1;
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
