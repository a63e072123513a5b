package io.turndiff.service;

import java.util.Map;

/**
 * The C library allocator's setting a service process is started with: at most two malloc arenas
 * ({@code MALLOC_ARENA_MAX=2}), unless the user set their own.
 *
 * <p>glibc gives a thread that finds the arena it uses locked an arena of its own, up to eight per
 * processor (sixteen on two cores), and memory freed in one arena is reused only by the threads
 * that use it. A service's native allocations come from many threads: the JIT's compiler threads,
 * the request threads running SQLite's page caches and prepared statements, the pool compressing
 * with zstd during a track. What they freed stays spread over those arenas: after the twenty turns
 * of {@code bench scale} at 250,000 files, 78 MB of the service's resident memory was in six arenas
 * and glibc's main heap, 49 MB in the two that this setting leaves (docs/performance.md, "The
 * service's malloc arenas"). The JVM's periodic trim ({@code -XX:TrimNativeHeapInterval}) gives
 * back the free pages of each arena, not what the arenas' fragments keep.
 *
 * <p>The allocator reads the variable once, when the process starts, so it is given in the
 * service's environment: by {@code service start} ({@link DaemonLauncher}), by {@code open}, and by
 * the launchers for {@code serve}. A service started by hand with {@code java -jar} gets what its
 * environment says. Other C libraries (musl) ignore the variable.
 */
public final class ServiceAllocator {

  /** The variable glibc's allocator reads when a process starts. */
  static final String ARENAS_VARIABLE = "MALLOC_ARENA_MAX";

  /**
   * Two arenas: the main one and one more, so that two threads allocating at once (a request and
   * the JIT, on two cores) do not wait on one lock; the measured cost of fewer was nil in the
   * hooks' latencies.
   */
  static final String ARENAS = "2";

  private ServiceAllocator() {}

  /** Gives {@code environment}, a service process's, the allocator setting unless it has one. */
  public static void settle(Map<String, String> environment) {
    environment.putIfAbsent(ARENAS_VARIABLE, ARENAS);
  }
}
