package io.turndiff.service;

import io.turndiff.ownfiles.OwnFile;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The JVM options a service spawned from this JVM and its jar takes over from the command that
 * spawns it: the files its start-up reads, not its compilers or its collector. Two commands spawn
 * one: {@code service start} with no {@code TURNDIFF_HOME} ({@code java -jar turndiff.jar}, {@link
 * DaemonLauncher}) and {@code open}, whose {@code serve} runs on this JVM's class path (the cli's
 * {@code DetachedServe}).
 *
 * <p>A launcher starts a command from an ahead-of-time cache ({@code -XX:AOTCache}, JDK 25: its
 * classes loaded and linked, method profiles) or a class-data archive, and points sqlite-jdbc and
 * zstd-jni at native libraries kept beside the jar instead of extracted into the temporary folder
 * at every start. A service started bare spends about twice the CPU of one started from the cache
 * before it answers (the daemon's CPU when {@code service start} returns: 5.3–5.6 s from nothing,
 * 2.4–2.9 s from the cache, docs/build.md "What CI costs"); it is the same jar, so the cache the
 * command started from matches it. The command's {@code -XX:+UseSerialGC} and {@code
 * -XX:TieredStopAtLevel=1} are a short-lived process's and stay behind: the service keeps the full
 * JIT and the default collector, as a release's launcher gives {@code serve}. An {@code
 * -XX:AOTCacheOutput} (the cache's training) stays behind too: a service must not write a cache
 * when it ends.
 */
public final class InheritedStartUp {

  /**
   * The options taken over, by how they begin: the cache or archive and the logging that keeps the
   * JVM quiet about it (or not), and the folders of the native libraries.
   */
  private static final List<String> TAKEN =
      List.of(
          "-XX:AOTCache=",
          "-XX:AOTMode=",
          "-XX:SharedArchiveFile=",
          "-XX:+AutoCreateSharedArchive",
          "-Xshare:",
          "-Xlog:aot",
          "-Xlog:cds",
          "-Dturndiff.sqlite.library=",
          "-DZstdNativePath=");

  private static final String AOT_CACHE = "-XX:AOTCache=";

  private static final String COMMANDS_CACHE_SUFFIX = ".aot";

  /** The service's own cache, named after the command's: {@code turndiff-service.aot}. */
  private static final String SERVICE_CACHE_SUFFIX = "-service.aot";

  private InheritedStartUp() {}

  /**
   * The one option of the service's own that only a JVM's command line can give (its heap options
   * it sets itself when it starts, {@code io.turndiff.server.ServiceHeap}): every 15 s the JVM
   * hands back to the system what the C library keeps of the native memory freed since, as the
   * launchers give {@code serve}.
   */
  static final String NATIVE_HEAP_TRIM = "-XX:TrimNativeHeapInterval=15000";

  /** What a service spawned from this JVM takes over from the options this JVM started with. */
  static List<String> ofThisJvm() {
    return of(ManagementFactory.getRuntimeMXBean().getInputArguments());
  }

  /** The options of a service spawned from this JVM: {@link #ofThisJvm}, and its own. */
  public static List<String> forTheService() {
    List<String> options = new ArrayList<>(ofThisJvm());
    options.add(NATIVE_HEAP_TRIM);
    return options;
  }

  /**
   * The options of {@code jvmOptions} (a JVM's, without its main class and arguments) taken over.
   */
  static List<String> of(List<String> jvmOptions) {
    return jvmOptions.stream()
        .filter(InheritedStartUp::taken)
        .map(InheritedStartUp::serviceCache)
        .toList();
  }

  /**
   * {@code option}, or when it names the command's cache ({@code -XX:AOTCache=…/turndiff.aot}) and
   * the service's own lies beside it ({@code turndiff-service.aot}), no older than the jar beside
   * both ({@code turndiff.jar}), that one. The checkout's launcher trains the service's cache on
   * its hook path with the service's own options (the full JIT, whose profiles it keeps; the
   * command's was trained on C1 alone, which profiles nothing, and runs no hook): a service started
   * from it ran its finishes about a fifth faster twenty turns after its start
   * (docs/performance.md, "The service trained on its hooks"). A service's cache older than the jar
   * was trained on an earlier one (the launcher removes such a cache only when it runs), which the
   * JVM would refuse, leaving the service no cache at all; the launcher applies the same rule.
   * Either cache may be the older of the two: the first {@code serve} trains the service's, the
   * first command the command's.
   */
  static String serviceCache(String option) {
    if (!option.startsWith(AOT_CACHE) || !option.endsWith(COMMANDS_CACHE_SUFFIX)) {
      return option;
    }
    Path commands = Path.of(option.substring(AOT_CACHE.length()));
    String name = commands.getFileName().toString();
    String base = name.substring(0, name.length() - COMMANDS_CACHE_SUFFIX.length());
    Path service = commands.resolveSibling(base + SERVICE_CACHE_SUFFIX);
    Path jar = commands.resolveSibling(base + ".jar");
    try {
      Optional<PosixFileAttributes> own = OwnFile.of(service).attributes();
      Optional<PosixFileAttributes> ofTheJar = OwnFile.of(jar).attributes();
      return own.isPresent()
              && own.get().isRegularFile()
              && ofTheJar.isPresent()
              && own.get().lastModifiedTime().compareTo(ofTheJar.get().lastModifiedTime()) >= 0
          ? AOT_CACHE + service
          : option;
    } catch (IOException unreadable) {
      return option; // the command's, as before
    }
  }

  private static boolean taken(String option) {
    return TAKEN.stream().anyMatch(option::startsWith);
  }
}
