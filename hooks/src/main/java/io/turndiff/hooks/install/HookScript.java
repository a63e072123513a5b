package io.turndiff.hooks.install;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Where {@code bin/turndiff-hook}, the command of every Claude Code, Gemini and Codex hook, is: in
 * {@code $TURNDIFF_HOME} when set (the launcher's directory: a checkout, or an unpacked release),
 * else in the checkout or release the running jar belongs to — the first {@code bin/turndiff-hook}
 * in the jar's directory or one of its three parents ({@code <checkout>/cli/target/turndiff.jar},
 * and the classes directory {@code <checkout>/hooks/target/classes} of the build's tests, find
 * {@code <checkout>/bin/turndiff-hook}). The script finds the {@code turndiff} launcher beside its
 * {@code bin/} to start the service, so the home is that directory.
 */
public record HookScript(Path home) {

  public static HookScript find(Map<String, String> environment) {
    String home = environment.get("TURNDIFF_HOME");
    if (home != null && !home.isEmpty()) {
      Path given = Path.of(home).toAbsolutePath().normalize();
      HookScript script = new HookScript(given);
      if (!ConfigFiles.isExecutableFile(script.path())) {
        throw new CliException(
            ExitCode.ERROR,
            "TURNDIFF_HOME is " + given + ", but " + script.path() + " is not an executable file");
      }
      return script;
    }
    Optional<Path> jarDirectory = jarDirectory();
    Path at = jarDirectory.orElse(null);
    for (int level = 0; at != null && level <= 3; level++, at = at.getParent()) {
      HookScript script = new HookScript(at);
      if (ConfigFiles.isExecutableFile(script.path())) {
        return script;
      }
    }
    throw new CliException(
        ExitCode.ERROR,
        "cannot find bin/turndiff-hook beside turndiff"
            + jarDirectory.map(directory -> " (its jar is in " + directory + ")").orElse("")
            + "; set TURNDIFF_HOME to the turndiff checkout");
  }

  private static Optional<Path> jarDirectory() {
    try {
      Path location =
          // the product jar holds this class with the command's: its jar is turndiff's own
          Path.of(HookScript.class.getProtectionDomain().getCodeSource().getLocation().toURI())
              .toAbsolutePath()
              .normalize();
      return Optional.ofNullable(
          ConfigFiles.isDirectory(location) ? location : location.getParent());
    } catch (URISyntaxException | RuntimeException e) {
      return Optional.empty();
    }
  }

  Path path() {
    return home.resolve("bin/turndiff-hook");
  }

  /**
   * The hook client beside the script, {@code bin/turndiff-hook-client}: built by the hooks module
   * with the machine's C compiler (a release carries it). It does the usual call in the one process
   * the runtime starts and runs the script for every other (docs/runtime-hooks.md, "The hook
   * client").
   */
  Path client() {
    return home.resolve("bin/turndiff-hook-client");
  }

  /**
   * The {@code turndiff} launcher the script starts the service with, as the script finds it: a
   * release's {@code bin/turndiff} beside the script, else a checkout's {@code turndiff} above it.
   */
  Path launcher() {
    Path release = home.resolve("bin/turndiff");
    return ConfigFiles.isExecutableFile(release) ? release : home.resolve("turndiff");
  }

  /**
   * The hook command for {@code runtime}: the client's absolute path when it was built, else the
   * script's, quoted for {@code sh -c} and {@code bash -c} (how the runtimes run a command), the
   * runtime, and the options. This exact string is what marks a hook as turndiff's; an install
   * after the client was built replaces the script's command with the client's.
   */
  String command(HookRuntime runtime, boolean gitRoot, boolean autoTrack) {
    Path hook = ConfigFiles.isExecutableFile(client()) ? client() : path();
    return "'"
        + hook.toString().replace("'", "'\\''")
        + "' "
        + runtime.id()
        + (gitRoot ? " --git-root" : "")
        + (autoTrack ? " --auto-track" : "");
  }
}
