package io.turndiff.service;

import java.util.Map;

/**
 * The C library allocator's setting a service process is started with: at most two malloc arenas
 * ({@code MALLOC_ARENA_MAX=2}, the main one counted), unless the command that starts it was given a
 * value.
 *
 * <p>glibc gives a thread that finds the arena it uses locked an arena of its own, up to eight per
 * processor (sixteen on two cores), and memory freed in one arena is reused only from that arena. A
 * service's native allocations come from many threads: the JIT's compiler threads, the request
 * threads running SQLite's page caches and prepared statements, the pool compressing with zstd
 * during a track. What they freed stays spread over those arenas: after the twenty turns of {@code
 * bench scale} at 250,000 files, 75 MB of the service's resident memory was in six arenas besides
 * the main one, and 47–49 MB in the two this setting leaves (docs/performance.md, "The service's
 * malloc arenas"). The JVM's periodic trim ({@code -XX:TrimNativeHeapInterval}) gives back the free
 * pages of each arena, not what the fragments around the blocks in use keep.
 *
 * <p>The allocator reads the variable once, when the process starts, so it is given in the
 * service's environment: by {@code service start} ({@link DaemonLauncher}), by {@code open}, and by
 * the launchers for {@code serve} and {@code service daemon}, through which a hook's cold start
 * goes. A service started by hand with {@code java -jar} gets what its environment says. Other C
 * libraries (musl) ignore the variable.
 */
public final class ServiceAllocator {

  /** The variable glibc's allocator reads when a process starts. */
  static final String ARENAS_VARIABLE = "MALLOC_ARENA_MAX";

  /**
   * Two arenas rather than one, so that two threads allocating at once on two cores (a request and
   * the JIT) do not wait on one lock; one was not measured.
   */
  static final String ARENAS = "2";

  private ServiceAllocator() {}

  /**
   * Gives {@code environment}, a service process's, the allocator setting unless it has a value (an
   * empty one counts as none, as the launchers read it).
   */
  public static void giveTo(Map<String, String> environment) {
    if (environment.getOrDefault(ARENAS_VARIABLE, "").isEmpty()) {
      environment.put(ARENAS_VARIABLE, ARENAS);
    }
  }
}
