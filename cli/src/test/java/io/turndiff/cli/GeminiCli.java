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
 * The Gemini CLI pinned in {@code integrations/gemini-e2e} (0.61.0), installed with {@code npm ci}
 * from its lockfile and run headless on scripted model answers, with no model key and no network
 * but the npm registry's (integrations/gemini-e2e/README.md).
 */
final class GeminiCli {

  /** A prompt took 5 to 8 s on a loaded machine; the limit only stops a hung run. */
  private static final long PROMPT_LIMIT_SECONDS = 180;

  private static final long INSTALL_LIMIT_SECONDS = 600;

  private final Path executable;
  private final Path logs;

  private GeminiCli(Path executable, Path logs) {
    this.executable = executable;
    this.logs = logs;
  }

  /**
   * The kit's Gemini CLI, installed first with {@code npm ci} when {@code node_modules/.bin/gemini}
   * is missing or older than {@code package-lock.json}. Without npm this fails: CI has Node 20 and
   * npm, and a skipped end-to-end test would prove nothing.
   *
   * @param logs where the install's and the runs' output go
   */
  static GeminiCli installed(Path repository, Path logs) throws IOException, InterruptedException {
    Path kit = repository.resolve("integrations/gemini-e2e");
    Path executable = kit.resolve("node_modules/.bin/gemini");
    Path lockfile = kit.resolve("package-lock.json");
    Files.createDirectories(logs);
    if (!Files.exists(executable, LinkOption.NOFOLLOW_LINKS)
        || Files.getLastModifiedTime(executable, LinkOption.NOFOLLOW_LINKS)
                .compareTo(Files.getLastModifiedTime(lockfile))
            < 0) {
      install(kit, logs);
    }
    if (!Files.isExecutable(executable)) {
      throw new AssertionError("npm ci left no runnable " + executable);
    }
    return new GeminiCli(executable, logs);
  }

  private static void install(Path kit, Path logs) throws IOException, InterruptedException {
    Path log = logs.resolve("npm-ci.log");
    Process npm;
    try {
      // the kit's .npmrc: no install scripts, no optional (native) dependencies
      npm =
          new ProcessBuilder("npm", "ci")
              .directory(kit.toFile())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
    } catch (IOException e) {
      throw new AssertionError(
          "the Gemini end-to-end test installs @google/gemini-cli with npm: put Node 20 and npm on"
              + " the PATH ("
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
   * Runs one prompt in {@code workspace} (Gemini's workspace is the directory it starts in) with
   * exactly {@code environment}, nothing inherited: Gemini hands its whole environment to its
   * hooks.
   *
   * @param session {@code --session-id UUID} for the first prompt of a session, {@code -r UUID} for
   *     the next ones
   * @param answers the scripted model answers, one {@code generateContentStream} call per line
   */
  CommandRun prompt(
      Path workspace,
      Map<String, String> environment,
      String prompt,
      List<String> session,
      Path answers,
      String name)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(executable.toString());
    command.addAll(List.of("-p", prompt, "--approval-mode", "yolo", "-m", "gemini-2.5-flash"));
    command.addAll(session);
    command.addAll(List.of("--fake-responses-non-strict", answers.toString()));
    Path out = logs.resolve(name + ".out");
    Path err = logs.resolve(name + ".err");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(workspace.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    builder.environment().clear();
    builder.environment().putAll(environment);
    Process gemini = builder.start();
    gemini.getOutputStream().close();
    if (!gemini.waitFor(PROMPT_LIMIT_SECONDS, TimeUnit.SECONDS)) {
      gemini.descendants().forEach(ProcessHandle::destroyForcibly);
      gemini.destroyForcibly();
      throw new AssertionError(
          "gemini did not finish '" + prompt + "' in " + PROMPT_LIMIT_SECONDS + " s: " + read(err));
    }
    return new CommandRun(gemini.exitValue(), read(out), read(err));
  }

  private static String read(Path file) throws IOException {
    return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
  }
}
