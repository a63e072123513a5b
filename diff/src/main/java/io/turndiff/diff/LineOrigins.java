package io.turndiff.diff;

import java.util.Arrays;

/**
 * Which lines of a text carry over from the text before it: for each line of {@code after}, the
 * index of the line of {@code before} it is (unchanged by the edit), or {@link #NEW} when the edit
 * wrote it. The step a line-tracking pass ({@code git blame}) takes between two states of a file.
 *
 * <p>The edits are the ones a stored diff shows (the histogram diff of {@link LineDiff}, bounded
 * the same way), so a line a turn's diff shows as {@code +} is a line this calls new, and a file
 * past the diff budget has its whole changed middle new, as its diff has.
 */
public final class LineOrigins {

  /** The mark of a line the edit wrote: it carries over from no line before it. */
  public static final int NEW = -1;

  private LineOrigins() {}

  /** For each line of {@code after}: the index of the line of {@code before} it is, or NEW. */
  public static int[] between(TextContent before, TextContent after) {
    int[] origins = new int[after.lines().size()];
    Arrays.fill(origins, NEW);
    int oldAt = 0;
    int newAt = 0;
    for (LineDiff.Edit edit :
        LineDiff.edits(before.lines(), after.lines(), new DiffSteps(DiffBudget.DEFAULT))) {
      while (newAt < edit.newStart()) {
        origins[newAt++] = oldAt++;
      }
      oldAt += edit.oldCount();
      newAt += edit.newCount();
    }
    while (newAt < origins.length) {
      origins[newAt++] = oldAt++;
    }
    return origins;
  }
}
