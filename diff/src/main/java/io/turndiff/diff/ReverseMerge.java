package io.turndiff.diff;

import com.github.difflib.patch.ChangeDelta;
import com.github.difflib.patch.Chunk;
import com.github.difflib.patch.Patch;
import com.github.difflib.patch.PatchFailedException;
import java.util.List;
import java.util.Optional;

/**
 * Undoes a change on top of later edits, like {@code git apply -R}: the hunks that took {@code
 * before} to {@code after} are applied in reverse to {@code current}, each one found with its exact
 * 3 lines of context (it may have moved up or down), none with fuzz. When any hunk does not apply
 * cleanly there is no merge. Binary content never merges.
 */
public final class ReverseMerge {

  private ReverseMerge() {}

  /** The merged content, or empty when the reversal does not apply cleanly to {@code current}. */
  public static Optional<byte[]> reverseApply(byte[] before, byte[] after, byte[] current) {
    Optional<TextContent> beforeText = TextContent.of(before);
    Optional<TextContent> afterText = TextContent.of(after);
    Optional<TextContent> currentText = TextContent.of(current);
    if (beforeText.isEmpty() || afterText.isEmpty() || currentText.isEmpty()) {
      return Optional.empty();
    }
    Patch<String> reversal = new Patch<>();
    for (LineDiff.Hunk hunk : LineDiff.hunks(afterText.get().lines(), beforeText.get().lines())) {
      reversal.addDelta(
          new ChangeDelta<>(
              new Chunk<>(hunk.oldFrom(), hunk.oldLines()),
              new Chunk<>(hunk.newFrom(), hunk.newLines())));
    }
    try {
      List<String> merged = reversal.applyFuzzy(currentText.get().lines(), 0);
      return Optional.of(TextContent.bytesOf(merged));
    } catch (PatchFailedException conflict) {
      return Optional.empty();
    }
  }
}
