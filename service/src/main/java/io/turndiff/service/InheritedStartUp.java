package io.turndiff.service;

import io.turndiff.ownfiles.OwnFile;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

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
 *
 * <p>Beside what it takes over, a service is given the options of its own that no running JVM
 * takes, as the launchers give them to {@code serve}: the native heap's trim and how its heap is
 * sized ({@link #forTheService}).
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
   * Every 15 s the JVM hands back to the system what the C library keeps of the native memory freed
   * since.
   */
  static final String NATIVE_HEAP_TRIM = "-XX:TrimNativeHeapInterval=15000";

  /**
   * The heap a service starts with: 64 MB, not the JVM's default of a 64th of the machine's memory
   * (380 MB on a 24 GB machine).
   *
   * <p>JDK 25's G1 grows a heap that is below a quarter of its initial size "back quickly": by half
   * of what lies between the two, whenever its collections' share of the time has passed its goal
   * in four of its last ten collections. A service's heap is that small most of its life (64–72 MB
   * committed after the full collection that follows a 250,000-file track, 41–44 MB of it live,
   * {@code ServiceHeap}), and for a heap under half its maximum G1 scales its goal down, for such a
   * heap to its floor of 1 %, which the collections right after a track and the burst of them in
   * the watch's whole-tree check (every 50th scan) pass. So G1 added 152–160 MB at once in a run of
   * turns and kept it until a concurrent cycle's remark gave it back, 0.04 to 28 s later (G1's own
   * log of the service, docs/performance.md "The service's initial heap"). From 64 MB that rule
   * applies below 16 MB only; above it G1 grows by the heap it has, scaled by how far past its goal
   * it is ({@link #GC_TIME_RATIO}). A track still grows the heap as far as it needs: no maximum is
   * set. Later JDKs size G1's heap by other rules; this was measured on JDK 25.
   */
  static final String INITIAL_HEAP = "-XX:InitialHeapSize=64m";

  /**
   * The collector's goal for its share of the time: a fifth ({@code 1 / (1 + 4)}), not G1's
   * thirteenth. For a heap of up to about 150 MB on a 24 GB machine the goal G1 expands against is
   * its 1 % floor whatever this says (a fifth, scaled by the heap's share of half the maximum, is
   * under 1 %), so there it does not make G1 expand less often; it makes it expand by less: G1
   * scales an expansion by how far its collections' share passed the floor, measured against this
   * goal (from a fifth of the heap it has up to twice it), so the larger the goal, the smaller the
   * step. At 250,000 files the expansions in the turns were 16–56 MB with it, 56–76 MB without it
   * (all from 64 MB or more). For a larger heap the goal scaled from it passes the floor and G1
   * collects more before it grows: the heap's peak in a 250,000-file track was 456–516 MB with both
   * options, 728–852 MB with neither. A collector other than G1 that a user chose reads it as its
   * own goal.
   */
  static final String GC_TIME_RATIO = "-XX:GCTimeRatio=4";

  /**
   * The variables whose options every JVM reads as if given on its command line (the JDK's launcher
   * and HotSpot).
   */
  private static final List<String> OPTIONS_VARIABLES =
      List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS");

  /**
   * An option that sizes the heap: a maximum below {@link #INITIAL_HEAP} or a minimum above it
   * makes the JVM refuse to start ("Initial heap size set to a larger value than the maximum heap
   * size").
   */
  private static final Pattern HEAP_SIZE =
      Pattern.compile("(^|\\s)(-Xm[sx]|-XX:(Initial|Min|Max)HeapSize=)");

  /** What a service spawned from this JVM takes over from the options this JVM started with. */
  static List<String> ofThisJvm() {
    return of(ManagementFactory.getRuntimeMXBean().getInputArguments());
  }

  /**
   * The options of a service spawned from this JVM: {@link #ofThisJvm}, and its own that only a
   * JVM's command line can give (its heap's ratios and periodic collection it sets itself when it
   * starts, {@code io.turndiff.server.ServiceHeap}), as the launchers give {@code serve}.
   */
  public static List<String> forTheService() {
    return forTheService(System.getenv());
  }

  /**
   * {@link #forTheService()} in {@code environment}: a heap size its user gives every JVM through
   * it stands, and the service's initial heap, which the JVM would refuse beside it, is left out.
   */
  static List<String> forTheService(Map<String, String> environment) {
    List<String> options = new ArrayList<>(ofThisJvm());
    options.add(NATIVE_HEAP_TRIM);
    if (!sizesTheHeap(environment)) {
      options.add(INITIAL_HEAP);
    }
    options.add(GC_TIME_RATIO);
    return options;
  }

  private static boolean sizesTheHeap(Map<String, String> environment) {
    return OPTIONS_VARIABLES.stream()
        .map(environment::get)
        .anyMatch(options -> options != null && HEAP_SIZE.matcher(options).find());
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
