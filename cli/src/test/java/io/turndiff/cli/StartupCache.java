package io.turndiff.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The ahead-of-time cache (JDK 25, {@code -XX:AOTCacheOutput}: classes loaded and linked, method
 * profiles) that every command-line process the tests start runs from: trained once per jar on the
 * launcher's own workload ({@link AotTraining}), with the flags {@link CliProcess} starts the jar
 * with, and kept beside it as the checkout launcher's own cache, {@code turndiff.aot} (the
 * launcher's {@code ${jar%.jar}.aot}).
 *
 * <p>Why: the integration tests start the jar several hundred times, and its start (picocli, jOOQ,
 * Jackson, SQLite, a fresh store's migration) is most of what most of them cost: about 3.3 s of CPU
 * for a {@code turn begin} on a fresh store with no archive, 2.0 s from a class-data archive
 * written at the first exit ({@code -XX:+AutoCreateSharedArchive}, what the tests used before), 1.8
 * s from this cache (load 15; docs/build.md, "What CI costs"). The cache is also made before the
 * first test process rather than by whichever one exits first, so test classes running at once
 * never race to write an archive, and a held process ({@link EnvTestHook}), whose class path the
 * archive could not cover, starts from it too. The training costs about 17 s of CPU, once per
 * build.
 *
 * <p>The launcher's file, not one of the tests' own: the checkout's {@code turndiff} launcher runs
 * in the tests too (the MCP server {@code hooks install} writes into a runtime's settings, every
 * process of a {@link UserSandbox}, whose {@code TURNDIFF_HOME} is the checkout), and finding no
 * cache it trained the same workload with the same flags a second time in the background, and
 * started from a class-data archive written at exit until then. Now the launcher finds this cache
 * and starts from it; a training the launcher has begun (its folder, {@code turndiff.aot.training})
 * is waited for rather than run twice. Finding it, the launcher trains the service's own cache
 * beside it in the background, once per jar ({@code turndiff-service.aot}, about 30 s), which a
 * service spawned afterwards starts from ({@link #serviceStartOptions}).
 *
 * <p>Several test JVMs (Failsafe forks, or the tests of another run of the same build) may ask at
 * once: a file lock beside the jar lets one train while the others wait, and the cache gets its
 * name only when whole. A cache older than the jar is trained again.
 */
final class StartupCache {

  /** The flags of the short commands, as the launcher's: C1 alone, the serial collector. */
  static final List<String> SHORT_COMMAND_FLAGS =
      List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

  private static final long TRAINING_LIMIT_SECONDS = 600;

  private StartupCache() {}

  /**
   * What a service spawned by a command that started from {@link #of} starts from: that cache, or
   * the service's own beside it ({@code turndiff-service.aot}) once the checkout's launcher, run by
   * a test with the checkout as its {@code TURNDIFF_HOME}, has trained it in the background ({@code
   * io.turndiff.service.InheritedStartUp}); which of them depends on what ran before.
   */
  static List<String> serviceStartOptions(Path jar) {
    Path commands = of(jar);
    String name = commands.getFileName().toString().replaceFirst("\\.aot$", "");
    return List.of(
        "-XX:AOTCache=" + commands,
        "-XX:AOTCache=" + commands.resolveSibling(name + "-service.aot"));
  }

  /** The cache for {@code jar}, trained first when it has none or an older one. */
  static Path of(Path jar) {
    String name = jar.getFileName().toString().replaceFirst("\\.jar$", "");
    Path cache = jar.resolveSibling(name + ".aot");
    Path launcherTraining = jar.resolveSibling(name + ".aot.training");
    try {
      return BuildLock.holding(
          jar.resolveSibling(name + ".aot.lock"),
          () -> {
            awaitLauncherTraining(launcherTraining);
            if (!current(cache, jar)) {
              train(jar, cache);
            }
            return cache;
          });
    } catch (IOException e) {
      throw new IllegalStateException("the start-up cache for " + jar + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while training the start-up cache", e);
    }
  }

  /**
   * Waits while the launcher trains the same cache in the background (its training folder exists),
   * at most as long as a training of the tests' own may take. (The launcher's lock is an flock held
   * by the training's processes, which this JVM's file locks cannot see; a folder left by a killed
   * training stays until the next launcher's training, and is waited for until the limit.)
   */
  private static void awaitLauncherTraining(Path lock) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TRAINING_LIMIT_SECONDS);
    while (Files.isDirectory(lock, LinkOption.NOFOLLOW_LINKS) && System.nanoTime() < deadline) {
      Thread.sleep(250);
    }
  }

  private static boolean current(Path cache, Path jar) throws IOException {
    return Files.isRegularFile(cache, LinkOption.NOFOLLOW_LINKS)
        && Files.getLastModifiedTime(cache).compareTo(Files.getLastModifiedTime(jar)) >= 0;
  }

  /**
   * Runs {@link AotTraining} in a folder of its own (its store, the demo's workspace, its temporary
   * files), writing the cache there; renames it beside the jar when the training succeeded.
   */
  private static void train(Path jar, Path cache) throws IOException, InterruptedException {
    Path folder = Files.createTempDirectory(jar.getParent(), "aot-training-");
    try {
      Path trained = folder.resolve("turndiff.aot");
      Path log = folder.resolve("training.log");
      List<String> command =
          Stream.of(
                  List.of(
                      ProcessHandle.current().info().command().orElse("java"),
                      "--enable-native-access=ALL-UNNAMED"),
                  SHORT_COMMAND_FLAGS,
                  List.of(
                      "-Djava.io.tmpdir=" + folder,
                      "-XX:AOTCacheOutput=" + trained,
                      "-Xlog:aot=warning",
                      "-cp",
                      jar.toString(),
                      AotTraining.class.getName(),
                      folder.resolve("training.db").toString()))
              .flatMap(List::stream)
              .toList();
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .directory(folder.toFile())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile());
      builder.environment().keySet().removeIf(name -> name.startsWith("TURNDIFF_"));
      Process training = builder.start();
      training.getOutputStream().close();
      if (!training.waitFor(TRAINING_LIMIT_SECONDS, TimeUnit.SECONDS)) {
        training.descendants().forEach(ProcessHandle::destroyForcibly);
        training.destroyForcibly();
        throw new IOException("the training did not finish: " + read(log));
      }
      if (training.exitValue() != 0 || !Files.isRegularFile(trained)) {
        throw new IOException(
            "the training failed (exit " + training.exitValue() + "): " + read(log));
      }
      Files.move(
          trained, cache, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      deleteTree(folder);
    }
  }

  private static String read(Path log) throws IOException {
    return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
  }

  private static void deleteTree(Path folder) throws IOException {
    try (Stream<Path> tree = Files.walk(folder)) {
      for (Path path : tree.sorted((a, b) -> b.compareTo(a)).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
