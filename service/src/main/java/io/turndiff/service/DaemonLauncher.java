package io.turndiff.service;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.ownfiles.OwnFile;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Spawns {@code serve --daemon} detached from the caller: through the launcher under {@code
 * $TURNDIFF_HOME} when set (a release's {@code bin/turndiff}, else a checkout's {@code turndiff}),
 * else this JVM and this jar, from the start-up cache and native libraries this JVM started with
 * ({@link InheritedStartUp}); in a new session ({@code setsid}) so that a runtime killing its
 * hook's process group, or a closing terminal, does not reach it; stdin on {@code /dev/null},
 * stdout and stderr appended to the service log (never the caller's: a runtime waits for its hook's
 * stdout to close); working directory {@code /}; and an environment reduced to what a service needs
 * (a runtime's API keys stay out of a long-lived process), with the service's allocator setting
 * ({@link ServiceAllocator}).
 */
final class DaemonLauncher {

  private static final Path SETSID = Path.of("/usr/bin/setsid");

  private DaemonLauncher() {}

  static Process spawn(ServiceFiles files, Map<String, String> environment) throws IOException {
    Map<String, String> daemonEnvironment = daemonEnvironment(environment);
    List<String> command = new ArrayList<>();
    if (OwnFile.of(SETSID).isExecutable()) {
      command.add(SETSID.toString());
    }
    command.addAll(launcher(daemonEnvironment));
    // the command word first: the launchers give `serve` the full JIT by its first word
    command.addAll(files.serveArguments());
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(new File("/"))
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectOutput(ProcessBuilder.Redirect.appendTo(files.log().toFile()))
            .redirectError(ProcessBuilder.Redirect.appendTo(files.log().toFile()));
    builder.environment().clear();
    builder.environment().putAll(daemonEnvironment);
    return builder.start();
  }

  /**
   * The environment a daemon runs in: the variables of {@code environment} it keeps, and the
   * allocator's setting.
   */
  private static Map<String, String> daemonEnvironment(Map<String, String> environment) {
    Map<String, String> daemonEnvironment = new HashMap<>();
    environment.forEach(
        (name, value) -> {
          if (kept(name)) {
            daemonEnvironment.put(name, value);
          }
        });
    ServiceAllocator.giveTo(daemonEnvironment);
    return daemonEnvironment;
  }

  /** The variables a daemon keeps. */
  static boolean kept(String name) {
    return List.of(
                "HOME",
                "USER",
                "LOGNAME",
                "PATH",
                "LANG",
                "TZ",
                "TMPDIR",
                "JAVA_HOME",
                ServiceAllocator.ARENAS_VARIABLE)
            .contains(name)
        || name.startsWith("LC_")
        || name.startsWith("XDG_")
        || name.startsWith("TURNDIFF_");
  }

  /**
   * The daemon's command up to its command word, for the environment it runs in ({@code
   * daemonEnvironment}, whose variables, not this command's, its JVM reads): through {@code
   * TURNDIFF_HOME}'s launcher, or this JVM and jar with the options of a service ({@link
   * InheritedStartUp}).
   */
  private static List<String> launcher(Map<String, String> daemonEnvironment) {
    String home = daemonEnvironment.get("TURNDIFF_HOME");
    if (home != null && !home.isEmpty()) {
      Path released = Path.of(home, "bin", "turndiff");
      return List.of(
          (OwnFile.of(released).isExecutable() ? released : Path.of(home, "turndiff")).toString());
    }
    Path jar;
    try {
      // the product jar holds this class with the command's: its jar is turndiff's own
      jar =
          Path.of(DaemonLauncher.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException | RuntimeException e) {
      throw new CliException(ExitCode.ERROR, "cannot find turndiff's own jar: " + e.getMessage());
    }
    if (!OwnFile.of(jar).isRegularFile()) {
      throw new CliException(
          ExitCode.ERROR,
          "turndiff does not run from its jar (" + jar + "); set TURNDIFF_HOME to the checkout");
    }
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.add("--enable-native-access=ALL-UNNAMED");
    command.addAll(InheritedStartUp.forTheService(daemonEnvironment));
    command.add("-jar");
    command.add(jar.toString());
    return command;
  }
}
