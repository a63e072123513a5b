package io.turndiff.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReverseMergeTest {

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static Optional<String> merge(String before, String after, String current) {
    return ReverseMerge.reverseApply(utf8(before), utf8(after), utf8(current))
        .map(bytes -> new String(bytes, StandardCharsets.UTF_8));
  }

  private static final String BEFORE = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n";
  private static final String AFTER = "1\n2\n3\n4\n5\nsix\n7\n8\n9\n10\n11\n12\n13\n14\n15\n";

  @Test
  void turnsHunkIsUndoneAroundLaterEditsElsewhere() {
    String current = "0\n1\n2\n3\n4\n5\nsix\n7\n8\n9\n10\n11\n12\n13\n14\nfifteen\n";
    assertEquals(
        Optional.of("0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\nfifteen\n"),
        merge(BEFORE, AFTER, current),
        "a line added above moves the hunk; an edit far below is kept");
  }

  @Test
  void anEditToTheTurnsOwnLinesIsAConflict() {
    assertEquals(Optional.empty(), merge(BEFORE, AFTER, AFTER.replace("six", "SIX")));
  }

  @Test
  void anEditInsideTheContextIsAConflict() {
    assertEquals(
        Optional.empty(),
        merge(BEFORE, AFTER, AFTER.replace("\n7\n", "\nseven\n")),
        "exact context, no fuzz");
  }

  @Test
  void binaryNeverMerges() {
    assertTrue(
        ReverseMerge.reverseApply(new byte[] {0, 1}, new byte[] {0, 2}, new byte[] {0, 2})
            .isEmpty());
  }

  @Test
  void finalNewlineIsKeptRight() {
    assertEquals(
        Optional.of("a\nb\nc\nd\ne"), merge("a\nb\nc\nd\ne", "a\nB\nc\nd\ne", "a\nB\nc\nd\ne"));
  }
}
