package io.turndiff.model;

/**
 * The one place a test reaches into running code: the code calls {@link #reached} at a few named
 * points, and a test's hook holds it there (on a latch), fails it (by throwing), or changes the
 * workspace under it. It is injected once, where the services are put together; everything else
 * passes {@link #NONE}, which does nothing.
 */
@FunctionalInterface
public interface TestHook {

  TestHook NONE = point -> {};

  /** Where the code calls the hook. */
  enum Point {
    /** The command line printed a snapshot's result and has not exited yet. */
    SNAPSHOT_PRINTED,
    /** A rewind is about to rename one staged path over its name (or delete it): once per path. */
    BEFORE_REWIND_RENAME,
    /**
     * A rewind staged one file under its journaled temporary name (the path journaled started
     * before), and has not put it in place: once per file, on the thread that staged it.
     */
    REWIND_FILE_STAGED,
    /**
     * A rewind that writes made its dry run, and has not begun the transaction that stores its
     * operation (and plans it again there only if the store changed since the dry run's plan).
     */
    REWIND_DRY_RUN_DONE,
    /** A rewind put its staged paths in place, and has not journaled them done. */
    BEFORE_REWIND_JOURNALED_DONE,
    /**
     * The command line printed a rewind's report and has not made what it wrote durable (its {@code
     * syncfs} and the operation's synced mark).
     */
    REWIND_PRINTED,
    /** A garbage collection committed one of its steps (a group of turns, blobs, vacuum). */
    GC_STEP_COMMITTED,
    /** The background is about to compute the line diffs a finish left pending: once per turn. */
    BEFORE_BACKGROUND_DIFFS,
    /**
     * {@code turndiff serve} is about to open its store, on the thread that opens it while the HTTP
     * server starts.
     */
    SERVICE_STORE_OPENING,
    /** The watcher of a tracked workspace is about to read its queue of inotify events. */
    WATCH_READING,
    /**
     * A watched scan of a tracked workspace is done, and the whole scan that checks it has not
     * begun.
     */
    WATCH_CHECK_STARTING
  }

  /**
   * Called when the code reaches {@code point}; what it throws propagates as the code's own
   * failure.
   */
  void reached(Point point);
}
