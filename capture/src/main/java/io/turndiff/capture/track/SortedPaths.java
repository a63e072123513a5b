package io.turndiff.capture.track;

import io.turndiff.model.WorkspacePath;
import java.util.Arrays;
import java.util.function.IntFunction;

/**
 * The paths under a directory in a list sorted by {@link WorkspacePath#compareTo} (their bytes,
 * unsigned): every path starting with {@code directory/} sorts into one run, which a binary search
 * for that prefix finds. The directory itself need not be next to it ({@code a-b} sorts between
 * {@code a} and {@code a/x}), so it is looked up on its own.
 */
final class SortedPaths {

  private SortedPaths() {}

  /**
   * The position of the first of {@code size} sorted paths ({@code at} gives the one at a position)
   * at or after the first path under {@code directory}.
   */
  static int firstUnder(int size, IntFunction<WorkspacePath> at, WorkspacePath directory) {
    byte[] prefix = Arrays.copyOf(directory.bytes(), directory.length() + 1);
    prefix[prefix.length - 1] = '/';
    int low = 0;
    int high = size;
    while (low < high) {
      int middle = (low + high) >>> 1;
      if (Arrays.compareUnsigned(at.apply(middle).bytes(), prefix) < 0) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    return low;
  }
}
