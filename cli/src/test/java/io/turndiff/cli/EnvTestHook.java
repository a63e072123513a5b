package io.turndiff.cli;

import io.turndiff.model.TestHook;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
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

  /** After a rewind staged each file, before it puts the file in place. */
  static final String REWIND_STAGED_PAUSE = "TURNDIFF_TEST_REWIND_STAGED_PAUSE_MS";

  /** After a rewind put its paths in place, before it journals them done. */
  static final String REWIND_DONE_PAUSE = "TURNDIFF_TEST_REWIND_DONE_PAUSE_MS";

  /** After a rewind printed its report, before it syncs and marks the operation synced. */
  static final String REWIND_PRINTED_PAUSE = "TURNDIFF_TEST_REWIND_PRINTED_PAUSE_MS";

  /** After each step a garbage collection commits. */
  static final String GC_PAUSE = "TURNDIFF_TEST_GC_PAUSE_MS";

  /** Before the background computes the line diffs of a finished turn. */
  static final String BEFORE_DIFFS = "TURNDIFF_TEST_HOLD_BEFORE_DIFFS_MS";

  /**
   * A file: {@code serve} opens its store only once the file exists (the test makes it when it has
   * seen what it came to see).
   */
  static final String STORE_OPEN_UNTIL = "TURNDIFF_TEST_HOLD_STORE_OPEN_UNTIL";

  private final Map<Point, Duration> holds;

  private final Optional<Path> storeOpenRelease;

  /** The product's command line, with the hook the variables ask for. */
  public static void main(String[] args) {
    Main.launch(args, commandLine -> Main.hook(commandLine, fromEnvironment()));
  }

  private EnvTestHook(Map<Point, Duration> holds, Optional<Path> storeOpenRelease) {
    this.holds = holds;
    this.storeOpenRelease = storeOpenRelease;
  }

  /** {@link TestHook#NONE} unless one of the variables is set to a number of milliseconds. */
  static TestHook fromEnvironment() {
    Map<Point, Duration> holds = new EnumMap<>(Point.class);
    millis(AFTER_SNAPSHOT).ifPresent(hold -> holds.put(Point.SNAPSHOT_PRINTED, hold));
    millis(REWIND_PAUSE).ifPresent(hold -> holds.put(Point.BEFORE_REWIND_RENAME, hold));
    millis(REWIND_STAGED_PAUSE).ifPresent(hold -> holds.put(Point.REWIND_FILE_STAGED, hold));
    millis(REWIND_DONE_PAUSE)
        .ifPresent(hold -> holds.put(Point.BEFORE_REWIND_JOURNALED_DONE, hold));
    millis(REWIND_PRINTED_PAUSE).ifPresent(hold -> holds.put(Point.REWIND_PRINTED, hold));
    millis(GC_PAUSE).ifPresent(hold -> holds.put(Point.GC_STEP_COMMITTED, hold));
    millis(BEFORE_DIFFS).ifPresent(hold -> holds.put(Point.BEFORE_BACKGROUND_DIFFS, hold));
    Optional<Path> storeOpenRelease =
        Optional.ofNullable(System.getenv(STORE_OPEN_UNTIL)).map(Path::of);
    return holds.isEmpty() && storeOpenRelease.isEmpty()
        ? TestHook.NONE
        : new EnvTestHook(holds, storeOpenRelease);
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
    if (point == Point.SERVICE_STORE_OPENING && storeOpenRelease.isPresent()) {
      awaitFile(storeOpenRelease.get());
      return;
    }
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

  /** Returns once {@code release} exists (a minute at most: a test that forgot it fails anyway). */
  private static void awaitFile(Path release) {
    Instant deadline = Instant.now().plus(Duration.ofMinutes(1));
    try {
      while (!Files.exists(release) && Instant.now().isBefore(deadline)) {
        Thread.sleep(20);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
