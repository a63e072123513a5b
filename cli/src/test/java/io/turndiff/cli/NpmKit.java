package io.turndiff.cli;

import io.turndiff.fixtures.CommandRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A coding-agent runtime pinned by one of the npm kits in {@code integrations/} (a {@code
 * package.json}, its {@code package-lock.json} and an {@code .npmrc}), installed there with {@code
 * npm ci} when its executable is missing or older than the lockfile, and run as a process with
 * exactly the environment a test gives it. The installs stay in the kits' {@code node_modules/}, so
 * the next run, and every test of the same runtime, reuses them.
 */
final class NpmKit {

  private static final long INSTALL_LIMIT_SECONDS = 600;

  private final Path executable;
  private final Path logs;
  private final long limitSeconds;

  private NpmKit(Path executable, Path logs, long limitSeconds) {
    this.executable = executable;
    this.logs = logs;
    this.limitSeconds = limitSeconds;
  }

  /**
   * The kit {@code integrations/<kit>} with its runtime at {@code executable} (relative to the
   * kit), installed first when needed. Without npm this fails: CI has Node 20 and npm, and a
   * skipped end-to-end test would prove nothing.
   *
   * @param logs where the install's and the runs' output go
   * @param limitSeconds how long one run may take before it is killed: it only stops a hung run
   */
  static NpmKit installed(
      Path repository, String kit, String executable, Path logs, long limitSeconds)
      throws IOException, InterruptedException {
    Path folder = repository.resolve("integrations").resolve(kit);
    Path runnable = folder.resolve(executable);
    Path lockfile = folder.resolve("package-lock.json");
    Files.createDirectories(logs);
    // test classes run at once (and other test JVMs) may want the same kit: one installs it while
    // the others wait, then finds it installed. The lock is beside node_modules, which npm ci
    // deletes first.
    BuildLock.holding(
        folder.resolve(".npm-ci.lock"),
        () -> {
          if (!Files.exists(runnable, LinkOption.NOFOLLOW_LINKS)
              || Files.getLastModifiedTime(runnable, LinkOption.NOFOLLOW_LINKS)
                      .compareTo(Files.getLastModifiedTime(lockfile))
                  < 0) {
            install(folder, logs.resolve("npm-ci-" + kit + ".log"));
          }
          return null;
        });
    if (!Files.isExecutable(runnable)) {
      throw new AssertionError(
          "npm ci in " + folder + " left no runnable " + runnable + " (is this linux-x64?)");
    }
    return new NpmKit(runnable, logs, limitSeconds);
  }

  private static void install(Path kit, Path log) throws IOException, InterruptedException {
    Process npm;
    try {
      npm =
          new ProcessBuilder("npm", "ci")
              .directory(kit.toFile())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
    } catch (IOException e) {
      throw new AssertionError(
          "the end-to-end test installs its runtime from "
              + kit
              + " with npm: put Node 20 and npm on the PATH ("
              + e.getMessage()
              + ")",
          e);
    }
    npm.getOutputStream().close();
    if (!npm.waitFor(INSTALL_LIMIT_SECONDS, TimeUnit.SECONDS)) {
      npm.descendants().forEach(ProcessHandle::destroyForcibly);
      npm.destroyForcibly();
      throw new AssertionError("npm ci in " + kit + " did not finish: " + read(log));
    }
    if (npm.exitValue() != 0) {
      throw new AssertionError(
          "npm ci in " + kit + " failed (exit " + npm.exitValue() + "): " + read(log));
    }
  }

  /**
   * Runs the runtime with {@code arguments} in {@code directory} with exactly {@code environment},
   * nothing inherited (the runtimes hand their whole environment to their hooks), no standard
   * input; its output goes to {@code <logs>/<name>.out} and {@code .err}.
   */
  CommandRun run(
      Path directory, Map<String, String> environment, List<String> arguments, String name)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(executable.toString());
    command.addAll(arguments);
    Path out = logs.resolve(name + ".out");
    Path err = logs.resolve(name + ".err");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(directory.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    builder.environment().clear();
    builder.environment().putAll(environment);
    Process runtime = builder.start();
    runtime.getOutputStream().close();
    if (!runtime.waitFor(limitSeconds, TimeUnit.SECONDS)) {
      runtime.descendants().forEach(ProcessHandle::destroyForcibly);
      runtime.destroyForcibly();
      throw new AssertionError(
          executable.getFileName()
              + " did not finish "
              + name
              + " in "
              + limitSeconds
              + " s: "
              + read(err));
    }
    return new CommandRun(runtime.exitValue(), read(out), read(err));
  }

  private static String read(Path file) throws IOException {
    return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
  }
}
