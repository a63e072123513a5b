package io.turndiff.model;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * The process of an agent runtime, as its hook script names it: the pid, the process's start time
 * in clock ticks since boot (field 22 of {@code /proc/PID/stat}) and the boot it runs in. A pid
 * alone is not a process: the kernel gives a freed pid to the next process that asks, so a runtime
 * that exited could look alive through a stranger. Pid and start time together name one process of
 * one boot; the boot id keeps a process of an earlier boot from matching one that happens to have
 * the same pid and start time now.
 *
 * @param pid the process id, positive
 * @param startTicks its start time in clock ticks since boot, not negative
 * @param bootId the boot it was seen in ({@code /proc/sys/kernel/random/boot_id}), when known
 */
public record RuntimeProcess(long pid, long startTicks, Optional<String> bootId) {

  public RuntimeProcess {
    if (pid <= 0) {
      throw new IllegalArgumentException("a pid is positive, not " + pid);
    }
    if (startTicks < 0) {
      throw new IllegalArgumentException("a start time is not negative, not " + startTicks);
    }
  }

  /**
   * Whether this is the process that runs as {@code pid} now, in the boot {@code bootNow}: {@code
   * startedNow} is that pid's start time now (empty when no process has the pid). An unknown boot,
   * on either side, is taken to be this one: the start time still tells a reused pid.
   */
  public boolean isRunning(OptionalLong startedNow, Optional<String> bootNow) {
    boolean sameBoot = bootId.isEmpty() || bootNow.isEmpty() || bootId.equals(bootNow);
    return sameBoot && startedNow.isPresent() && startedNow.getAsLong() == startTicks;
  }
}
