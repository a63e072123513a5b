package io.turndiff.store;

import io.turndiff.ownfiles.FileStamp;
import io.turndiff.ownfiles.OwnFile;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Moves a SQLite store's write-ahead log into its database file beside the writer, on a thread and
 * a connection of its own, so that no hook waits for it.
 *
 * <p>Why: SQLite checkpoints on its own in the commit that takes the log past {@code
 * wal_autocheckpoint} pages: it copies every page logged since the last checkpoint into the
 * database file and syncs both files, inside the commit of whichever writer made it (a hook's, or
 * the background diffs'), which holds the store's write lock meanwhile. Measured on the watched
 * prompt at 20,000 files (docs/performance.md, "The watched prompt's p99"): 40 MB copied and two
 * syncs of 12–63 ms each, once in 250–300 prompts, with the prompts queued behind it: its p99 of
 * 80–100 ms against a median of 12.
 *
 * <p>Here a commit only {@linkplain #committed() says so}; a {@link #PAUSE} after it, on this
 * thread, the log's length is looked at, and once it is {@code full} (as long as the writer's own
 * checkpoint used to let it grow) a {@code PASSIVE} checkpoint moves it while the writer goes on:
 * in WAL mode a passive checkpoint copies the pages committed before it began and neither waits for
 * a writer nor makes one wait (it takes no lock a commit needs). The writer's own checkpoint stays
 * armed, at twice that, for a log this thread cannot keep up with or one held back by a reader.
 *
 * <p>Why not after every burst of commits, which would keep the log short: SQLite starts the log
 * again from its beginning at the first commit after a checkpoint moved all of it, and syncs the
 * log's new header in that commit (so that a write the disk reorders after the restart cannot
 * damage the store). Moved after every quiet second, the log made a hook's commit pay that sync
 * (3–6 ms here) after every quiet second: {@code RewindSyncCountTest} found it in the rewind's
 * commit. Moved when full, the log is started again as rarely as before, and what left the hooks'
 * path is the copy and its two syncs. The log's length is its file's: the commit that starts it
 * again cuts the file to {@code journal_size_limit} ({@link Sqlite}), far below {@code full}.
 *
 * <p>What it does not change: a commit's durability (the log is the log either way; a checkpoint
 * killed half way leaves the pages in it); the last connection to close, the writer, still moves
 * what is left and removes the log, so the checkpointer is {@linkplain #close() closed} before it.
 * A checkpoint that fails leaves its pages in the log, as durable there, for the next one: the
 * connection is opened again for it.
 */
final class WalCheckpointer implements AutoCloseable {

  /**
   * How long after a commit the log's length is looked at, and it is moved when full. A quarter of
   * a second: at the watched prompt's pace (about 70 a second, 35 pages each) a full log that
   * cannot be started again (commits land while it is copied) is moved about 2.5 MB at a time, and
   * the writer's own checkpoint, which starts it again in a writer's commit, finds that much at
   * most to copy. A second left it four times as much, and its p99.9 twice as long
   * (docs/performance.md, "The checkpoint beside the writer"); a look is a stat of the log.
   */
  static final Duration PAUSE = Duration.ofMillis(250);

  /**
   * How long the thread stays once nothing is due: half a minute, so that a turn's hooks, seconds
   * apart, keep one thread, and a store nobody writes keeps none.
   */
  private static final Duration IDLE = Duration.ofSeconds(30);

  /** Opens the checkpoint's own connection, one that may write. */
  interface Opener {
    Connection open() throws SQLException;
  }

  private final Opener opener;
  private final OwnFile log;
  private final long full;
  private final ScheduledThreadPoolExecutor scheduler;
  private final AtomicBoolean scheduled = new AtomicBoolean();

  /**
   * Held while a checkpoint runs, here or a {@linkplain #exclusively caller's}: SQLite refuses a
   * second checkpoint while one runs (busy, silently, whatever its mode).
   */
  private final ReentrantLock checkpointing = new ReentrantLock();

  private volatile boolean closed;

  /** Opened by the first checkpoint; used and closed under {@link #checkpointing} only. */
  private Connection connection;

  private PreparedStatement passive;

  /**
   * @param log the store's write-ahead log file
   * @param full the log's length, in bytes, from which it is moved
   * @param name what the thread is called after (the store's file name)
   */
  WalCheckpointer(Opener opener, Path log, long full, String name) {
    this.opener = opener;
    this.log = OwnFile.of(log);
    this.full = full;
    this.scheduler =
        new ScheduledThreadPoolExecutor(
            1,
            work ->
                Thread.ofPlatform().daemon().name("turndiff-checkpoint-" + name).unstarted(work));
    // started again by the next commit
    scheduler.setKeepAliveTime(IDLE.toMillis(), TimeUnit.MILLISECONDS);
    scheduler.allowCoreThreadTimeOut(true);
  }

  /**
   * The writer committed: a checkpoint runs a {@link #PAUSE} from now, unless one is already due.
   * Costs a commit one compare-and-set, and a scheduling once a pause.
   */
  void committed() {
    if (closed || !scheduled.compareAndSet(false, true)) {
      return;
    }
    try {
      scheduler.schedule(this::movePages, PAUSE.toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException closing) {
      // closed meanwhile: the writer's close moves what is left
    }
  }

  /** The checkpoint, when the log is full: {@code PASSIVE}, on this thread's connection. */
  private void movePages() {
    // cleared first: a commit from now on is after the checkpoint's start, so it needs another
    scheduled.set(false);
    checkpointing.lock();
    try {
      if (!closed && logBytes() >= full) {
        passive().execute();
      }
    } catch (SQLException | IOException | RuntimeException failed) {
      // the pages stay in the log, where they are as durable; the next checkpoint (this one's
      // again, after the next commit, or the writer's) moves them on a connection opened anew. Any
      // exception is caught: one left to the executor would be kept in a future nobody reads
      closeConnection();
    } finally {
      checkpointing.unlock();
    }
  }

  /** The log file's length; 0 when there is none (a store removed while open). */
  private long logBytes() throws IOException {
    return log.stamp().map(FileStamp::size).orElse(0L);
  }

  private PreparedStatement passive() throws SQLException {
    if (connection == null) {
      Connection opened = opener.open();
      try {
        passive = opened.prepareStatement("PRAGMA wal_checkpoint(PASSIVE)");
      } catch (SQLException | RuntimeException e) {
        opened.close();
        throw e;
      }
      connection = opened;
    }
    return passive;
  }

  /**
   * Runs {@code work}, the writer's own checkpoint, with none of this one's under way: SQLite would
   * refuse it as busy and say so only in a row nobody reads ({@link Store#checkpoint}'s callers
   * count on the log being moved and emptied when it returns).
   */
  <T> T exclusively(Supplier<T> work) {
    checkpointing.lock();
    try {
      return work.get();
    } finally {
      checkpointing.unlock();
    }
  }

  /**
   * Stops the thread and closes the connection, waiting for a checkpoint under way (SQLite's copy
   * cannot be interrupted; it ends within the pages of one pause). A checkpoint due and not begun
   * is dropped: the writer, closed after, moves what is left.
   */
  @Override
  public void close() {
    closed = true;
    scheduler.shutdownNow();
    // one under way holds the lock until it ends; one taken from the queue just before finds the
    // checkpointer closed under it
    checkpointing.lock();
    try {
      closeConnection();
    } finally {
      checkpointing.unlock();
    }
  }

  private void closeConnection() {
    if (connection == null) {
      return;
    }
    try {
      connection.close();
    } catch (SQLException ignored) {
      // closing only gives back what SQLite held for it
    } finally {
      connection = null;
      passive = null;
    }
  }
}
