package io.turndiff.diff;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One hunk of a text change taken back alone (issue 22 item 8): the hunks are numbered from 1 in
 * the order the change's patch writes them ({@link GitPatchWriter} makes them with the same {@link
 * LineDiff} and budget, so hunk {@code n} here is the {@code n}th {@code @@} line a user reads),
 * and {@link #withoutHunk} is the after-state with that hunk's lines given back their before-state
 * wording, every other hunk left as the change made it.
 *
 * <p>The result is a state the rewind puts back like any before-state: when the file still holds
 * the after-state it is written as is; when the file changed since, {@link ReverseMerge} reverses
 * the difference between the two (that one hunk) onto it with exact context, so a hunk rewind needs
 * no merge of its own. Binary content has no hunks.
 */
public final class HunkReversal {

  private HunkReversal() {}

  /** How many hunks the change from {@code before} to {@code after} has; empty when binary. */
  public static Optional<Integer> count(byte[] before, byte[] after) {
    return hunks(before, after).map(List::size);
  }

  /**
   * {@code after} with hunk {@code number} (1-based) of the change from {@code before} reversed;
   * empty when either side is binary or the change has no such hunk.
   */
  public static Optional<byte[]> withoutHunk(byte[] before, byte[] after, int number) {
    Optional<List<LineDiff.Hunk>> hunks = hunks(before, after);
    if (hunks.isEmpty() || number < 1 || number > hunks.get().size()) {
      return Optional.empty();
    }
    LineDiff.Hunk hunk = hunks.get().get(number - 1);
    List<String> afterLines = TextContent.of(after).orElseThrow().lines();
    // the hunk's after-side lines sit at newFrom in the after-state, exactly (it is the text the
    // hunk was made from): they are swapped for its before-side lines, context included
    List<String> lines = new ArrayList<>(afterLines.subList(0, hunk.newFrom()));
    lines.addAll(hunk.oldLines());
    lines.addAll(afterLines.subList(hunk.newFrom() + hunk.newLines().size(), afterLines.size()));
    return Optional.of(TextContent.bytesOf(lines));
  }

  private static Optional<List<LineDiff.Hunk>> hunks(byte[] before, byte[] after) {
    Optional<TextContent> beforeText = TextContent.of(before);
    Optional<TextContent> afterText = TextContent.of(after);
    if (beforeText.isEmpty() || afterText.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(LineDiff.hunks(beforeText.get().lines(), afterText.get().lines()));
  }
}
