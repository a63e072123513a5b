package io.turndiff.server;

import io.turndiff.hooks.HookSightings;
import java.io.PrintStream;

/**
 * Writes what the hook calls showed ({@link HookSightings}) to the store every {@value
 * #WRITE_EVERY_MS} ms, and once more when the service stops, so that {@code hooks status} after a
 * restart still shows the last calls. A hook call never waits for this write: the calls of one
 * prompt come seconds apart, and one transaction every few seconds for all that changed costs
 * nothing beside them, where a commit per call would double the cost of the call path. A write that
 * fails is a line of the service's log; what it would have written is written by the next.
 */
final class HookSightingsWriter implements AutoCloseable {

  /**
   * How often to write: a restart loses at most the calls of these last seconds, only when the
   * service was killed (a stop writes them), and a killed service had no calls in its last moments
   * worth more than the ones before.
   */
  static final long WRITE_EVERY_MS = 5_000;

  private final HookSightings sightings;
  private final PeriodicTask task;

  private HookSightingsWriter(HookSightings sightings, PrintStream log) {
    this.sightings = sightings;
    this.task =
        PeriodicTask.start(
            "turndiff-hook-sightings",
            WRITE_EVERY_MS,
            WRITE_EVERY_MS,
            sightings::persistChanged,
            log,
            "keeping the hook sightings in the store");
  }

  static HookSightingsWriter start(HookSightings sightings, PrintStream log) {
    return new HookSightingsWriter(sightings, log);
  }

  /**
   * Stops the schedule (a write in progress ends), then writes what changed since: the service's
   * hook calls were all served by then.
   */
  @Override
  public void close() {
    task.close();
    sightings.persistChanged();
  }
}
