package io.turndiff.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.WorkspacePath;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HunkReversalTest {

  private static final String BEFORE =
      "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n21\n22\n23\n24\n25";
  // three edits more than six lines apart: three hunks (the last one without a final newline)
  private static final String AFTER =
      "one\n2\n3\n4\n5\n6\n7\n8\n9\n10\nten-and-a-half\n11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n21\n22\n23\n24\n25\n";

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static Optional<String> without(int number) {
    return HunkReversal.withoutHunk(utf8(BEFORE), utf8(AFTER), number)
        .map(bytes -> new String(bytes, StandardCharsets.UTF_8));
  }

  @Test
  void theHunksAreNumberedAsThePatchWritesThem() {
    String patch =
        new GitPatchWriter(GitPatchWriter.BinaryStyle.SUMMARY)
            .write(
                WorkspacePath.of("f.txt"),
                new PatchSide.File(utf8(BEFORE), 0644),
                new PatchSide.File(utf8(AFTER), 0644))
            .text();
    long written = patch.lines().filter(line -> line.startsWith("@@ ")).count();
    assertEquals(3, written, patch);
    assertEquals(Optional.of(3), HunkReversal.count(utf8(BEFORE), utf8(AFTER)));
  }

  @Test
  void eachHunkGoesBackAloneAndTheOthersStay() {
    assertEquals(Optional.of(AFTER.replace("one\n", "1\n")), without(1));
    assertEquals(Optional.of(AFTER.replace("ten-and-a-half\n", "")), without(2));
    assertEquals(
        Optional.of(AFTER.substring(0, AFTER.length() - 1)),
        without(3),
        "the last hunk gave the file its final newline; reversed, the file ends without one");
  }

  @Test
  void everyHunkReversedOneAfterAnotherIsTheBeforeState() {
    byte[] now = utf8(AFTER);
    for (int number = 3; number >= 1; number--) {
      byte[] target = HunkReversal.withoutHunk(utf8(BEFORE), utf8(AFTER), number).orElseThrow();
      // as a rewind does on a file changed since: the difference between the after-state and the
      // target (that one hunk) reversed onto what the file holds now
      now = ReverseMerge.reverseApply(target, utf8(AFTER), now).orElseThrow();
    }
    assertEquals(BEFORE, new String(now, StandardCharsets.UTF_8));
  }

  @Test
  void noSuchHunkAndBinaryContentHaveNone() {
    assertEquals(Optional.empty(), without(0));
    assertEquals(Optional.empty(), without(4));
    assertTrue(HunkReversal.count(new byte[] {0, 1}, new byte[] {0, 2}).isEmpty());
  }
}
