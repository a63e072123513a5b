package io.turndiff.boundary;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An open that may never return, waited for until a deadline. The fallback boundary cannot open
 * without blocking: a FIFO swapped in for a file between its stat and its open blocks the open
 * until a writer comes, which may be never. So the open runs on another thread and the caller waits
 * for it until the deadline; past it the caller is told the open blocked, and the open is abandoned
 * to its thread.
 *
 * <p>An abandoned open may still return a channel, when a writer comes late. Whichever of the two
 * claims the channel first decides who owns it: the caller, which then uses it even though its
 * deadline passed, or the opening thread, which then closes it at once. A late channel left to the
 * garbage collector would hold the FIFO's reading end open until a collection, and its writer would
 * see a reader that never reads.
 *
 * <p>What it does not protect: the abandoned thread itself stays blocked for as long as the open
 * does, since an open(2) of a FIFO is not interrupted by {@link Thread#interrupt()}.
 */
final class DeadlinedOpen {

  /** The blocking open; it releases what it holds (the stream it opens in) whether it succeeds. */
  interface Opening {
    SeekableByteChannel open() throws IOException;
  }

  private final AtomicBoolean claimed = new AtomicBoolean();
  private final FutureTask<SeekableByteChannel> task;

  private DeadlinedOpen(Opening opening) {
    this.task = new FutureTask<>(() -> handedOver(opening.open()));
  }

  /**
   * Runs {@code opening} on a thread of {@code threads} and waits for it until {@code
   * deadlineMillis}. When no thread could be started for it, it never runs: {@code ifNeverRun}
   * releases what it would have released, and the open fails naming why.
   */
  static Attempt<SeekableByteChannel> open(
      Opening opening, Runnable ifNeverRun, Executor threads, long deadlineMillis) {
    DeadlinedOpen open = new DeadlinedOpen(opening);
    try {
      threads.execute(open.task);
    } catch (RejectedExecutionException | OutOfMemoryError e) {
      // a thread the kernel would not start ("unable to create native thread") is an
      // OutOfMemoryError: the open never ran, and nothing else in this process is known to be short
      ifNeverRun.run();
      return Attempt.failed("no thread could be started for the open: " + e);
    }
    return open.waitUntil(deadlineMillis);
  }

  private Attempt<SeekableByteChannel> waitUntil(long deadlineMillis) {
    try {
      return Attempt.done(task.get(deadlineMillis, TimeUnit.MILLISECONDS));
    } catch (TimeoutException e) {
      if (claimed.compareAndSet(false, true)) {
        task.cancel(true);
        return Attempt.refused(new HandleFailure.Blocked());
      }
      // the open returned between the deadline and the claim: the channel is the caller's
      return lateButHandedOver();
    } catch (ExecutionException e) {
      return failure(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Attempt.failed("interrupted");
    }
  }

  /** On the opening thread: the channel, unless the caller gave up on it first (then closed). */
  private SeekableByteChannel handedOver(SeekableByteChannel channel) {
    if (!claimed.compareAndSet(false, true)) {
      StreamHandle.closeQuietly(channel);
      return null;
    }
    return channel;
  }

  private Attempt<SeekableByteChannel> lateButHandedOver() {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          // the opening thread claimed the channel and is returning it: this wait is that return's
          return Attempt.done(task.get());
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          return failure(e);
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static Attempt<SeekableByteChannel> failure(ExecutionException e) {
    return e.getCause() instanceof IOException io
        ? Attempt.refused(StreamHandle.failure(io))
        : Attempt.failed(String.valueOf(e.getCause().getMessage()));
  }
}
