package io.turndiff.server;

import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireGcRun;
import io.turndiff.api.wire.WireServiceGc;
import io.turndiff.model.TestHook;
import io.turndiff.store.GarbageCollector;
import io.turndiff.store.RetentionPolicy;
import io.turndiff.store.Store;
import io.turndiff.store.StoreException;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The garbage collections the service makes on its own: every {@link ServiceOptions#gcEvery()}
 * (daily by default), and when the bytes of the store's pages in use have passed the {@code
 * max-size} kept with the store ({@code turndiff config}), which it looks at every {@link
 * ServiceOptions#gcSizeCheck()}. Each collection applies the policy kept with the store at that
 * moment, with the default grace, in the short steps of {@link GarbageCollector} (requests wait at
 * most one step for the store), and never the full {@code VACUUM} that converts a store made before
 * incremental vacuum: that one holds the store while it copies it, so it is left to {@code turndiff
 * gc}.
 *
 * <p>A collection that could not bring the store under its size (the newest turns, open turns and
 * fresh blobs are kept) is not repeated at every look: the next one for the size waits until the
 * store has grown by a tenth of the limit since. One collection at a time, on a thread of its own;
 * what each did is one line of the service's log and the last one is in its status.
 */
final class ScheduledCollection implements AutoCloseable {

  static final String SCHEDULE = "schedule";
  static final String SIZE = "size";

  private final Store store;
  private final TestHook hook;
  private final Duration every;
  private final Duration sizeCheck;
  private final PrintStream log;
  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(
          work -> Thread.ofPlatform().name("turndiff-gc").daemon().unstarted(work));

  private volatile Instant nextAt;
  private volatile WireGcRun last;
  private volatile GarbageCollector running;
  private volatile boolean closed;

  /** The bytes in use after the last collection, -1 before the first (the gc thread's own). */
  private long inUseAfterLast = -1;

  private ScheduledCollection(Turndiff turndiff, ServiceOptions options, PrintStream log) {
    this.store = turndiff.store();
    this.hook = turndiff.hook();
    this.every = options.gcEvery();
    this.sizeCheck = options.gcSizeCheck();
    this.log = log;
    this.nextAt = store.clock().instant().plus(every);
  }

  /** Starts the schedule of {@code options} (nothing runs when both intervals are zero). */
  static ScheduledCollection start(Turndiff turndiff, ServiceOptions options, PrintStream log) {
    ScheduledCollection collection = new ScheduledCollection(turndiff, options, log);
    Duration tick =
        collection.every.isZero()
            ? collection.sizeCheck
            : collection.sizeCheck.isZero()
                ? collection.every
                : min(collection.every, collection.sizeCheck);
    if (!tick.isZero()) {
      ScheduledFuture<?> unused =
          collection.thread.scheduleWithFixedDelay(
              collection::tick, tick.toMillis(), tick.toMillis(), TimeUnit.MILLISECONDS);
    }
    return collection;
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  /** What the status says about the collections. */
  WireServiceGc status() {
    return new WireServiceGc(
        every.toSeconds(), sizeCheck.toSeconds(), every.isZero() ? null : nextAt.toString(), last);
  }

  private void tick() {
    // a scheduled task that throws is never run again: every failure ends here
    try {
      if (closed || store.readOnly()) {
        return;
      }
      Instant now = store.clock().instant();
      if (!every.isZero() && !now.isBefore(nextAt)) {
        nextAt = now.plus(every);
        collect(SCHEDULE);
        return;
      }
      if (!sizeCheck.isZero() && overSize()) {
        collect(SIZE);
      }
    } catch (RuntimeException e) {
      // looking at the size failed (the kept policy cannot be read, say)
      Instant now = store.clock().instant();
      record(WireGcRun.ended(SIZE, now, now, WireGcRun.FAILED, describe(e)));
    }
  }

  /**
   * Whether the pages in use have passed the kept {@code max-size} (the measure the collection
   * itself goes by), and grown by a tenth of it since a collection that could not get under it.
   */
  private boolean overSize() {
    RetentionPolicy kept = keptPolicy();
    if (kept.maxSize().isEmpty()) {
      return false;
    }
    long max = kept.maxSize().getAsLong();
    long size = store.read(tx -> tx.retention().bytesInUse());
    if (size <= max) {
      return false;
    }
    return inUseAfterLast < 0 || inUseAfterLast <= max || size - inUseAfterLast >= max / 10;
  }

  private RetentionPolicy keptPolicy() {
    return store.read(tx -> RetentionPolicy.stored(tx.settings(), RetentionPolicy.DEFAULT_GRACE));
  }

  private void collect(String trigger) {
    GarbageCollector collector = new GarbageCollector(store, hook).withoutFullVacuum();
    running = collector;
    Instant started = store.clock().instant();
    try {
      if (closed) {
        return; // close() may have looked for a running collection before this one was set
      }
      String note =
          collector.givesSpaceBackInSteps()
              ? null
              : "the store was made before incremental vacuum: the pages freed are reused but not"
                  + " given back to the file system; `turndiff gc` converts it once (it holds the"
                  + " store while it copies it)";
      GarbageCollector.Result result = collector.collect(keptPolicy(), false);
      inUseAfterLast = result.bytesInUse();
      record(WireGcRun.done(trigger, started, store.clock().instant(), result, note));
    } catch (GarbageCollector.Stopped e) {
      record(
          WireGcRun.ended(
              trigger,
              started,
              store.clock().instant(),
              WireGcRun.STOPPED,
              "the service stopped; what was committed stays, the next collection does the rest"));
    } catch (RuntimeException e) {
      inUseAfterLast = store.read(tx -> tx.retention().bytesInUse());
      record(
          WireGcRun.ended(
              trigger, started, store.clock().instant(), WireGcRun.FAILED, describe(e)));
    } finally {
      running = null;
    }
  }

  private void record(WireGcRun run) {
    last = run;
    log.println("turndiff serve: gc " + Json.write(run, false));
    log.flush();
  }

  private static String describe(RuntimeException e) {
    return e instanceof StoreException ? e.getMessage() : e.toString();
  }

  /** Stops a collection in progress after its current step and waits for it to end. */
  @Override
  public void close() {
    closed = true;
    GarbageCollector collector = running;
    if (collector != null) {
      collector.stop();
    }
    thread.shutdown();
    try {
      if (!thread.awaitTermination(30, TimeUnit.SECONDS)) {
        thread.shutdownNow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
