package io.turndiff.diff;

import java.util.function.Supplier;

/**
 * The steps one line diff has taken against its {@link DiffBudget}; past the budget (or its time)
 * the next step throws {@link Exhausted}, and the caller falls back to a coarser edit. One per
 * diff, used on one thread.
 */
final class DiffSteps {

  /** The budget ran out; thrown out of the diff algorithm, so it carries no stack trace. */
  static final class Exhausted extends RuntimeException {
    Exhausted(String what) {
      super(what, null, false, false);
    }
  }

  /**
   * The clock is read once every this many steps (a step is an int compare; reading the clock is
   * not).
   */
  private static final int CLOCK_EVERY = 16;

  private final DiffBudget budget;
  private final long deadline;
  private long histogram;
  private long fallback;
  private boolean inFallback;

  DiffSteps(DiffBudget budget) {
    this.budget = budget;
    this.deadline = System.nanoTime() + budget.time().toNanos();
  }

  /**
   * A comparison by the histogram pass; one the fallback makes through the same comparator is its
   * own.
   */
  void histogramStep() {
    if (inFallback) {
      return;
    }
    if (++histogram > budget.histogramSteps()) {
      throw new Exhausted("the histogram diff took " + budget.histogramSteps() + " steps");
    }
    if (histogram % CLOCK_EVERY == 0) {
      checkTime();
    }
  }

  void fallbackStep() {
    if (++fallback > budget.fallbackSteps()) {
      throw new Exhausted("the Myers fallback took " + budget.fallbackSteps() + " steps");
    }
    if (fallback % CLOCK_EVERY == 0) {
      checkTime();
    }
  }

  /** Runs the fallback's diff of one stretch, its comparisons counted as fallback steps. */
  <T> T inFallback(Supplier<T> diff) {
    inFallback = true;
    try {
      return diff.get();
    } finally {
      inFallback = false;
    }
  }

  boolean fallbackExhausted() {
    return fallback >= budget.fallbackSteps();
  }

  private void checkTime() {
    if (System.nanoTime() - deadline > 0) {
      throw new Exhausted("the diff took " + budget.time());
    }
  }

  /** Every step taken so far, both passes. */
  long taken() {
    return Math.min(histogram, budget.histogramSteps())
        + Math.min(fallback, budget.fallbackSteps());
  }
}
