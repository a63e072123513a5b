package io.turndiff.cli;

import static io.turndiff.cli.ModelScript.Step.call;
import static io.turndiff.cli.ModelScript.Step.say;
import static io.turndiff.cli.ModelScript.ToolCall.function;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.fixtures.TreeContent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21's end to end test for Claude Code: the real Claude Code (2.1.332, {@code
 * integrations/claude-code-e2e}) runs the two prompts of {@link TwoPromptScenario} as one session
 * headless ({@code claude -p}, then {@code claude -p --resume}) against a scripted Anthropic
 * Messages API on loopback, with its own {@code Write}, {@code Edit} and {@code Bash}, turndiff's
 * hooks in the workspace's {@code .claude/settings.local.json} (written by {@code turndiff hooks
 * install --runtime claude-code}), {@code bin/turndiff-hook} and the real per-user service of a
 * test store behind them; what lands in the store is held against what really happened on disk, as
 * {@code GeminiHooksIT} does. Claude refuses both writes through the links out (after the {@code
 * PreToolUse} hook named the path), so the outside stays as it was.
 */
class ClaudeCodeHooksIT {

  @TempDir Path temp;

  private HookTestStore store;

  @BeforeEach
  void setUp() {
    store = HookTestStore.in(temp);
  }

  @AfterEach
  void tearDown() throws Exception {
    store.stopService();
  }

  @Test
  void twoPromptsOfOneClaudeCodeSessionAreTwoTurnsThatReviewAndRewindByteForByte()
      throws Exception {
    long began = System.nanoTime();
    ClaudeCode claude = ClaudeCode.installed(HookTestStore.repository(), temp.resolve("logs"));
    long installed = System.nanoTime();
    TwoPromptScenario scenario = new TwoPromptScenario(temp, store);
    Path root = scenario.root();
    store.startService();
    installHooks(root);

    String session = UUID.randomUUID().toString();
    long[] promptSeconds = new long[2];
    List<String> mcpAnswers;
    try (AnthropicMessagesServer model = new AnthropicMessagesServer(script(root.toString()))) {
      Map<String, String> claudeEnv =
          ClaudeCode.environment(store.runtimeBase(), model, temp.resolve("claude-home"));
      scenario.beforePromptOne();
      long at = System.nanoTime();
      claude.promptToItsEnd(root, claudeEnv, "one", List.of("--session-id", session));
      promptSeconds[0] = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - at);
      scenario.beforePromptTwo();
      at = System.nanoTime();
      claude.promptToItsEnd(root, claudeEnv, "two", List.of("--resume", session));
      promptSeconds[1] = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - at);
      scenario.afterPromptTwo();
      mcpAnswers = toolResults(model.conversationsWith("do prompt two").getLast().body());
    }

    TwoPromptScenario.assertTheRuntimeDidIt(scenario.workspace());
    // nothing changed outside: Claude refused its Write through the directory link and its shell
    // redirection through the file link ("resolves through a symlink to ..., which is outside the
    // allowed working directories"), both after the PreToolUse hook had named the path
    scenario.workspace().assertOutsideUnchanged();

    // UserPromptSubmit, PreToolUse x4, PostToolUse (the Bash), Stop, SessionEnd; then
    // UserPromptSubmit, PreToolUse x5 (the two Claude refused included), PostToolUse x3 (the three
    // Bash calls it ran: none for the one it refused), Stop, SessionEnd
    // before the rewinds below, which add their own turns to the session
    assertTheMcpToolAnswered(
        mcpAnswers, scenario.evidence().finishedTurns("claude-code:" + session, 2));
    scenario.assertTurnsReviewAndRewind("claude-code:" + session, 19);
    scenario.workspace().assertOutsideUnchanged();
    twoSessionsAtOnce(claude, root, scenario.evidence());
    scenario.workspace().assertOutsideUnchanged();
    scenario.assertSecretNowhere();

    System.out.printf(
        "ClaudeCodeHooksIT: install %d s, prompt 1 %d s, prompt 2 %d s, whole test %d s%n",
        TimeUnit.NANOSECONDS.toSeconds(installed - began),
        promptSeconds[0],
        promptSeconds[1],
        TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - began));
  }

  /**
   * {@link TwoPromptScenario}'s prompts with Claude's tools; its file tools take absolute paths.
   */
  private static ModelScript script(String ws) {
    return new ModelScript()
        .prompt(
            "do prompt one",
            call(function("Write", "file_path", ws + "/hello.txt", "content", "hi\n")),
            call(function("Write", "file_path", ws + "/sub/rel.txt", "content", "rel\n")),
            call(
                function(
                    "Edit",
                    "file_path",
                    ws + "/notes.txt",
                    "old_string",
                    "beta",
                    "new_string",
                    "BETA")),
            call(bash("sed -i 's/v1/v2/' src/app.txt")),
            say("Done with prompt one."))
        .prompt(
            "do prompt two",
            call(bash("mv old.txt renamed.txt && rm trash.txt")),
            call(function("Write", "file_path", ws + "/escape-dir/planted.txt", "content", "x\n")),
            call(bash(TwoPromptScenario.APPEND_THROUGH_LINK)),
            call(bash("ln -sfn src outside-dir")),
            call(bash("printf 'shell\\n' > from-shell.txt && chmod +x from-shell.txt")),
            // issue 24 item 4: the agent asks turndiff itself, through the MCP server hooks
            // install registered (the workspace's .mcp.json); no hook fires for an MCP tool
            call(function("mcp__turndiff__list_turns")),
            say("Done with prompt two."));
  }

  /**
   * The MCP call of prompt two: Claude started {@code turndiff mcp} from the workspace's {@code
   * .mcp.json} (approved in {@code settings.local.json}), ran {@code list_turns} and sent its
   * answer back to the model: this session's turns, the first prompt's finished turn among them.
   */
  private static void assertTheMcpToolAnswered(List<String> toolResults, List<String> turns) {
    String first = turns.getFirst();
    assertTrue(
        toolResults.stream()
            .anyMatch(
                result ->
                    !result.startsWith("ERROR ")
                        && result.contains("\"turns\"")
                        && result.contains(first)),
        "list_turns answered with turn " + first + " of " + turns + ": " + toolResults);
  }

  /** The text of each {@code tool_result} block in a Messages API request's conversation. */
  private static List<String> toolResults(String requestBody) throws Exception {
    List<String> results = new ArrayList<>();
    for (JsonNode message : Json.mapper().readTree(requestBody).path("messages")) {
      for (JsonNode block : message.path("content")) {
        if (!block.path("type").asText().equals("tool_result")) {
          continue;
        }
        JsonNode content = block.path("content");
        StringBuilder text = new StringBuilder(block.path("is_error").asBoolean() ? "ERROR " : "");
        if (content.isTextual()) {
          text.append(content.asText());
        }
        content.forEach(part -> text.append(part.path("text").asText()));
        results.add(text.toString());
      }
    }
    return results;
  }

  /**
   * Issue 27 with the real runtime: two Claude Code sessions in the workspace, their prompts
   * interleaved. Session alpha writes {@code alpha.txt} through its shell, then its model thinks
   * (the scripted model holds its answer) while session beta's whole prompt runs and writes {@code
   * beta.txt} through its shell; then alpha's prompt ends. The service watches the workspace and
   * each shell call is bracketed by its {@code PreToolUse} and {@code PostToolUse} hooks, so each
   * file is the call's that wrote it, alone, though both turns were open when each was written;
   * then each session's rewind takes back its own file and leaves the other's exactly as that
   * session left it.
   */
  private void twoSessionsAtOnce(ClaudeCode claude, Path root, TurnEvidence evidence)
      throws Exception {
    Map<String, String> before = TreeContent.of(root);
    String alpha = UUID.randomUUID().toString();
    String beta = UUID.randomUUID().toString();
    ModelScript.Hold alphaThinks =
        new ModelScript.Hold(1, new CountDownLatch(1), new CountDownLatch(1));
    ModelScript script =
        new ModelScript()
            .prompt("do prompt alpha", call(bash(ALPHA)), say("Done with prompt alpha."))
            .hold("do prompt alpha", alphaThinks)
            .prompt("do prompt beta", call(bash(BETA)), say("Done with prompt beta."));
    try (AnthropicMessagesServer model = new AnthropicMessagesServer(script)) {
      Map<String, String> claudeEnv =
          ClaudeCode.environment(store.runtimeBase(), model, temp.resolve("claude-home"));
      CompletableFuture<Void> first =
          CompletableFuture.runAsync(
              () -> promptUnchecked(claude, root, claudeEnv, "alpha", alpha));
      assertTrue(
          alphaThinks.arrived().await(120, TimeUnit.SECONDS),
          "alpha's shell call ran and its model was asked what next");
      try {
        promptUnchecked(claude, root, claudeEnv, "beta", beta);
      } finally {
        alphaThinks.go().countDown();
      }
      first.get(120, TimeUnit.SECONDS);
    }
    assertEquals("alpha\n", Files.readString(root.resolve("alpha.txt")));
    assertEquals("beta\n", Files.readString(root.resolve("beta.txt")));
    String turnAlpha = evidence.finishedTurns("claude-code:" + alpha, 1).getFirst();
    String turnBeta = evidence.finishedTurns("claude-code:" + beta, 1).getFirst();
    for (Map.Entry<String, String> own :
        Map.of(turnAlpha, "alpha.txt", turnBeta, "beta.txt").entrySet()) {
      Map<String, JsonNode> records = evidence.records(own.getKey());
      assertEquals(Set.of(own.getValue()), records.keySet(), records.toString());
      JsonNode record = records.get(own.getValue());
      assertEquals("calls", record.get("made_during").asText(), record.toString());
      assertEquals(List.of(), asList(record.get("also_possible")), record.toString());
      assertEquals("Bash", record.get("calls").get(0).get("tool").asText(), record.toString());
    }
    evidence.rewind(turnAlpha, Set.of("alpha.txt"), Set.of(), Set.of());
    assertEquals(
        "beta\n", Files.readString(root.resolve("beta.txt")), "beta's file as beta left it");
    evidence.rewind(turnBeta, Set.of("beta.txt"), Set.of(), Set.of());
    assertEquals(before, TreeContent.of(root), "the tree before both sessions, byte for byte");
  }

  private static final String ALPHA = "echo alpha > alpha.txt";
  private static final String BETA = "echo beta > beta.txt";

  private static List<JsonNode> asList(JsonNode array) {
    List<JsonNode> items = new ArrayList<>();
    array.forEach(items::add);
    return items;
  }

  private static void promptUnchecked(
      ClaudeCode claude, Path root, Map<String, String> env, String words, String session) {
    try {
      claude.promptToItsEnd(root, env, words, List.of("--session-id", session));
    } catch (Exception e) {
      throw new IllegalStateException("claude prompt " + words, e);
    }
  }

  private static ModelScript.ToolCall bash(String command) {
    return function("Bash", "command", command, "description", "scripted shell step");
  }

  /**
   * {@code turndiff hooks install --runtime claude-code --workspace DIR}, as a user types it:
   * turndiff's hooks in {@code DIR/.claude/settings.local.json} (docs/runtime-hooks.md, "Claude
   * Code"), the workspace tracked.
   */
  private void installHooks(Path root) throws Exception {
    store.installHooks("claude-code", "--workspace", root.toString());
    JsonNode hooks =
        Json.mapper().readTree(root.resolve(".claude/settings.local.json").toFile()).get("hooks");
    String command = HookTestStore.hookCommand("claude-code");
    for (String event : List.of("UserPromptSubmit", "PreToolUse", "Stop", "SessionEnd")) {
      assertEquals(
          command, hooks.get(event).get(0).get("hooks").get(0).get("command").asText(), event);
    }
  }
}
