package io.turndiff.server;

import java.io.PrintStream;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One piece of the service's own work run on a daemon thread of its own, again and again with a
 * fixed delay between runs; a run that fails is a line of the service's log, and the next run tries
 * again (a scheduled task that throws would never run again, so every failure ends here).
 */
final class PeriodicTask implements AutoCloseable {

  private final ScheduledExecutorService thread;

  private PeriodicTask(String name) {
    thread =
        Executors.newSingleThreadScheduledExecutor(
            work -> Thread.ofPlatform().name(name).daemon().unstarted(work));
  }

  /**
   * Runs {@code work} after {@code firstAfterMs} ms, then every {@code everyMs} ms after each run
   * ends, on the thread {@code name}; a failure is logged as "{@code turndiff serve: <failing>
   * failed: …}".
   */
  static PeriodicTask start(
      String name,
      long firstAfterMs,
      long everyMs,
      Runnable work,
      PrintStream log,
      String failing) {
    PeriodicTask task = new PeriodicTask(name);
    Runnable guarded =
        () -> {
          try {
            work.run();
          } catch (RuntimeException e) {
            log.println("turndiff serve: " + failing + " failed: " + e);
          }
          log.flush();
        };
    ScheduledFuture<?> unused =
        task.thread.scheduleWithFixedDelay(guarded, firstAfterMs, everyMs, TimeUnit.MILLISECONDS);
    return task;
  }

  /** Lets a run in progress end, then runs no more. */
  @Override
  public void close() {
    thread.close();
  }
}
