package io.turndiff.boundary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.turndiff.fixtures.TestWorkspace;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole walk costs what the tree holds, not its depth times its size: counted with {@code strace}
 * on a real process walking a chain 3,000 directories deep, the walk opens each directory once, by
 * its one name in its parent. The path bytes the kernel is given to resolve are counted too, since
 * they are what an {@code openat2} beneath the root costs in the kernel: before, each directory was
 * opened by its whole path from the root (2·k bytes at level k, 9 million for the chain), and past
 * {@code PATH_MAX} one {@code openat2} and one {@code close} per level of it (2.4 million opens).
 */
class DeepWalkCountTest {

  private static final int DEPTH = 3_000;

  @TempDir Path temp;

  private TestWorkspace workspace;

  @AfterEach
  void canary() {
    if (workspace != null) {
      workspace.assertOutsideUnchanged();
      DeepChain.remove(workspace.root());
    }
  }

  @Test
  void aWalkOpensEachDirectoryOnceByItsOwnName() throws Exception {
    assumeTrue(
        new File("/usr/bin/strace").canExecute() || new File("/bin/strace").canExecute(),
        "strace is not installed");
    assumeTrue(Portability.current() == Portability.LINUX, "counted once, in the default mode");
    workspace = TestWorkspace.in(temp.resolve("tree"));
    DeepChain chain = new DeepChain(DEPTH, 250);
    chain.build(workspace.root(), temp.resolve("staging"));
    Path empty = Files.createDirectory(temp.resolve("empty"));
    Path trace = temp.resolve("strace.out");
    Process process =
        new ProcessBuilder(
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
                CountedDeepWalk.class.getName(),
                workspace.root().toString(),
                empty.toString(),
                temp.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(10, TimeUnit.MINUTES), "the walk did not end");
    assertEquals(0, process.exitValue(), output);
    assertTrue(output.contains("files " + chain.files().size()), "every file found: " + output);
    List<String> lines = Files.readAllLines(trace, StandardCharsets.UTF_8);
    List<String> opens =
        lines
            .subList(
                indexOf(lines, CountedDeepWalk.BEGINS) + 1, indexOf(lines, CountedDeepWalk.ENDS))
            .stream()
            // a call another thread interrupted is split in two lines: counted once, by its start
            .filter(line -> line.contains(" openat(") || line.contains(" openat2("))
            // the workspace's names are always relative to a directory's descriptor; an absolute
            // name is the JVM's own (a class, /proc), which the walk's cost does not include
            .filter(line -> !line.contains("\"/"))
            .toList();
    long pathBytes = opens.stream().mapToLong(DeepWalkCountTest::pathArgumentLength).sum();
    // the figures for docs/performance.md
    System.out.println(
        "a walk " + DEPTH + " deep: " + opens.size() + " opens, " + pathBytes + " path bytes");
    // each directory: opened in its parent (one name) and once more readable to be listed (".")
    assertTrue(
        opens.size() <= 3 * DEPTH, "a walk " + DEPTH + " deep made " + opens.size() + " opens");
    assertTrue(
        pathBytes <= 3 * DEPTH,
        "a walk " + DEPTH + " deep gave the kernel " + pathBytes + " path bytes to resolve");
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
