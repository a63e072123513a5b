package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ColouredPatchTest {

  private static final String PATCH =
      """
      diff --git a/f.txt b/f.txt
      index 1111111..2222222 100644
      --- a/f.txt
      +++ b/f.txt
      @@ -1,3 +1,3 @@
      -l1
      +one
       l2
      @@ -20,3 +20,3 @@
      -l21
      +twenty-one
      diff --git a/g.txt b/g.txt
      index 3333333..4444444 100644
      --- a/g.txt
      +++ b/g.txt
      @@ -1 +1 @@
      -g
      +G
      """;

  @Test
  void aTurnsHunksAreNumberedPerFileAsRewindHunkTakesThem() {
    String shown = ColouredPatch.of(PATCH, Terminal.NONE, true);
    assertEquals(
        PATCH
            .replace("@@ -1,3 +1,3 @@\n", "@@ -1,3 +1,3 @@  hunk 1\n")
            .replace("@@ -20,3 +20,3 @@\n", "@@ -20,3 +20,3 @@  hunk 2\n")
            .replace("@@ -1 +1 @@\n", "@@ -1 +1 @@  hunk 1\n"),
        shown);
  }

  @Test
  void aStretchOfTurnsHasNoNumbers() {
    assertEquals(PATCH, ColouredPatch.of(PATCH, Terminal.NONE));
  }
}
