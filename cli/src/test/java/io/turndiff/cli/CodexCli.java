package io.turndiff.cli;

import io.turndiff.fixtures.CommandRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Codex CLI pinned in {@code integrations/codex-e2e} (0.171.0), installed with {@code npm ci} from
 * its lockfile, its native binary (the {@code @openai/codex@0.171.0-linux-x64} platform package)
 * run headless ({@code codex exec}, then {@code codex exec resume}) against a scripted Responses
 * API on loopback, named by a model provider in {@code $CODEX_HOME/config.toml}: no model key, no
 * network but the npm registry's (integrations/codex-e2e/README.md).
 */
final class CodexCli {

  /** A prompt took 2 to 6 s on a loaded machine; the limit only stops a hung run. */
  private static final long PROMPT_LIMIT_SECONDS = 120;

  /** Where Codex prints the thread id a first prompt made ({@code session id: UUID}). */
  private static final Pattern SESSION = Pattern.compile("(?m)^session id: ([0-9a-f-]{36})$");

  private final NpmKit kit;

  private CodexCli(NpmKit kit) {
    this.kit = kit;
  }

  /**
   * The kit's Codex, installed first with {@code npm ci} when its platform binary is missing or
   * older than {@code package-lock.json}.
   */
  static CodexCli installed(Path repository, Path logs) throws IOException, InterruptedException {
    return new CodexCli(
        NpmKit.installed(
            repository,
            "codex-e2e",
            "node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex",
            logs,
            PROMPT_LIMIT_SECONDS));
  }

  /**
   * The kit's Codex as npm's {@code codex} runs it: {@code node bin/codex.js} (through the link npm
   * makes), which runs the native {@code codex} with the same arguments, on Node 20 as its child
   * (on a Node with {@code process.execve}, in its place). A user's Codex runs so; {@link
   * #installed} runs the native one alone.
   */
  static CodexCli installedThroughNode(Path repository, Path logs)
      throws IOException, InterruptedException {
    installed(repository, logs); // the native one, which the wrapper runs
    return new CodexCli(
        NpmKit.installed(
            repository, "codex-e2e", "node_modules/.bin/codex", logs, PROMPT_LIMIT_SECONDS));
  }

  /**
   * Writes {@code config.toml} in {@code codexHome}: the scripted model as the provider ({@code
   * wire_api = "responses"}, no retries) and each of {@code trusted} as a trusted project (project
   * hooks run only there; {@code hooks install} appends its own trust entries after this).
   */
  static void configure(Path codexHome, ScriptedModelServer model, List<Path> trusted)
      throws IOException {
    Files.createDirectories(codexHome);
    StringBuilder config =
        new StringBuilder(
            """
            model = "gpt-5.5"
            model_provider = "scripted"

            [model_providers.scripted]
            name = "scripted"
            base_url = "%s/v1"
            wire_api = "responses"
            env_key = "SCRIPTED_API_KEY"
            request_max_retries = 0
            stream_max_retries = 0
            """
                .formatted(model.base()));
    for (Path project : trusted) {
      config.append("\n[projects.\"").append(project).append("\"]\ntrust_level = \"trusted\"\n");
    }
    Files.writeString(codexHome.resolve("config.toml"), config);
  }

  /**
   * The runtime's environment: {@code base} (the test's store, run directory, {@code
   * TURNDIFF_HOME}, {@code CODEX_HOME}) plus the machine's {@code PATH}, a home of its own and the
   * scripted provider's key.
   */
  static Map<String, String> environment(Map<String, String> base, Path home) {
    Map<String, String> environment = new HashMap<>(base);
    environment.put("PATH", System.getenv("PATH"));
    environment.put("HOME", home.toString());
    environment.put("SCRIPTED_API_KEY", "scripted");
    return environment;
  }

  /**
   * Runs a session's first prompt in {@code directory} ({@code codex exec}, no sandbox: the tests
   * run as root in a container, where Codex's own sandbox cannot start) and returns it.
   */
  CommandRun first(
      Path directory,
      Map<String, String> environment,
      String prompt,
      String name,
      String... options)
      throws IOException, InterruptedException {
    List<String> arguments = new ArrayList<>(arguments(List.of(), prompt));
    arguments.addAll(1, List.of(options));
    return kit.run(directory, environment, arguments, name);
  }

  /** Runs a later prompt of {@code session} ({@code codex exec resume SESSION PROMPT}). */
  CommandRun resume(
      Path directory, Map<String, String> environment, String session, String prompt, String name)
      throws IOException, InterruptedException {
    return kit.run(directory, environment, arguments(List.of("resume", session), prompt), name);
  }

  /** The thread id a {@code codex exec} printed. */
  static String session(CommandRun first) {
    Matcher matcher = SESSION.matcher(first.err());
    if (!matcher.find()) {
      throw new AssertionError("codex printed no session id: " + first);
    }
    return matcher.group(1);
  }

  private static List<String> arguments(List<String> resume, String prompt) {
    List<String> arguments = new ArrayList<>(List.of("exec"));
    arguments.addAll(resume);
    arguments.addAll(
        List.of("--dangerously-bypass-approvals-and-sandbox", "--skip-git-repo-check", prompt));
    return arguments;
  }
}
