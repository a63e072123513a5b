package io.turndiff.review;

import io.turndiff.diff.FilePatch;
import io.turndiff.model.Sha256;
import io.turndiff.model.TestHook;
import io.turndiff.store.BlobEncoder;
import io.turndiff.store.EncodedBlob;
import io.turndiff.store.Store;
import io.turndiff.store.StoredFileChange;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Computes and stores the line diffs a finish left pending, after it, off the runtime's path: one
 * turn at a time on a thread of its own, the files of a turn spread over the cores, the diffs of a
 * turn stored in one transaction. Crash-safe by construction: until that commit the rows say their
 * diff is pending, a query computes it on the spot ({@link PendingDiffs}), and {@link #catchUp}
 * (run when the service opens the store) computes whatever a dead process left.
 */
public final class BackgroundDiffs implements AutoCloseable {

  /** How long closing waits for the diffs already asked for (the rest stay pending). */
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(30);

  /** Turns with fewer files compute them on the worker thread alone. */
  private static final int PARALLEL_FILES = 8;

  private final Store store;
  private final PendingDiffs diffs;
  private final TestHook hook;
  private final ExecutorService worker =
      Executors.newSingleThreadExecutor(
          Thread.ofPlatform().daemon().name("turndiff-diffs").factory());
  private volatile boolean abandoned;

  public BackgroundDiffs(Store store, PendingDiffs diffs, TestHook hook) {
    this.store = store;
    this.diffs = diffs;
    this.hook = hook;
  }

  /** Computes the pending diffs of the turn row {@code turnRow} soon, in the background. */
  public void computeLater(long turnRow) {
    if (store.readOnly()) {
      return;
    }
    try {
      worker.execute(() -> computeQuietly(turnRow));
    } catch (RejectedExecutionException closing) {
      // closing: the diffs stay pending, computed on the spot or when a service opens the store
    }
  }

  /**
   * Waits until the diffs asked for so far are stored (the worker runs them in order, one at a
   * time): for a caller that must see the store at rest, such as a test counting rows.
   */
  public void awaitAskedFor() {
    try {
      worker.submit(() -> {}).get();
    } catch (RejectedExecutionException closing) {
      // closed: nothing more runs
    } catch (ExecutionException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Computes, in the background, every pending diff the store holds (a dead process's too). */
  public void catchUp() {
    if (store.readOnly()) {
      return;
    }
    store.read(tx -> tx.fileChanges().turnsWithDiffsPending()).forEach(this::computeLater);
  }

  private void computeQuietly(long turnRow) {
    try {
      computeNow(turnRow);
    } catch (RuntimeException e) {
      // they stay pending: a query computes them on the spot, the next service start again
      System.err.println(
          "turndiff: the line diffs of a finished turn stay pending for now: " + e.getMessage());
    }
  }

  /** A computed diff, compressed off the store's lock. */
  private record Computed(
      StoredFileChange change,
      FilePatch patch,
      Optional<Sha256> hash,
      Optional<EncodedBlob> blob) {}

  /**
   * Computes and stores the pending diffs of turn row {@code turnRow} on this thread (its files on
   * several cores); returns how many it stored (a diff a query or another process stored first is
   * left as it is: it is the same).
   */
  public int computeNow(long turnRow) {
    hook.reached(TestHook.Point.BEFORE_BACKGROUND_DIFFS);
    if (abandoned) {
      return 0;
    }
    // a finished turn's records: no row of the before log is of it, so the reads and the write
    // leave the log to the next turn's finish (Store#writeWithoutFolding) instead of folding the
    // few rows its snapshot calls logged since, while those calls wait
    List<StoredFileChange> pending =
        store.readWithoutFolding(tx -> tx.fileChanges().diffPendingOfTurn(turnRow));
    if (pending.isEmpty()) {
      return 0;
    }
    List<Computed> computed =
        (pending.size() < PARALLEL_FILES ? pending.stream() : pending.parallelStream())
            .map(this::compute)
            .toList();
    return store.writeWithoutFolding(
        tx -> {
          int stored = 0;
          for (Computed diff : computed) {
            diff.blob().ifPresent(tx.blobs()::put);
            if (tx.fileChanges()
                .storeDiff(
                    diff.change().id(),
                    diff.patch().added(),
                    diff.patch().removed(),
                    diff.hash())) {
              stored++;
            }
          }
          return stored;
        });
  }

  private Computed compute(StoredFileChange change) {
    FilePatch patch = store.readWithoutFolding(tx -> diffs.patchOf(tx, change));
    Optional<Sha256> hash = PendingDiffs.hashOf(patch);
    return new Computed(
        change,
        patch,
        hash,
        hash.map(sha -> BlobEncoder.encode(sha, patch.text().getBytes(StandardCharsets.UTF_8))));
  }

  /**
   * Waits (a while) for the diffs already asked for; what is left stays pending, computed when a
   * service next opens the store.
   */
  @Override
  public void close() {
    worker.shutdown();
    try {
      if (!worker.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        abandoned = true;
        worker.shutdownNow();
        worker.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      abandoned = true;
      worker.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
