package io.turndiff.service;

import io.turndiff.ownfiles.Proc;
import java.util.OptionalLong;

/**
 * When a process started, in clock ticks since boot (field 22 of {@code /proc/PID/stat}): with its
 * pid, it names the process even after the pid is reused. A process that has exited but was not
 * reaped yet (a zombie: a daemon's parent is gone, and not every init reaps) counts as ended.
 */
public final class ProcessStart {

  private ProcessStart() {}

  /** The start time of {@code pid}; empty when it does not run or there is no {@code /proc}. */
  public static OptionalLong ticks(long pid) {
    return Proc.startTicks(pid);
  }

  /** Whether {@code pid} runs (and started at {@code recorded}, when that is known). */
  static boolean matches(long pid, OptionalLong recorded) {
    if (pid <= 0) {
      return false;
    }
    if (!Proc.mounted()) {
      return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
    OptionalLong now = ticks(pid);
    return now.isPresent() && (recorded.isEmpty() || recorded.equals(now));
  }

  /** Whether {@code pid} runs now. */
  public static boolean running(long pid) {
    return matches(pid, OptionalLong.empty());
  }
}
