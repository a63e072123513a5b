package io.turndiff.rewind;

import java.time.Instant;
import java.util.Optional;

/**
 * The process that applies a rewind operation, as the operation stores it ({@code pid:start time in
 * epoch ms}): a request that finds an operation still applying resumes it only when that process is
 * gone. The start time tells a process that died from a later one that reuses its pid.
 */
record RewindRunner(long pid, long startedAtMillis) {

  /** Two views of one process's start time differ by rounding at most. */
  private static final long SAME_START_MILLIS = 1_000;

  static RewindRunner current() {
    ProcessHandle self = ProcessHandle.current();
    return new RewindRunner(
        self.pid(), self.info().startInstant().map(Instant::toEpochMilli).orElse(0L));
  }

  static Optional<RewindRunner> parse(String stored) {
    int colon = stored.indexOf(':');
    try {
      return Optional.of(
          new RewindRunner(
              Long.parseLong(stored.substring(0, colon)),
              Long.parseLong(stored.substring(colon + 1))));
    } catch (RuntimeException malformed) {
      return Optional.empty();
    }
  }

  String stored() {
    return pid + ":" + startedAtMillis;
  }

  /**
   * Whether the process still runs; when its start time cannot be read, it is taken to run (never
   * resumed).
   */
  boolean isAlive() {
    Optional<ProcessHandle> process = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
    if (process.isEmpty()) {
      return false;
    }
    return process
        .get()
        .info()
        .startInstant()
        .map(start -> Math.abs(start.toEpochMilli() - startedAtMillis) < SAME_START_MILLIS)
        .orElse(true);
  }
}
