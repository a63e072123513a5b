package io.turndiff.boundary;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The scheduling priority of a thread that works in the background of the hooks: the watch's check,
 * a whole walk of the tree each time, which on a machine of two cores would otherwise take the core
 * a hook waits for.
 *
 * <p>Linux schedules each thread on its own and lets any thread lower its own priority (raise its
 * nice value) without privilege; the threads it starts afterwards inherit it, so the listers and
 * readers a walk starts run as low. What it cannot do without privilege is raise it again: a thread
 * lowered here must never start a thread that outlives its own work and serves anyone else (a
 * shared pool first used from it), or that thread would serve the hooks from behind them too. Such
 * a pool asks {@link #isThisThreadInTheBackground} and gives a background caller a thread of its
 * own (the fallback boundary's opener of files).
 *
 * <p>The step is {@value #STEP} above the thread's own value (the service's, which it started
 * with), not to the lowest (19): the scheduler gives a thread 10 above another about a tenth of a
 * core against it, at 19 above about a seventieth. A thread that holds a lock a hook waits for, or
 * that a collection must bring to a safepoint, is then still scheduled soon on a machine loaded by
 * other programs; far lower, it could wait long enough to hold the hooks up with it.
 *
 * <p>Under the {@link Portability#POSIX} mode nothing is changed: there {@code setpriority} names
 * the whole process, not a thread.
 */
public final class ThreadPriority {

  /** How far above the thread's nice value a background thread's is set. */
  public static final int STEP = 10;

  /** The highest nice value there is (the least favoured thread). */
  public static final int LOWEST = 19;

  /** Whether this thread, or the thread that started it, was put in the background. */
  private static final InheritableThreadLocal<Boolean> IN_THE_BACKGROUND =
      new InheritableThreadLocal<>() {
        @Override
        protected Boolean initialValue() {
          return false;
        }
      };

  private ThreadPriority() {}

  /**
   * Raises the calling thread's nice value by {@value #STEP} (at most to {@value #LOWEST}), for it
   * and the threads it starts from now on. Empty when done; else why it could not be here (the
   * posix mode, no native calls, no {@code /proc}, the kernel's refusal), and the thread runs as
   * before.
   */
  public static Optional<String> backgroundForThisThread() {
    if (Portability.current() != Portability.LINUX) {
      return Optional.of("the posix mode sets no thread's priority");
    }
    Libc libc;
    try {
      libc = Libc.load();
    } catch (UnsupportedOperationException e) {
      return Optional.of(e.getMessage());
    }
    int now;
    try {
      now = niceOfThisThread();
    } catch (IOException | RuntimeException e) {
      return Optional.of("/proc/thread-self/stat could not be read: " + e);
    }
    int background = Math.min(LOWEST, now + STEP);
    if (background != now) {
      try (NativeCall call = libc.call()) {
        int result = libc.setThisThreadsNice(call, background);
        if (result != 0) {
          return Optional.of("setpriority to " + background + " failed: errno " + -result);
        }
      }
    }
    IN_THE_BACKGROUND.set(true);
    return Optional.empty();
  }

  /** Whether the calling thread runs behind the hooks (it, or a thread that started it, asked). */
  public static boolean isThisThreadInTheBackground() {
    return IN_THE_BACKGROUND.get();
  }

  /**
   * The calling thread's nice value: field 19 of {@code /proc/thread-self/stat}, counted after the
   * command name's closing parenthesis (the name may hold spaces and parentheses of its own, and
   * bytes of a character the kernel cut short: read as Latin-1, every byte is a character).
   */
  private static int niceOfThisThread() throws IOException {
    String stat = Files.readString(Path.of("/proc/thread-self/stat"), StandardCharsets.ISO_8859_1);
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    // fields[0] is field 3 (the state): field 19 is fields[16]
    return Integer.parseInt(fields[16]);
  }
}
