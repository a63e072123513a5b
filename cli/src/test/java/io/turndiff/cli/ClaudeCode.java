package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.fixtures.CommandRun;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Claude Code pinned in {@code integrations/claude-code-e2e} (2.1.332), installed with {@code npm
 * ci} from its lockfile, its native binary (the {@code -linux-x64} platform package) run headless
 * ({@code claude -p}) against a scripted Anthropic Messages API on loopback: no model key, no
 * network but the npm registry's (integrations/claude-code-e2e/README.md).
 */
final class ClaudeCode {

  /** A prompt took 3 to 8 s on a loaded machine; the limit only stops a hung run. */
  private static final long PROMPT_LIMIT_SECONDS = 120;

  /** The tools the scripts use, allowed without asking (headless, as root: no bypass mode). */
  // and the one MCP tool ClaudeCodeHooksIT calls (a tool of turndiff's MCP server: mcp__<server>__)
  static final String ALLOWED_TOOLS = "Write,Edit,Bash,mcp__turndiff__list_turns";

  private final NpmKit kit;

  private ClaudeCode(NpmKit kit) {
    this.kit = kit;
  }

  /**
   * The kit's Claude Code, installed first with {@code npm ci} when its platform binary is missing
   * or older than {@code package-lock.json} (the kit's .npmrc: no install scripts; the wrapper's
   * postinstall, which copies the binary over its stub, is not needed to run it).
   */
  static ClaudeCode installed(Path repository, Path logs) throws IOException, InterruptedException {
    return new ClaudeCode(
        NpmKit.installed(
            repository,
            "claude-code-e2e",
            "node_modules/@anthropic-ai/claude-code-linux-x64/claude",
            logs,
            PROMPT_LIMIT_SECONDS));
  }

  /**
   * The runtime's environment: {@code base} (the test's store, run directory, {@code
   * TURNDIFF_HOME}) plus the machine's {@code PATH}, a home of its own, the scripted model and no
   * traffic anywhere else.
   */
  static Map<String, String> environment(
      Map<String, String> base, ScriptedModelServer model, Path home) {
    Map<String, String> environment = new HashMap<>(base);
    environment.put("PATH", System.getenv("PATH"));
    environment.put("HOME", home.toString());
    environment.put("ANTHROPIC_BASE_URL", model.base().toString());
    environment.put("ANTHROPIC_API_KEY", "sk-ant-scripted");
    environment.put("DISABLE_AUTOUPDATER", "1");
    environment.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
    return environment;
  }

  /**
   * Runs one prompt in {@code directory} (Claude's project is the directory it starts in).
   *
   * @param session {@code --session-id UUID} for a session's first prompt, {@code --resume UUID}
   *     for the next ones
   */
  CommandRun prompt(
      Path directory,
      Map<String, String> environment,
      String prompt,
      List<String> session,
      String name)
      throws IOException, InterruptedException {
    List<String> arguments = new ArrayList<>();
    arguments.addAll(List.of("-p", prompt, "--output-format", "text"));
    arguments.addAll(List.of("--allowedTools", ALLOWED_TOOLS));
    arguments.addAll(session);
    return kit.run(directory, environment, arguments, name);
  }

  /**
   * Runs the scripted prompt {@code do prompt WORDS} in {@code directory} to its end: Claude Code
   * exits 0 and prints the script's last words, {@code Done with prompt WORDS.}; its output goes to
   * {@code prompt-WORDS.out} and {@code .err}.
   */
  void promptToItsEnd(
      Path directory, Map<String, String> environment, String words, List<String> session)
      throws IOException, InterruptedException {
    CommandRun run =
        prompt(directory, environment, "do prompt " + words, session, "prompt-" + words);
    assertEquals(0, run.exitCode(), "claude prompt " + words + ": " + run);
    assertTrue(run.out().contains("Done with prompt " + words + "."), run.out() + run.err());
  }
}
