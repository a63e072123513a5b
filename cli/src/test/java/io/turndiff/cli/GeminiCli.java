package io.turndiff.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.turndiff.api.Json;
import io.turndiff.fixtures.CommandRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The Gemini CLI pinned in {@code integrations/gemini-e2e} (0.61.0), installed with {@code npm ci}
 * from its lockfile and run headless on scripted model answers (its {@code --fake-responses} file,
 * or a {@link GeminiApiServer} on loopback), with no model key and no network but the npm
 * registry's (integrations/gemini-e2e/README.md).
 */
final class GeminiCli {

  /** A prompt took 5 to 8 s on a loaded machine; the limit only stops a hung run. */
  private static final long PROMPT_LIMIT_SECONDS = 180;

  private final NpmKit kit;

  private GeminiCli(NpmKit kit) {
    this.kit = kit;
  }

  /**
   * The kit's Gemini CLI, installed first with {@code npm ci} when {@code node_modules/.bin/gemini}
   * is missing or older than {@code package-lock.json} (the kit's .npmrc: no install scripts, no
   * optional native dependencies).
   *
   * @param logs where the install's and the runs' output go
   */
  static GeminiCli installed(Path repository, Path logs) throws IOException, InterruptedException {
    return new GeminiCli(
        NpmKit.installed(
            repository, "gemini-e2e", "node_modules/.bin/gemini", logs, PROMPT_LIMIT_SECONDS));
  }

  /**
   * The runtime's environment: {@code base} (the test's store, run directory, {@code
   * TURNDIFF_HOME}) plus the machine's {@code PATH}, a model key that is never used (the answers
   * are scripted) and the workspace trusted.
   */
  static Map<String, String> environment(Map<String, String> base) {
    Map<String, String> environment = new HashMap<>(base);
    environment.put("PATH", System.getenv("PATH"));
    environment.put("GEMINI_API_KEY", "fake-key");
    environment.put("GEMINI_CLI_TRUST_WORKSPACE", "true");
    return environment;
  }

  /**
   * The runtime's environment to ask {@code model} (see {@link #configure}): {@link
   * #environment(Map)} and {@code GOOGLE_GEMINI_BASE_URL}, the model's address.
   */
  static Map<String, String> environment(Map<String, String> base, GeminiApiServer model) {
    Map<String, String> environment = environment(base);
    environment.put("GOOGLE_GEMINI_BASE_URL", model.base().toString());
    return environment;
  }

  /**
   * Chooses the API key as the auth in the user settings of {@code home} ({@code
   * ~/.gemini/settings.json}, kept as it was but for that), for a scripted model at {@code
   * GOOGLE_GEMINI_BASE_URL}: with the address alone, 0.61.0 takes the auth for a gateway's, which
   * its headless mode refuses ("Invalid auth method selected").
   */
  static void configure(Path home) throws IOException {
    Path settings = Files.createDirectories(home.resolve(".gemini")).resolve("settings.json");
    ObjectNode root =
        Files.exists(settings)
            ? (ObjectNode) Json.mapper().readTree(settings.toFile())
            : Json.mapper().createObjectNode();
    root.withObject("/security").withObject("/auth").put("selectedType", "gemini-api-key");
    Files.writeString(settings, Json.mapper().writeValueAsString(root));
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
    return run(
        workspace,
        environment,
        prompt,
        session,
        List.of("--fake-responses-non-strict", answers.toString()),
        name);
  }

  /**
   * Runs one prompt as {@link #prompt(Path, Map, String, List, Path, String)} does, its answers
   * asked of the model {@code environment} names ({@link #environment(Map, GeminiApiServer)}).
   */
  CommandRun prompt(
      Path workspace,
      Map<String, String> environment,
      String prompt,
      List<String> session,
      String name)
      throws IOException, InterruptedException {
    return run(workspace, environment, prompt, session, List.of(), name);
  }

  private CommandRun run(
      Path workspace,
      Map<String, String> environment,
      String prompt,
      List<String> session,
      List<String> model,
      String name)
      throws IOException, InterruptedException {
    List<String> arguments = new ArrayList<>();
    arguments.addAll(List.of("-p", prompt, "--approval-mode", "yolo", "-m", "gemini-2.5-flash"));
    arguments.addAll(session);
    arguments.addAll(model);
    return kit.run(workspace, environment, arguments, name);
  }
}
