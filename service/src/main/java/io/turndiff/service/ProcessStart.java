package io.turndiff.service;

import io.turndiff.ownfiles.Proc;
import java.util.Optional;
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
    Optional<String> read = Proc.stat(pid);
    if (read.isEmpty()) {
      return OptionalLong.empty();
    }
    String stat = read.get();
    // the command name (field 2) is in parentheses and may hold spaces and ')': fields after the
    // last ')'; fields[0] is field 3 (the state), so field 22 is fields[19]
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    if (fields.length < 20 || fields[0].equals("Z") || fields[0].equals("X")) {
      return OptionalLong.empty();
    }
    try {
      return OptionalLong.of(Long.parseLong(fields[19]));
    } catch (NumberFormatException malformed) {
      return OptionalLong.empty();
    }
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
