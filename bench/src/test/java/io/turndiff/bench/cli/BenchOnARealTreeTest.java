package io.turndiff.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestWorkspace;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code turndiff bench --workspace DIR} on a tree as real ones are: sources in Latin-1 and UTF-16,
 * binaries with and without a NUL near their start, and a symbolic link that leads out of the tree.
 * The workload edits bytes, so every one of them can be edited; the tree given is never changed,
 * nor anything a link in it leads to; and a tree that cannot carry the turns asked for is a usage
 * error, in one line.
 */
class BenchOnARealTreeTest {

  @TempDir Path temp;

  /** Every path of the tree with its bytes or link text. */
  private static String digest(Path root) throws Exception {
    MessageDigest digest = MessageDigest.getInstance("SHA-256");
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path path : (Iterable<Path>) walk.sorted()::iterator) {
        digest.update(root.relativize(path).toString().getBytes(StandardCharsets.UTF_8));
        if (Files.isSymbolicLink(path)) {
          digest.update(Files.readSymbolicLink(path).toString().getBytes(StandardCharsets.UTF_8));
        } else if (Files.isRegularFile(path)) {
          digest.update(Files.readAllBytes(path));
        }
      }
    }
    return HexFormat.of().formatHex(digest.digest());
  }

  private static byte[] latin1Source(int i) {
    return ("/* \u00e9t\u00e9 "
            + i
            + " */\nclass Caf\u00e9"
            + i
            + " {\n  String s = \"na\u00efve\";\n}\n")
        .repeat(20)
        .getBytes(StandardCharsets.ISO_8859_1);
  }

  /** Bytes 1..255 only: a binary that the NUL test takes for text, and no valid UTF-8. */
  private static byte[] binaryWithoutNul(long seed) {
    byte[] bytes = new byte[4096];
    Random random = new Random(seed);
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) (1 + random.nextInt(255));
    }
    return bytes;
  }

  private TestWorkspace tree() throws IOException {
    TestWorkspace workspace = TestWorkspace.in(temp.resolve("given"));
    for (int i = 0; i < 4; i++) {
      workspace.file("src/latin1/Cafe" + i + ".java", latin1Source(i));
    }
    workspace.file("assets/blob0.dat", binaryWithoutNul(0));
    workspace.file("assets/blob1.dat", binaryWithoutNul(1));
    workspace.file("src/Main.java", "class Main {\n  // caf\u00e9\n}\n");
    workspace.file("README.md", "# a tree\n\nwith text in UTF-8: \u00e9\u00e8\n");
    workspace.file("res/strings.txt", "UTF-16 text\n".getBytes(StandardCharsets.UTF_16LE));
    workspace.file("assets/logo.png", new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, 0, 0, 13, 1, 2});
    workspace.symlink("docs/secret-link.txt", workspace.secret().toString());
    return workspace;
  }

  @Test
  void aTreeOfOtherEncodingsAndBinariesIsBenchmarkedAndLeftAsItWas() throws Exception {
    TestWorkspace workspace = tree();
    String before = digest(workspace.root());

    CommandRun run =
        CommandRun.inProcess(
            BenchMain::run,
            "bench",
            "--workspace",
            workspace.root().toString(),
            "--turn-files",
            "3",
            "--turns",
            "3",
            "--warmup",
            "1",
            "--json");
    JsonNode result = run.expect(0).json();

    assertEquals(10, result.get("tree").get("files").asInt(), run.out());
    assertEquals(3, result.get("turn").get("edited").asInt(), run.out());
    assertEquals(3, result.get("operations_ms").get("turndiff_capture").get("samples").asInt());
    assertTrue(result.get("disk_bytes").get("turndiff_store").asLong() > 0, run.out());
    assertEquals(before, digest(workspace.root()), "the tree given is never modified");
    workspace.assertOutsideUnchanged();
  }

  @Test
  void aTreeTooSmallForTheTurnsOrNoTreeAtAllIsAUsageErrorInOneLine() throws Exception {
    TestWorkspace workspace = tree();

    CommandRun small =
        CommandRun.inProcess(
            BenchMain::run,
            "bench",
            "--workspace",
            workspace.root().toString(),
            "--turn-files",
            "50",
            "--turns",
            "1");
    small.expect(2);
    assertEquals(
        "turndiff: the tree has 8 text files; a turn of 50 edits (--turn-files) needs at least"
            + " twice as many",
        small.err().strip());

    CommandRun missing =
        CommandRun.inProcess(
            BenchMain::run,
            "bench",
            "--workspace",
            temp.resolve("no-such-tree").toString(),
            "--turns",
            "1");
    missing.expect(2);
    assertEquals(
        "turndiff: --workspace " + temp.resolve("no-such-tree") + " is not a directory",
        missing.err().strip());
    assertFalse(small.err().contains("\tat ") || missing.err().contains("\tat "), "no stack trace");
  }
}
