package io.turndiff.cli;

import io.turndiff.model.TestHook;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * The {@link TestHook} of the command-line processes the tests start: lets a crash test hold one at
 * a known point, so that it can {@code kill -9} it there or edit a file while a rewind waits. The
 * only reader of the test environment variables, and not in the product jar: {@link CliProcess}
 * starts a process that is given one of them with {@link #main} (this class and the product jar on
 * the class path) instead of the jar's own main; without them nothing waits.
 */
final class EnvTestHook implements TestHook {

  /** What the variables below have in common: a process given one runs {@link #main}. */
  static final String PREFIX = "TURNDIFF_TEST_";

  /**
   * After a snapshot call committed and printed its result, as a runtime that dies mid-turn would.
   */
  static final String AFTER_SNAPSHOT = "TURNDIFF_TEST_HOLD_AFTER_SNAPSHOT_MS";

  /** Before a rewind renames each staged path over its name. */
  static final String REWIND_PAUSE = "TURNDIFF_TEST_REWIND_PAUSE_MS";

  /** After a rewind staged each file, before it journals the paths started. */
  static final String REWIND_STAGED_PAUSE = "TURNDIFF_TEST_REWIND_STAGED_PAUSE_MS";

  /** After a rewind put its paths in place and synced them, before it journals them done. */
  static final String REWIND_DONE_PAUSE = "TURNDIFF_TEST_REWIND_DONE_PAUSE_MS";

  /** After each step a garbage collection commits. */
  static final String GC_PAUSE = "TURNDIFF_TEST_GC_PAUSE_MS";

  /** Before the background computes the line diffs of a finished turn. */
  static final String BEFORE_DIFFS = "TURNDIFF_TEST_HOLD_BEFORE_DIFFS_MS";

  private final Map<Point, Duration> holds;

  /** The product's command line, with the hook the variables ask for. */
  public static void main(String[] args) {
    Main.launch(args, commandLine -> Main.hook(commandLine, fromEnvironment()));
  }

  private EnvTestHook(Map<Point, Duration> holds) {
    this.holds = holds;
  }

  /** {@link TestHook#NONE} unless one of the variables is set to a number of milliseconds. */
  static TestHook fromEnvironment() {
    Map<Point, Duration> holds = new EnumMap<>(Point.class);
    millis(AFTER_SNAPSHOT).ifPresent(hold -> holds.put(Point.SNAPSHOT_PRINTED, hold));
    millis(REWIND_PAUSE).ifPresent(hold -> holds.put(Point.BEFORE_REWIND_RENAME, hold));
    millis(REWIND_STAGED_PAUSE).ifPresent(hold -> holds.put(Point.REWIND_FILE_STAGED, hold));
    millis(REWIND_DONE_PAUSE)
        .ifPresent(hold -> holds.put(Point.BEFORE_REWIND_JOURNALED_DONE, hold));
    millis(GC_PAUSE).ifPresent(hold -> holds.put(Point.GC_STEP_COMMITTED, hold));
    millis(BEFORE_DIFFS).ifPresent(hold -> holds.put(Point.BEFORE_BACKGROUND_DIFFS, hold));
    return holds.isEmpty() ? TestHook.NONE : new EnvTestHook(holds);
  }

  private static Optional<Duration> millis(String variable) {
    String value = System.getenv(variable);
    if (value == null || value.isBlank()) {
      return Optional.empty();
    }
    return Optional.of(Duration.ofMillis(Long.parseLong(value.strip())));
  }

  @Override
  public void reached(Point point) {
    Duration hold = holds.get(point);
    if (hold == null) {
      return;
    }
    try {
      Thread.sleep(hold);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
