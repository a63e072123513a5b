package io.turndiff.diff;

import java.time.Duration;

/**
 * How much work one file's line diff may do, so that no file can stall a turn whatever its size or
 * content.
 *
 * <p>Work is counted in steps: one step is one comparison of two lines (each line is a number by
 * then, so a step is an int compare). The histogram pass may take {@code histogramSteps}; the Myers
 * diffs it falls back to for stretches whose only common lines repeat too often share {@code
 * fallbackSteps} (a stretch whose Myers diff runs out becomes one replace edit). When the histogram
 * pass runs out, or {@code time} has passed, the whole changed middle becomes one hunk. The step
 * counts make the bound deterministic; the time is a safety net for a slow machine.
 */
record DiffBudget(long histogramSteps, long fallbackSteps, Duration time) {

  /**
   * About a second of work for each pass on a 2-core VM; a small change of a big file takes a few
   * steps per line (a 257-line insertion into 7,958 lines: about 60,000).
   */
  static final DiffBudget DEFAULT = new DiffBudget(10_000_000, 1_000_000, Duration.ofSeconds(2));

  DiffBudget {
    if (histogramSteps < 1 || fallbackSteps < 0 || time.isNegative() || time.isZero()) {
      throw new IllegalArgumentException(
          "a diff budget needs steps and time: "
              + histogramSteps
              + ", "
              + fallbackSteps
              + ", "
              + time);
    }
  }
}
