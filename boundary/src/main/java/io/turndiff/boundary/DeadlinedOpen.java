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
 * see a reader that never reads. A caller interrupted while it waits claims the same way.
 *
 * <p>What the open holds while it runs (the directory stream it opens in) is released exactly once,
 * on one of two paths: when the open has returned or thrown, on its own thread, or at once when no
 * thread could be started for it. The task is never cancelled, so a thread started late, after the
 * caller gave up, still runs it and releases what it holds.
 *
 * <p>What it does not protect: the abandoned thread itself stays blocked for as long as the open
 * does, since an open(2) of a FIFO is not interrupted by {@link Thread#interrupt()}.
 */
final class DeadlinedOpen {

  /** The blocking open. */
  interface Opening {
    SeekableByteChannel open() throws IOException;
  }

  private final AtomicBoolean claimed = new AtomicBoolean();
  private final FutureTask<SeekableByteChannel> task;

  private DeadlinedOpen(Opening opening, AutoCloseable held) {
    this.task =
        new FutureTask<>(
            () -> {
              try {
                return handedOver(opening.open());
              } finally {
                StreamHandle.closeQuietly(held);
              }
            });
  }

  /**
   * Runs {@code opening} on a thread of {@code threads} and waits for it until {@code
   * deadlineMillis}; {@code held} is what the open holds while it runs, released once it is over.
   * When no thread could be started for it, it never runs: {@code held} is released at once, and
   * the open fails naming why. {@code threads} starts the task at once or throws without keeping it
   * (a thread per open, or a cached pool, which hands a task to a thread or makes one): an executor
   * that queued a task it then refused could run it later and release {@code held} twice.
   */
  static Attempt<SeekableByteChannel> open(
      Opening opening, AutoCloseable held, Executor threads, long deadlineMillis) {
    DeadlinedOpen open = new DeadlinedOpen(opening, held);
    try {
      threads.execute(open.task);
    } catch (RejectedExecutionException | OutOfMemoryError e) {
      // A thread the kernel would not start ("unable to create native thread") is an
      // OutOfMemoryError. The open never ran; nothing else in this process is known to be short.
      StreamHandle.closeQuietly(held);
      return Attempt.failed("no thread could be started for the open: " + e);
    }
    return open.waitUntil(deadlineMillis);
  }

  private Attempt<SeekableByteChannel> waitUntil(long deadlineMillis) {
    try {
      return Attempt.done(task.get(deadlineMillis, TimeUnit.MILLISECONDS));
    } catch (TimeoutException e) {
      if (claimed.compareAndSet(false, true)) {
        // an open that fails between the deadline and this claim is told as blocked too: it did
        // not return in time either way
        return Attempt.refused(new HandleFailure.Blocked());
      }
      // the open returned between the deadline and the claim: the channel is the caller's
      return lateButHandedOver();
    } catch (ExecutionException e) {
      return failure(e);
    } catch (InterruptedException e) {
      if (!claimed.compareAndSet(false, true)
          && lateButHandedOver() instanceof Attempt.Done<SeekableByteChannel> channel) {
        // the open returned first: the channel is the caller's, and the caller is stopping
        StreamHandle.closeQuietly(channel.value());
      }
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
