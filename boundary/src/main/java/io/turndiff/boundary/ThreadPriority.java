package io.turndiff.boundary;

/**
 * The scheduling priority of a thread that works in the background of the hooks: the watch's check,
 * a whole walk of the tree each time, which on a machine of two cores would otherwise take the core
 * a hook waits for.
 *
 * <p>Linux schedules each thread on its own and lets any thread lower its own priority (raise its
 * nice value) without privilege; the threads it starts afterwards inherit it, so the pool of
 * listers a walk starts runs as low. Under the {@link Portability#POSIX} mode nothing is changed:
 * there {@code setpriority} names the whole process, not a thread.
 */
public final class ThreadPriority {

  /** The nice value of the least favoured thread: it runs when the others leave it a core. */
  private static final int LOWEST = 19;

  private ThreadPriority() {}

  /**
   * Gives the calling thread (and the threads it starts from now on) the lowest priority; false
   * when it could not be lowered here (the posix mode, no native calls), and the thread runs as
   * before.
   */
  public static boolean lowestForThisThread() {
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
      return libc.setThisThreadsNice(call, LOWEST) == 0;
    }
  }
}
