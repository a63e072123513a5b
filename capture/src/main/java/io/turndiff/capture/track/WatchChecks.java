package io.turndiff.capture.track;

import io.turndiff.boundary.ThreadPriority;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

/**
 * Runs the watch's checks of the baselines hooks' scans wrote ({@link Watching}) on a thread of
 * their own, after the scan's hook has returned: at most one waiting per workspace (and one
 * running), one running at a time in all (a check is a whole walk of a tree: two at once would only
 * take the cores the hooks run on). Made when the first check is due, so a process that never
 * watches has no thread.
 */
final class WatchChecks implements AutoCloseable {

  /** A check of a workspace's baseline: false when it cannot be made yet. */
  @FunctionalInterface
  interface Check {
    boolean made(long workspaceId);
  }

  /** Hears of a check that threw before it was made. */
  @FunctionalInterface
  interface Failure {
    void of(long workspaceId, RuntimeException failure);
  }

  /**
   * How long after the write a check starts. The scan that wrote the baseline returns before its
   * transaction commits (a finish writes the index in the turn's own transaction), and a check
   * verifies the committed index: a finish commits in milliseconds, and by then the hooks of the
   * same moment (a begin's tool calls, the next prompt's begin) have gone first.
   */
  private static final Duration DELAY = Duration.ofSeconds(1);

  /**
   * How many times in all a check that finds the write not committed yet (a stalled commit on a
   * loaded machine) is tried, {@link #DELAY} apart, before it is left to the next baseline written.
   */
  private static final int ATTEMPTS = 3;

  /** How long closing waits for a check that is running: a whole walk of a big tree. */
  private static final Duration CLOSING_WAIT = Duration.ofSeconds(30);

  private static final System.Logger LOG = System.getLogger(WatchChecks.class.getName());

  private final Check check;
  private final LongConsumer notMade;
  private final Failure failed;
  private final Set<Long> pending = ConcurrentHashMap.newKeySet();
  private ScheduledExecutorService executor;
  private volatile boolean closed;

  /**
   * {@code check} checks the baseline of the workspace it is given; {@code notMade} hears of a
   * workspace whose check could not be made in {@value #ATTEMPTS} attempts, {@code failed} of a
   * check that threw.
   */
  WatchChecks(Check check, LongConsumer notMade, Failure failed) {
    this.check = check;
    this.notMade = notMade;
    this.failed = failed;
  }

  /** Checks {@code workspaceId}'s baseline {@link #DELAY} from now, unless a check is waiting. */
  void later(long workspaceId) {
    if (pending.add(workspaceId)) {
      schedule(workspaceId, 1);
    }
  }

  private void schedule(long workspaceId, int attempt) {
    try {
      executor().schedule(() -> run(workspaceId, attempt), DELAY.toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException | IllegalStateException e) {
      pending.remove(workspaceId); // closed: the service is ending
    }
  }

  private void run(long workspaceId, int attempt) {
    // no longer waiting: a check due while this one runs waits its turn behind it
    pending.remove(workspaceId);
    try {
      if (check.made(workspaceId)) {
        return;
      }
      if (attempt >= ATTEMPTS) {
        notMade.accept(workspaceId);
      } else if (pending.add(workspaceId)) {
        schedule(workspaceId, attempt + 1);
      }
    } catch (RuntimeException e) {
      if (closed) {
        return; // interrupted by the service's end: nothing was found, nothing is lost
      }
      // a failed check found nothing: counted where the user looks, and the next check due is
      // made as usual, not this one again at once (a failure that lasts would then walk the whole
      // tree after every hook)
      failed.of(workspaceId, e);
    }
  }

  private synchronized ScheduledExecutorService executor() {
    if (closed) {
      throw new IllegalStateException("closed");
    }
    if (executor == null) {
      ThreadFactory threads = Thread.ofPlatform().daemon().name("turndiff-watch-check").factory();
      // behind the hooks (ThreadPriority: nice 10 above the service's), and so the walk's listers
      // and readers it starts: on two cores a check's walk of a big tree otherwise takes the core
      // the next hook waits for (docs/performance.md)
      executor =
          Executors.newSingleThreadScheduledExecutor(
              work ->
                  threads.newThread(
                      () -> {
                        lowerThisThreadsPriority();
                        work.run();
                      }));
    }
    return executor;
  }

  /** The check's thread behind the hooks; where it cannot be, it runs as it is (logged once). */
  private static void lowerThisThreadsPriority() {
    Optional<String> whyNot;
    try {
      whyNot = ThreadPriority.backgroundForThisThread();
    } catch (RuntimeException | LinkageError e) {
      whyNot = Optional.of(e.toString());
    }
    whyNot.ifPresent(
        why ->
            LOG.log(
                System.Logger.Level.INFO,
                "the watch's checks run at the hooks' priority on this machine: " + why));
  }

  /** Drops the checks waiting, and waits for the one running (it reads through a lease). */
  @Override
  public void close() {
    ScheduledExecutorService running;
    synchronized (this) {
      closed = true;
      running = executor;
    }
    if (running == null) {
      return;
    }
    running.shutdownNow();
    try {
      running.awaitTermination(CLOSING_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
