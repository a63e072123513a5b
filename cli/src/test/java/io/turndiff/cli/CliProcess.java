package io.turndiff.cli;

import io.turndiff.fixtures.CommandRun;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs the packaged {@code turndiff.jar} as a real process, as the launcher would; one given a
 * {@code TURNDIFF_TEST_} variable to hold it at a point runs the jar's classes under {@link
 * EnvTestHook}'s main, which the jar does not carry.
 */
final class CliProcess {

  private CliProcess() {}

  static Path jar() {
    String jar = System.getProperty("turndiff.jar");
    if (jar == null) {
      throw new IllegalStateException("run by failsafe, which sets -Dturndiff.jar");
    }
    return Path.of(jar);
  }

  /**
   * A {@code TURNDIFF_HOME} at {@code home} whose {@code turndiff} launcher runs the packaged jar
   * with this JVM: for hook clients that start the service through {@code $TURNDIFF_HOME/turndiff}.
   */
  static Path launcherHome(Path home) throws IOException {
    Files.createDirectories(home);
    Path launcher = home.resolve("turndiff");
    // as a release's bin/turndiff starts its jar: from the start-up cache, the full JIT for
    // `serve` and `service daemon` (the service), C1 and the serial collector for the rest;
    // without it, the service this launcher starts and each command a hook client runs through it
    // start from nothing (about twice the CPU)
    String script =
        "#!/bin/sh\ncase \"${1-} ${2-}\" in\n  'serve '* | 'service daemon') short= ;;\n  *) short='"
            + String.join(" ", StartupCache.SHORT_COMMAND_FLAGS)
            + "' ;;\nesac\nexec '"
            + ProcessHandle.current().info().command().orElse("java")
            + "' --enable-native-access=ALL-UNNAMED "
            + String.join(" ", quoted(startUpOptions(jar())))
            + " $short -jar '"
            + jar().toAbsolutePath()
            + "' \"$@\"\n";
    // asked for again by the same test (its runtime's environment, then its service's): a script
    // that may be running is not rewritten
    if (!Files.isRegularFile(launcher) || !Files.readString(launcher).equals(script)) {
      Files.writeString(launcher, script);
      Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwx------"));
    }
    return home;
  }

  /**
   * The start-up options a launcher gives the build's jar: the cache trained for it once ({@link
   * StartupCache}), the JVM quiet about it, and sqlite-jdbc's native library loaded from the copy
   * kept beside the jar ({@code cli/target/turndiff.native}, the checkout launcher's own folder)
   * rather than extracted into the temporary folder, compared and deleted at every start.
   */
  private static List<String> startUpOptions(Path jar) {
    return List.of(
        "-XX:AOTCache=" + StartupCache.of(jar),
        "-Xlog:aot=off",
        "-Xlog:cds=off",
        "-Dturndiff.sqlite.library=" + jar.resolveSibling("turndiff.native").toAbsolutePath());
  }

  private static List<String> quoted(List<String> words) {
    return words.stream().map(word -> "'" + word + "'").toList();
  }

  /** Where {@link EnvTestHook} was loaded from: this module's test classes. */
  private static String testClasses() {
    try {
      return Path.of(EnvTestHook.class.getProtectionDomain().getCodeSource().getLocation().toURI())
          .toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static ProcessBuilder builder(Map<String, String> environment, String... args) {
    return builder(jar(), new String[0], environment, args);
  }

  /** {@code jar}, run through {@code prefix} (such as {@code setpriv ... --}). */
  static ProcessBuilder builder(
      Path jar, String[] prefix, Map<String, String> environment, String... args) {
    return builder(jar, prefix, List.of(), environment, args);
  }

  /**
   * As {@link #builder(Path, String[], Map, String...)}, with more JVM options (such as {@code
   * -Xmx48m}).
   */
  static ProcessBuilder builder(
      Path jar,
      String[] prefix,
      List<String> jvmOptions,
      Map<String, String> environment,
      String... args) {
    List<String> command = new ArrayList<>(List.of(prefix));
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.addAll(jvmOptions);
    command.add("--enable-native-access=ALL-UNNAMED");
    boolean held =
        environment.keySet().stream().anyMatch(name -> name.startsWith(EnvTestHook.PREFIX));
    // the launcher's start-up: the build's jar from the cache trained for it once (StartupCache),
    // which a held process's longer class path (the jar, then the test classes) still matches, and
    // sqlite-jdbc's library from the launcher's copy. A copy of the jar elsewhere (a test's own, in
    // its temp dir: UnprivilegedCli, "another installation") starts plain: a class-data archive
    // written at its first exit cost more than it gave back for the few starts a copy serves (the
    // first start about 4.3 s of CPU with the dump, each next 0.7 s, against 1.4 s plain; a service
    // started from a copy dumped one at its stop too: start and stop 12.7 s against 7.1 s plain;
    // docs/build.md, "What CI costs")
    if (jar.equals(jar())) {
      command.addAll(startUpOptions(jar));
    }
    command.addAll(StartupCache.SHORT_COMMAND_FLAGS);
    if (held) {
      // the product jar has no hook: the test's main puts one in
      command.add("-cp");
      command.add(jar + File.pathSeparator + testClasses());
      command.add(EnvTestHook.class.getName());
    } else {
      command.add("-jar");
      command.add(jar.toString());
    }
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(jar.getParent().toFile());
    builder.environment().remove("TURNDIFF_DB");
    builder.environment().putAll(environment);
    return builder;
  }

  static Process start(Map<String, String> environment, String... args) throws IOException {
    return builder(environment, args).start();
  }

  /** Runs to completion (at most two minutes) and returns what it printed. */
  static CommandRun run(Map<String, String> environment, String... args)
      throws IOException, InterruptedException {
    return CommandRun.ofProcess(builder(environment, args));
  }

  static CommandRun runPrefixed(
      Path jar, String[] prefix, Map<String, String> environment, String... args)
      throws IOException, InterruptedException {
    return CommandRun.ofProcess(builder(jar, prefix, environment, args));
  }

  /** Runs the jar with more JVM options (a small heap, say) to completion. */
  static CommandRun runWithJvmOptions(
      List<String> jvmOptions, Map<String, String> environment, String... args)
      throws IOException, InterruptedException {
    return CommandRun.ofProcess(builder(jar(), new String[0], jvmOptions, environment, args));
  }
}
