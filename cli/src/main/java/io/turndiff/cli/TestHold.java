package io.turndiff.cli;

/**
 * Lets a crash test hold a CLI process at a known point so that it can {@code kill -9} it there. Only read
 * from the environment; without the variable nothing waits.
 */
final class TestHold {

  static final String AFTER_SNAPSHOT = "TURNDIFF_TEST_HOLD_AFTER_SNAPSHOT_MS";
  static final String REWIND_PAUSE = "TURNDIFF_TEST_REWIND_PAUSE_MS";

  private TestHold() {
  }

  /** After a snapshot call committed and printed its result, as a runtime that dies mid-turn would. */
  static void afterSnapshot() {
    hold(System.getenv(AFTER_SNAPSHOT));
  }

  /** How long a rewind waits before renaming each staged path over its name. */
  static java.time.Duration rewindPause() {
    String millis = System.getenv(REWIND_PAUSE);
    return millis == null || millis.isBlank() ? java.time.Duration.ZERO
        : java.time.Duration.ofMillis(Long.parseLong(millis.strip()));
  }

  private static void hold(String millis) {
    if (millis == null || millis.isBlank()) {
      return;
    }
    try {
      Thread.sleep(Long.parseLong(millis.strip()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
