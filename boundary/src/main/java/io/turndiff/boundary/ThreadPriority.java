package io.turndiff.boundary;

/**
 * The scheduling priority of a thread that works in the background of the hooks: the watch's check,
 * a whole walk of the tree each time, which on a machine of two cores would otherwise take the core
 * a hook waits for.
 *
 * <p>Linux schedules each thread on its own and lets any thread lower its own priority (raise its
 * nice value) without privilege; the threads it starts afterwards inherit it, so the listers and
 * readers a walk starts run as low. What it cannot do without privilege is raise it again: a thread
 * lowered here must never start a thread that outlives its own work and serves anyone else (a
 * shared pool first used from it), or that thread would serve the hooks from behind them too.
 *
 * <p>The value is {@value #BACKGROUND}, not the lowest (19): the scheduler gives a thread at 10
 * about a tenth of a core against one at 0, at 19 about one seventieth. A thread that holds a lock
 * a hook waits for, or that a collection must bring to a safepoint, is then still scheduled soon on
 * a machine loaded by other programs; at 19 it could wait long enough to hold the hooks up with it.
 *
 * <p>Under the {@link Portability#POSIX} mode nothing is changed: there {@code setpriority} names
 * the whole process, not a thread.
 */
public final class ThreadPriority {

  /** The nice value of a background thread: the hooks' threads (at 0) go first. */
  public static final int BACKGROUND = 10;

  private ThreadPriority() {}

  /**
   * Gives the calling thread (and the threads it starts from now on) the nice value {@value
   * #BACKGROUND}; false when it could not be lowered here (the posix mode, no native calls), and
   * the thread runs as before.
   */
  public static boolean backgroundForThisThread() {
    if (Portability.current() != Portability.LINUX) {
      return false;
    }
    Libc libc;
    try {
      libc = Libc.load();
    } catch (UnsupportedOperationException e) {
      return false;
    }
    try (NativeCall call = libc.call()) {
      return libc.setThisThreadsNice(call, BACKGROUND) == 0;
    }
  }
}
