package io.turndiff.diff;

import io.turndiff.model.WorkspacePath;

/**
 * One path of a turn deleted and another added whose contents are similar enough, by git's rule, to
 * be one file moved: {@code similarity} is git's similarity index in percent (100 for the same
 * content).
 */
public record Rename(WorkspacePath from, WorkspacePath to, int similarity) {

  public Rename {
    if (from.equals(to) || similarity < 0 || similarity > 100) {
      throw new IllegalArgumentException("no rename: " + from + " -> " + to + " " + similarity);
    }
  }

  /** Whether the content moved unchanged. */
  public boolean pure() {
    return similarity == 100;
  }
}
