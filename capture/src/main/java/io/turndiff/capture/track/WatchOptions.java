package io.turndiff.capture.track;

import io.turndiff.model.TestHook;
import java.time.Duration;

/**
 * Whether this process watches its tracked workspaces with inotify (the service does; a one-shot
 * command does not), how many directories one workspace may watch at most, and how often a watched
 * scan is checked against a full scan: every {@code verifyEvery}-th watched scan of a workspace,
 * and the first after {@code verifyAfter} without a check.
 */
public record WatchOptions(
    boolean enabled, int maxWatches, int verifyEvery, Duration verifyAfter, TestHook hook) {

  public static final WatchOptions OFF =
      new WatchOptions(false, 1, 1, Duration.ofMinutes(10), TestHook.NONE);

  /** The service's: watched, a check every 50th scan and at least every 10 minutes. */
  public static final WatchOptions SERVICE =
      new WatchOptions(true, 65_536, 50, Duration.ofMinutes(10), TestHook.NONE);

  public WatchOptions {
    if (maxWatches < 1 || verifyEvery < 1 || verifyAfter.isNegative()) {
      throw new IllegalArgumentException(
          "watch options must be positive: "
              + maxWatches
              + " watches, a check every "
              + verifyEvery
              + " scans");
    }
  }

  public WatchOptions withMaxWatches(int count) {
    return new WatchOptions(enabled, count, verifyEvery, verifyAfter, hook);
  }

  public WatchOptions withVerifyEvery(int scans) {
    return new WatchOptions(enabled, maxWatches, scans, verifyAfter, hook);
  }

  public WatchOptions withHook(TestHook testHook) {
    return new WatchOptions(enabled, maxWatches, verifyEvery, verifyAfter, testHook);
  }
}
