package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.fixtures.Canary;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.fixtures.TreeContent;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11's end to end test: a real Gemini CLI (0.61.0, {@code integrations/gemini-e2e}) runs two
 * prompts of one session headless on scripted model answers, with turndiff's hooks in the
 * workspace's {@code .gemini/settings.json}, {@code bin/turndiff-hook} and the real per-user
 * service of a test store behind them. What lands in the store is held against what really happened
 * on disk: one turn per prompt; every changed file's before and after equal to the trees taken
 * before and after the prompt (bytes, modes, link texts), from the snapshot of the file tools or
 * the finish scan for the shell; a write through a link to an outside file recorded with metadata
 * only and the secret behind it never read; each turn's patch, applied to a copy of the tree before
 * it, gives the tree after it; and rewinding the turns, latest first, gives back each tree before,
 * byte for byte.
 */
class GeminiHooksIT {

  /** What prompt 2's shell command appends to the outside secret through the link. */
  private static final String APPENDED = "appended through the link\n";

  @TempDir Path temp;

  private HookTestStore store;
  private Path database;
  private Map<String, String> env;

  @BeforeEach
  void setUp() {
    store = HookTestStore.in(temp);
    database = store.database();
    env = store.env();
  }

  @AfterEach
  void tearDown() throws Exception {
    store.stopService();
  }

  @Test
  void twoPromptsOfOneGeminiSessionAreTwoTurnsThatReviewAndRewindByteForByte() throws Exception {
    long began = System.nanoTime();
    GeminiCli gemini = GeminiCli.installed(HookTestStore.repository(), temp.resolve("logs"));
    long installed = System.nanoTime();

    TestWorkspace workspace =
        TestWorkspace.in(temp.resolve("w"))
            .file("notes.txt", "alpha\nbeta\n")
            .file("src/app.txt", "v1\n")
            .file("old.txt", "old\n")
            .file("trash.txt", "bye\n");
    workspace
        .symlink("outside-link.txt", workspace.secret().toString())
        .symlink("outside-dir", workspace.outside().toString());
    Path root = workspace.root();
    Canary canary = workspace.canary();
    TurnEvidence evidence = new TurnEvidence(env, database, temp, canary);

    store.startService();
    installHooks(root);

    String session = UUID.randomUUID().toString();
    Map<String, String> beforeOne = TreeContent.of(root);
    Path copyOne = evidence.copyOf(root, "tree-before-1");
    long[] promptSeconds = new long[2];
    long at = System.nanoTime();
    prompt(gemini, root, 1, List.of("--session-id", session), Map.of());
    promptSeconds[0] = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - at);
    Map<String, String> afterOne = TreeContent.of(root);
    Path copyTwo = evidence.copyOf(root, "tree-before-2");
    at = System.nanoTime();
    prompt(gemini, root, 2, List.of("-r", session), Map.of());
    promptSeconds[1] = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - at);
    Map<String, String> afterTwo = TreeContent.of(root);

    // Gemini really did what the script asked (else the store would be checked against nothing):
    // the same changes as the Claude Code and Codex tests script
    TwoPromptScenario.assertTheRuntimeDidIt(workspace);
    // the one change outside: Gemini's own shell appended through the link; its refused file tools
    // (a replace through the link, a write_file through the directory link) changed nothing
    assertArrayEquals(
        concat(canary.bytes(), APPENDED.getBytes(StandardCharsets.UTF_8)),
        Files.readAllBytes(workspace.secret()));
    workspace.assertOutsideUnchangedExcept("secret.txt");

    // one turn per prompt, both finished
    List<String> turns = evidence.finishedTurns("gemini:" + session, 2);
    String turnOne = turns.get(0);
    String turnTwo = turns.get(1);

    // prompt 3: the model calls turndiff's MCP tools, the server Gemini started from the entry
    // install wrote; it plans a rewind of turn 1 and writes nothing
    at = System.nanoTime();
    prompt(gemini, root, 3, List.of("-r", session), Map.of("@TURN@", turnOne));
    long mcpPromptSeconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - at);
    assertEquals(afterTwo, TreeContent.of(root), "a rewind's plan writes nothing");
    String turnThree = evidence.finishedTurns("gemini:" + session, 3).get(2);
    assertTheMcpToolsAnsweredFromTheTestsStore(session, turnOne, turnTwo, turnThree);

    // every file's before and after, as the trees on disk had them; how each was found
    evidence.assertFirstPromptTurn(turnOne, beforeOne, afterOne);

    Map<String, JsonNode> recordsTwo = evidence.records(turnTwo);
    assertEquals(
        Set.of(
            "old.txt",
            "renamed.txt",
            "trash.txt",
            "outside-dir",
            "from-shell.txt",
            "outside-link.txt"),
        recordsTwo.keySet());
    Set<String> insideTwo = new TreeSet<>(recordsTwo.keySet());
    insideTwo.remove("outside-link.txt");
    assertEquals(TurnEvidence.changedEntries(afterOne, afterTwo), insideTwo);
    evidence.assertSecondPromptShellRecords(recordsTwo, afterOne, afterTwo);
    // the path through the link out, named by the patch in the shell command: metadata only
    evidence.assertEscaped(recordsTwo, "outside-link.txt", "snapshot", "escapes_workspace");
    evidence.assertDirectories(turnTwo, Map.of());

    // each turn's patch is the real change: applied to the tree before the turn it gives the tree
    // after it
    String patchOne = evidence.assertPatchApplies(turnOne, copyOne, afterOne);
    assertTrue(patchOne.contains("-beta\n+BETA\n"), patchOne);
    String patchTwo = evidence.assertPatchApplies(turnTwo, copyTwo, afterTwo);
    assertTrue(patchTwo.contains("new file mode 100755"), patchTwo);
    assertTrue(patchTwo.contains("# turndiff: outside-link.txt"), patchTwo);

    // rewinding each turn, latest first, gives back the tree before it (the link out is skipped)
    evidence.rewind(
        turnTwo,
        Set.of("old.txt", "renamed.txt", "trash.txt", "outside-dir", "from-shell.txt"),
        Set.of(),
        Set.of("outside-link.txt"));
    assertEquals(afterOne, TreeContent.of(root), "the tree before prompt 2, byte for byte");
    evidence.rewind(
        turnOne,
        Set.of("hello.txt", "sub/rel.txt", "notes.txt", "src/app.txt"),
        Set.of("sub"),
        Set.of());
    assertEquals(beforeOne, TreeContent.of(root), "the tree before prompt 1, byte for byte");

    // the outside: still only Gemini's own append (a rewind never writes there); the secret's
    // bytes in no store file, no blob, no log
    assertArrayEquals(
        concat(canary.bytes(), APPENDED.getBytes(StandardCharsets.UTF_8)),
        Files.readAllBytes(workspace.secret()));
    workspace.assertOutsideUnchangedExcept("secret.txt");
    evidence.assertSecretNowhere();

    System.out.printf(
        "GeminiHooksIT: install %d s, prompt 1 %d s, prompt 2 %d s, prompt 3 (MCP) %d s,"
            + " whole test %d s%n",
        TimeUnit.NANOSECONDS.toSeconds(installed - began),
        promptSeconds[0],
        promptSeconds[1],
        mcpPromptSeconds,
        TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - began));
  }

  // ---- the runtime

  /**
   * {@code turndiff hooks install --runtime gemini --workspace DIR}, as a user types it: turndiff's
   * hooks in {@code DIR/.gemini/settings.json} (docs/runtime-hooks.md, "Gemini CLI") and its MCP
   * server beside them ({@code mcpServers.turndiff}: {@code turndiff mcp --workspace DIR}), the
   * workspace tracked.
   */
  private void installHooks(Path root) throws Exception {
    CliProcess.run(env, "hooks", "install", "--runtime", "gemini", "--workspace", root.toString())
        .expect(0);
    JsonNode settings = Json.mapper().readTree(root.resolve(".gemini/settings.json").toFile());
    JsonNode hooks = settings.get("hooks");
    JsonNode server = settings.get("mcpServers").get("turndiff");
    assertTrue(server.get("command").asText().endsWith("/turndiff"), server.toString());
    assertEquals(
        List.of("mcp", "--workspace", root.toString()),
        server.get("args").valueStream().map(JsonNode::asText).toList());
    String command = HookTestStore.hookCommand("gemini");
    for (String event : List.of("BeforeAgent", "BeforeTool", "AfterAgent", "SessionEnd")) {
      assertEquals(
          command, hooks.get(event).get(0).get("hooks").get(0).get("command").asText(), event);
    }
    assertEquals(
        "^(write_file|replace|run_shell_command)$",
        hooks.get("BeforeTool").get(0).get("matcher").asText());
    CliProcess.run(env, "status", "--workspace", root.toString()).expect(0);
  }

  /**
   * Runs prompt {@code n} of {@code integrations/gemini-e2e/turns} in the workspace, with a clean
   * environment: the test's store and run directory, a temporary home, no model key.
   */
  private void prompt(
      GeminiCli gemini, Path root, int n, List<String> session, Map<String, String> placeholders)
      throws Exception {
    String script =
        Files.readString(
                HookTestStore.repository()
                    .resolve("integrations/gemini-e2e/turns/prompt-" + n + ".jsonl"))
            .replace("@WS@", root.toString());
    for (Map.Entry<String, String> placeholder : placeholders.entrySet()) {
      script = script.replace(placeholder.getKey(), placeholder.getValue());
    }
    Path answers = temp.resolve("prompt-" + n + ".jsonl");
    Files.writeString(answers, script);
    Map<String, String> geminiEnv = GeminiCli.environment(store.runtimeBase());
    String words = List.of("one", "two", "three").get(n - 1);
    CommandRun run =
        gemini.prompt(root, geminiEnv, "do prompt " + words, session, answers, "prompt-" + n);
    assertEquals(0, run.exitCode(), "gemini prompt " + n + ": " + run);
    assertTrue(run.out().contains("Done with prompt " + words + "."), run.out() + run.err());
  }

  /**
   * What prompt 3's MCP calls answered, as Gemini recorded the calls and their results in the
   * session's chat record ({@code $HOME/.gemini/tmp/<project>/chats/session-*}): with fake
   * responses no request goes out whose body could be read, and the record holds what Gemini sent
   * back to the model. {@code list_turns} found the session's turns in the test's store (the server
   * reached it through the environment Gemini handed it, and took the session whose turn was open);
   * {@code rewind} without a token answered turn 1's plan and its token.
   */
  private void assertTheMcpToolsAnsweredFromTheTestsStore(
      String session, String turnOne, String turnTwo, String turnThree) throws Exception {
    Map<String, String> results = GeminiChatRecord.toolResults(temp.resolve("home/.gemini/tmp"));
    String listed = results.getOrDefault("mcp_turndiff_list_turns", "");
    assertTrue(listed.contains("gemini:" + session), "list_turns answered: " + results);
    for (String turn : List.of(turnOne, turnTwo, turnThree)) {
      assertTrue(listed.contains(turn), turn + " in list_turns' answer: " + listed);
    }
    String planned = results.getOrDefault("mcp_turndiff_rewind", "");
    assertTrue(planned.contains("dry_run"), "rewind answered a plan: " + results);
    assertTrue(planned.contains("token"), "the plan's token: " + planned);
    assertTrue(planned.contains("notes.txt"), "turn 1's notes.txt in the plan: " + planned);
    assertTrue(planned.contains(turnOne), "the plan is turn 1's: " + planned);
  }

  private static byte[] concat(byte[] first, byte[] second) {
    ByteArrayOutputStream joined = new ByteArrayOutputStream();
    joined.writeBytes(first);
    joined.writeBytes(second);
    return joined.toByteArray();
  }
}
