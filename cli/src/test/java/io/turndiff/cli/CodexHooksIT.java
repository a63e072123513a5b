package io.turndiff.cli;

import static io.turndiff.cli.ModelScript.Step.call;
import static io.turndiff.cli.ModelScript.Step.callFrom;
import static io.turndiff.cli.ModelScript.Step.say;
import static io.turndiff.cli.ModelScript.ToolCall.freeform;
import static io.turndiff.cli.ModelScript.ToolCall.function;
import static io.turndiff.cli.ModelScript.ToolCall.inNamespace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.fixtures.Canary;
import io.turndiff.fixtures.CommandRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21's end to end test for Codex: the real Codex CLI (0.171.0, {@code
 * integrations/codex-e2e}) runs the two prompts of {@link TwoPromptScenario} as one session
 * headless ({@code codex exec}, then {@code codex exec resume}) against a scripted Responses API on
 * loopback, with its own {@code apply_patch} and shell ({@code exec_command}), turndiff's hooks in
 * the workspace's {@code .codex/hooks.json} and their trust entries in {@code
 * $CODEX_HOME/config.toml} (both written by {@code turndiff hooks install --runtime codex}), {@code
 * bin/turndiff-hook} and the real per-user service of a test store behind them; what lands in the
 * store is held against what really happened on disk, as {@code GeminiHooksIT} does. Codex, run
 * without its sandbox, writes through both links out: the changes outside are its own. In prompt
 * two the model also asks turndiff itself (issue 24 item 4): Codex runs the MCP server {@code hooks
 * install} registered in the workspace's {@code .codex/config.toml}, and the tools' answers reach
 * the model.
 */
class CodexHooksIT {

  @TempDir Path temp;

  private HookTestStore store;
  private Path codexHome;

  @BeforeEach
  void setUp() {
    store = HookTestStore.in(temp);
    codexHome = temp.resolve("codex-home");
    store.env().put("CODEX_HOME", codexHome.toString());
  }

  @AfterEach
  void tearDown() throws Exception {
    store.stopService();
  }

  @Test
  void twoPromptsOfOneCodexSessionAreTwoTurnsThatReviewAndRewindByteForByte() throws Exception {
    long began = System.nanoTime();
    CodexCli codex = CodexCli.installed(HookTestStore.repository(), temp.resolve("logs"));
    long installed = System.nanoTime();
    TwoPromptScenario scenario = new TwoPromptScenario(temp, store);
    Path root = scenario.root();
    Canary canary = scenario.workspace().canary();

    long[] promptSeconds = new long[2];
    String session;
    JsonNode promptTwoEnd;
    try (ResponsesApiServer model = new ResponsesApiServer(script(root))) {
      CodexCli.configure(codexHome, model, List.of(root));
      store.startService();
      installHooks(root);
      Map<String, String> codexEnv =
          CodexCli.environment(store.runtimeBase(), temp.resolve("codex-user-home"));
      scenario.beforePromptOne();
      long at = System.nanoTime();
      CommandRun first = codex.first(root, codexEnv, "do prompt one", "prompt-one");
      assertDone(first, "one");
      session = CodexCli.session(first);
      promptSeconds[0] = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - at);
      scenario.beforePromptTwo();
      at = System.nanoTime();
      assertDone(codex.resume(root, codexEnv, session, "do prompt two", "prompt-two"), "two");
      promptSeconds[1] = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - at);
      scenario.afterPromptTwo();
      promptTwoEnd = model.conversationsWith("do prompt two").getLast().json();
    }

    TwoPromptScenario.assertTheRuntimeDidIt(scenario.workspace());
    assertCodexChangedTheOutside(scenario, canary);

    // before the rewinds below, which add their own turns to the session
    assertTheMcpToolsAnswered(
        promptTwoEnd, scenario.evidence().finishedTurns("codex:" + session, 2));
    // UserPromptSubmit, PreToolUse x3, PostToolUse x3, Stop, SessionEnd; then UserPromptSubmit,
    // PreToolUse x7, PostToolUse x7, Stop, SessionEnd (Codex 0.171.0 fires PostToolUse for every
    // call here: apply_patch's are ignored, Bash's end its shell call; each MCP call fires both,
    // as tool mcp__turndiff__list_turns or mcp__turndiff__rewind, which change nothing; the tool
    // search fires none)
    scenario.assertTurnsReviewAndRewind("codex:" + session, 26);
    // a rewind never writes outside: Codex's own changes there stay
    assertCodexChangedTheOutside(scenario, canary);
    scenario.assertSecretNowhere();

    System.out.printf(
        "CodexHooksIT: install %d s, prompt 1 %d s, prompt 2 %d s, whole test %d s,"
            + " tool searches before Codex had turndiff's tools %d%n",
        TimeUnit.NANOSECONDS.toSeconds(installed - began),
        promptSeconds[0],
        promptSeconds[1],
        TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - began),
        searchesInVain(promptTwoEnd));
  }

  /** How many of the model's tool searches found nothing (Codex had not listed the tools yet). */
  private static long searchesInVain(JsonNode conversation) {
    long searches = 0;
    for (JsonNode item : conversation.path("input")) {
      if (item.path("type").asText().equals("tool_search_output") && item.path("tools").isEmpty()) {
        searches++;
      }
    }
    return searches;
  }

  /**
   * The changes outside, Codex's own: the file its patch added through the directory link, the line
   * its shell appended through the file link; nothing else.
   */
  private static void assertCodexChangedTheOutside(TwoPromptScenario scenario, Canary canary)
      throws Exception {
    assertEquals("planted\n", Files.readString(scenario.elsewhere().resolve("planted.txt")));
    assertEquals(
        canary.text() + TwoPromptScenario.APPENDED,
        Files.readString(scenario.workspace().secret()));
    scenario.workspace().assertOutsideUnchangedExcept("secret.txt");
  }

  /** {@link TwoPromptScenario}'s prompts with Codex's tools. */
  private static ModelScript script(Path root) {
    return new ModelScript()
        .prompt(
            "do prompt one",
            call(
                patch(
                    "*** Add File: hello.txt\n+hi\n*** Update File: notes.txt\n@@\n alpha\n"
                        + "-beta\n+BETA\n")),
            call(patch("*** Add File: sub/rel.txt\n+rel\n")),
            // in src: the hook's cwd becomes the shell's workdir
            call(shell("sed -i 's/v1/v2/' app.txt", root.resolve("src"))),
            say("Done with prompt one."))
        .prompt(
            "do prompt two",
            call(shell("mv old.txt renamed.txt && rm trash.txt", root)),
            call(patch("*** Add File: escape-dir/planted.txt\n+planted\n")),
            call(shell(TwoPromptScenario.APPEND_THROUGH_LINK, root)),
            call(shell("ln -sfn src outside-dir", root)),
            call(shell("printf 'shell\\n' > from-shell.txt && chmod +x from-shell.txt", root)),
            // issue 24 item 4: the agent asks turndiff itself, through the MCP server hooks
            // install registered (the workspace's .codex/config.toml); Codex offers an MCP
            // server's tools only through its tool search, then as functions of a namespace (the
            // model searches again while the search finds nothing: ResponsesApiServer)
            call(function(ResponsesApiServer.TOOL_SEARCH, "query", "turndiff list turns")),
            call(inNamespace(TURNDIFF_TOOLS, "list_turns")),
            // the plan of a rewind of the session's first turn, named as list_turns answered it:
            // a dry run, nothing written (what the workspace holds after prompt two is checked)
            callFrom(
                conversation ->
                    inNamespace(TURNDIFF_TOOLS, "rewind", "turn", firstTurnListed(conversation))),
            say("Done with prompt two."));
  }

  /** The namespace Codex offers turndiff's MCP tools in: {@code mcp__} and the server's name. */
  private static final String TURNDIFF_TOOLS = "mcp__turndiff";

  /**
   * The MCP calls of prompt two, in the conversation Codex sent the model last: its tool search
   * found turndiff's four tools (Codex had started {@code turndiff mcp --workspace DIR} from the
   * workspace's {@code .codex/config.toml}); it ran {@code list_turns} and sent its answer back to
   * the model: this session's turns from the test's store, the first prompt's finished turn among
   * them; and it ran {@code rewind} of that turn, which answered a dry run's plan and its token.
   */
  private static void assertTheMcpToolsAnswered(JsonNode conversation, List<String> turns)
      throws Exception {
    TreeSet<String> found = new TreeSet<>();
    for (JsonNode item : conversation.path("input")) {
      if (item.path("type").asText().equals("tool_search_output")) {
        for (JsonNode namespace : item.path("tools")) {
          if (namespace.path("name").asText().equals(TURNDIFF_TOOLS)) {
            namespace.path("tools").forEach(tool -> found.add(tool.path("name").asText()));
          }
        }
      }
    }
    assertEquals(
        new TreeSet<>(List.of("diff", "list_turns", "rewind", "show_turn")),
        found,
        "the tool search found turndiff's tools (none: Codex had not listed them within a"
            + " minute of searching; it says so to the model once it has, \"Deferred tool"
            + " namespaces\" or \"Added deferred tool namespaces\": - "
            + TURNDIFF_TOOLS
            + "): "
            + conversation.path("input"));
    String listed = answerOf(conversation, "list_turns");
    assertTrue(
        listed.contains("\"turns\"") && listed.contains(turns.getFirst()),
        "list_turns answered with turn " + turns.getFirst() + " of " + turns + ": " + listed);
    JsonNode plan = Json.mapper().readTree(json(answerOf(conversation, "rewind")));
    assertTrue(plan.path("report").path("dry_run").asBoolean(), plan.toString());
    assertTrue(plan.path("token").asText().length() > 16, plan.toString());
    assertTrue(plan.path("report").toString().contains("notes.txt"), plan.toString());
  }

  /**
   * The turn of sequence number 1 in the answer of {@code list_turns} so far; when there is none, a
   * name no turn has, so that Codex's prompt goes on and the assertions after it show the answer.
   */
  private static String firstTurnListed(JsonNode conversation) {
    try {
      for (JsonNode turn :
          Json.mapper().readTree(json(answerOf(conversation, "list_turns"))).path("turns")) {
        if (turn.path("seq").asInt() == 1) {
          return turn.path("turn").asText();
        }
      }
    } catch (IOException | AssertionError e) {
      // the answer was not a page of turns: asserted on with the rest below
    }
    return "no-first-turn-listed";
  }

  /**
   * The text Codex sent back to the model for the call of turndiff's tool {@code name}: its {@code
   * function_call_output}'s parts (Codex puts {@code Wall time: ...} before the tool's own text),
   * or the text it answered a call it could not make with ({@code unsupported call: ...}).
   */
  private static String answerOf(JsonNode conversation, String name) {
    String callId = null;
    for (JsonNode item : conversation.path("input")) {
      String type = item.path("type").asText();
      if (type.equals("function_call")
          && item.path("namespace").asText().equals(TURNDIFF_TOOLS)
          && item.path("name").asText().equals(name)) {
        callId = item.path("call_id").asText();
      } else if (type.equals("function_call_output")
          && item.path("call_id").asText().equals(callId)) {
        JsonNode output = item.path("output");
        if (output.isTextual()) {
          return output.asText();
        }
        StringBuilder text = new StringBuilder();
        output.forEach(part -> text.append(part.path("text").asText()).append('\n'));
        return text.toString();
      }
    }
    throw new AssertionError("no answer to " + name + ": " + conversation.path("input"));
  }

  /** The JSON object in a tool's answer: from its first brace. */
  private static String json(String answer) {
    int brace = answer.indexOf('{');
    if (brace < 0) {
      throw new AssertionError("the tool answered no JSON: " + answer);
    }
    return answer.substring(brace);
  }

  /** Codex's {@code apply_patch}, a free-form tool: the patch's body between its markers. */
  private static ModelScript.ToolCall patch(String body) {
    return freeform("apply_patch", "*** Begin Patch\n" + body + "*** End Patch\n");
  }

  /** Codex's shell tool, {@code exec_command}, in {@code workdir}. */
  private static ModelScript.ToolCall shell(String command, Path workdir) {
    return function("exec_command", "cmd", command, "workdir", workdir.toString());
  }

  /**
   * {@code turndiff hooks install --runtime codex --workspace DIR}, as a user types it: turndiff's
   * hooks in {@code DIR/.codex/hooks.json} and their trust in {@code $CODEX_HOME/config.toml}
   * (docs/runtime-hooks.md, "Codex"), the workspace tracked.
   */
  private void installHooks(Path root) throws Exception {
    store.installHooks("codex", "--workspace", root.toString());
    JsonNode hooks =
        Json.mapper().readTree(root.resolve(".codex/hooks.json").toFile()).get("hooks");
    String command = HookTestStore.hookCommand("codex");
    for (String event : List.of("UserPromptSubmit", "PreToolUse", "Stop", "SessionEnd")) {
      assertEquals(
          command, hooks.get(event).get(0).get("hooks").get(0).get("command").asText(), event);
    }
    assertTrue(
        Files.readString(codexHome.resolve("config.toml")).contains("trusted_hash"),
        "install wrote Codex's trust entries");
    assertTrue(
        Files.readString(root.resolve(".codex/config.toml")).contains("[mcp_servers.turndiff]"),
        "install registered turndiff's MCP server in the project's config");
  }

  private static void assertDone(CommandRun run, String words) {
    assertEquals(0, run.exitCode(), "codex prompt " + words + ": " + run);
    assertTrue(run.out().contains("Done with prompt " + words + "."), run.out() + run.err());
  }
}
