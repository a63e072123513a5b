package io.turndiff.server;

import io.turndiff.api.Json;
import io.turndiff.store.Store;
import java.io.PrintStream;
import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Wakes every open panel when another process commits to the store (docs/review-panel.md, "Live
 * updates"): a CLI {@code snapshot} or {@code turn finish}, a second service, a {@code gc}. The
 * service's own endpoints announce what they commit ({@link PanelEvents#publish}); what other
 * processes commit reaches the panel only through the store, which is the source of truth (SQLite's
 * data version, PostgreSQL's {@code LISTEN}/{@code NOTIFY}: {@link Store#commitsByOthers()}). Every
 * {@value #LOOK_EVERY_MS} ms, while a stream is open, it reads {@link Store#commitsByOthers()};
 * when that number moved, it sends {@value #EVENT} to every stream, and the page reloads what it
 * shows, as after a reconnect.
 *
 * <p>Which turns the other process touched is not known here (the number says only that something
 * was committed), so the event carries no turn and goes to every scope: a page that reloads once
 * for a change it did not need costs one listing query, while a turn missed is the "Live" that
 * lies.
 */
final class ForeignCommits implements AutoCloseable {

  /** The event's name on the stream. */
  static final String EVENT = "store_changed";

  /**
   * How often to look: a turn written by another process shows within a quarter of a second, and
   * each look is one pragma on the write connection (SQLite; skipped while this process writes) or
   * a read of what the listening connection holds, without waiting (PostgreSQL's notices).
   */
  static final long LOOK_EVERY_MS = 250;

  /** No number seen yet: the first one read is the baseline, not a change. */
  private static final long UNKNOWN = Long.MIN_VALUE;

  private final Store store;
  private final PanelEvents events;
  private final PrintStream log;
  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(
          work -> Thread.ofPlatform().name("turndiff-foreign-commits").daemon().unstarted(work));
  private long seen = UNKNOWN;
  private boolean failing;

  private ForeignCommits(Store store, PanelEvents events, PrintStream log) {
    this.store = store;
    this.events = events;
    this.log = log;
  }

  static ForeignCommits start(Store store, PanelEvents events, PrintStream log) {
    ForeignCommits looking = new ForeignCommits(store, events, log);
    ScheduledFuture<?> unused =
        looking.thread.scheduleWithFixedDelay(
            looking::look, 0, LOOK_EVERY_MS, TimeUnit.MILLISECONDS);
    return looking;
  }

  private void look() {
    // a scheduled task that throws is never run again: every failure ends here
    try {
      if (!events.watched()) {
        // a page that opens a stream loads what it shows first; nothing before that is news. And
        // nobody listens meanwhile: PostgreSQL keeps each notice until every listening connection
        // has read it, and a queue that fills (8 GB) fails every commit that notifies
        seen = UNKNOWN;
        store.stopLookingForCommitsByOthers();
        return;
      }
      OptionalLong version = store.commitsByOthers();
      if (version.isEmpty()) {
        return;
      }
      long now = version.getAsLong();
      if (seen != UNKNOWN && now != seen) {
        events.broadcast(EVENT, Json.object().put("by", "another process"));
      }
      seen = now;
      failing = false;
    } catch (RuntimeException e) {
      // said once per run of failures, not four times a second
      if (!failing) {
        log.println("turndiff serve: looking for other processes' commits failed: " + e);
        log.flush();
      }
      failing = true;
    }
  }

  @Override
  public void close() {
    thread.close();
  }
}
