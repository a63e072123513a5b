package io.turndiff.rewind;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The rewinds a service has answered and not yet made durable, synced on one thread of their own,
 * in the order they came ({@link RewindService#makeDurableLater}). The caller of a rewind waits for
 * its files to be in place and its journal to say done, not for the disk: a {@code syncfs} waits
 * for everything dirty on the file system, the rewind's writes and every other program's, and was
 * the largest part of a small rewind's wait (docs/performance.md).
 *
 * <p>What it does not protect: a sync that never runs (the service killed, or closed while one was
 * queued) leaves its operation done and not synced, which is no loss: the next rewind in the
 * workspace syncs it first in the same boot, and in the next boot has every path it wrote checked
 * against its intended hash and redone from the store ({@link PowerLossRecovery}).
 */
final class SyncsAfterTheAnswer implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(SyncsAfterTheAnswer.class.getName());

  /** How long closing waits for the syncs already asked for. */
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(30);

  private final ExecutorService worker =
      Executors.newSingleThreadExecutor(
          Thread.ofPlatform().daemon().name("turndiff-rewind-sync").factory());

  /** Runs {@code sync} soon, after the syncs asked for before it. */
  void later(String operation, Runnable sync) {
    try {
      worker.execute(() -> runQuietly(operation, sync));
    } catch (RejectedExecutionException closing) {
      // closing: the operation stays unsynced, synced by the next rewind of its workspace
    }
  }

  private static void runQuietly(String operation, Runnable sync) {
    try {
      sync.run();
    } catch (RuntimeException failed) {
      // the operation stays done and not synced, which its receipt says (in_place); the next
      // rewind of the workspace syncs it, or checks it after a restart
      LOG.log(
          System.Logger.Level.WARNING,
          "rewind operation '" + operation + "' could not be made durable: " + failed,
          failed);
    }
  }

  /** Waits (a while) for the syncs already asked for; those left stay unsynced in the store. */
  @Override
  public void close() {
    worker.shutdown();
    try {
      if (!worker.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        worker.shutdownNow();
      }
    } catch (InterruptedException e) {
      worker.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
