package io.turndiff.boundary;

import java.nio.file.Path;

/**
 * A process that looks again, through the boundary, at two paths at the bottom of a deep chain, as
 * a watched begin or finish does after an edit there: the chain's bottom file and a new directory
 * beside it ({@link WorkspaceBoundary#scanPaths}). Like {@link CountedDeepWalk}, it marks where the
 * re-scan begins and ends by opening two files that do not exist, after a first re-scan of a
 * one-level workspace has loaded the classes; {@link DeepRescanCountTest} counts the opens between
 * the marks under {@code strace}.
 */
final class CountedDeepRescan {

  private CountedDeepRescan() {}

  /**
   * {@code args}: the workspace (a {@link DeepChain} with a directory at its bottom), its depth, a
   * workspace that is such a chain one deep, the directory for the marks. Prints the files found
   * and the directories entered.
   */
  public static void main(String[] args) {
    int depth = Integer.parseInt(args[1]);
    rescan(Path.of(args[2]), 1);
    Path marks = Path.of(args[3]);
    CountedDeepWalk.mark(marks.resolve(CountedDeepWalk.BEGINS));
    FoundInWalk found = rescan(Path.of(args[0]), depth);
    CountedDeepWalk.mark(marks.resolve(CountedDeepWalk.ENDS));
    System.out.println("files " + found.files + " entered " + found.entered);
  }

  private static FoundInWalk rescan(Path root, int depth) {
    FoundInWalk found = new FoundInWalk();
    try (WorkspaceBoundary boundary = WorkspaceBoundary.open(root);
        TreeWatch watch = TreeWatch.open(TreeWatch.Settings.DEFAULTS).orElseThrow()) {
      boundary.scanPaths(new DeepChain(depth, depth, true).bottomStarts(), found, watch);
    }
    if (!found.unlisted.isEmpty()) {
      throw new IllegalStateException("unlisted: " + found.unlisted);
    }
    return found;
  }
}
