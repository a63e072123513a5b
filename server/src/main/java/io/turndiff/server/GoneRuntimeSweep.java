package io.turndiff.server;

import io.turndiff.hooks.GoneRuntimes;
import java.io.PrintStream;
import java.util.List;

/**
 * The service's look, every {@value #LOOK_EVERY_MS} ms, for open hooked turns whose runtime is gone
 * ({@link GoneRuntimes}), which it finishes; the first look is at the service's start, so that the
 * turns a previous service left open are found too (after the grace, counted from the start). Each
 * turn finished so is a line of the service's log; a look that fails is one too, and the next look
 * tries again.
 */
final class GoneRuntimeSweep implements AutoCloseable {

  /**
   * How often to look: a small fraction of the grace ({@link GoneRuntimes#GRACE}), so that a turn
   * is finished at most a few seconds after it may be; each look is one read of the open turns and
   * a read of {@code /proc/PID/stat} for each.
   */
  static final long LOOK_EVERY_MS = 5_000;

  private final GoneRuntimes goneRuntimes;
  private final PrintStream log;
  private PeriodicTask task;

  private GoneRuntimeSweep(GoneRuntimes goneRuntimes, PrintStream log) {
    this.goneRuntimes = goneRuntimes;
    this.log = log;
  }

  static GoneRuntimeSweep start(GoneRuntimes goneRuntimes, PrintStream log) {
    GoneRuntimeSweep sweep = new GoneRuntimeSweep(goneRuntimes, log);
    sweep.task =
        PeriodicTask.start(
            "turndiff-gone-runtimes",
            0,
            LOOK_EVERY_MS,
            sweep::look,
            log,
            "looking for turns whose runtime is gone");
    return sweep;
  }

  private void look() {
    List<String> finished = goneRuntimes.finishTurnsOfGoneRuntimes();
    finished.forEach(
        turn ->
            log.println(
                "turndiff serve: turn "
                    + turn
                    + " finished by the service from a scan: its runtime is gone (its process"
                    + " exited without its Stop hook)"));
  }

  /** Lets a look in progress end (a turn's finish is not cut short), then stops looking. */
  @Override
  public void close() {
    task.close();
  }
}
