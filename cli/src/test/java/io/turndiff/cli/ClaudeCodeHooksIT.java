package io.turndiff.cli;

import static io.turndiff.cli.ModelScript.Step.call;
import static io.turndiff.cli.ModelScript.Step.say;
import static io.turndiff.cli.ModelScript.ToolCall.function;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.fixtures.Canary;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.fixtures.TreeContent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
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
 * Issue 21's end to end test for Claude Code: the real Claude Code (2.1.332, {@code
 * integrations/claude-code-e2e}) runs two prompts of one session headless ({@code claude -p}, then
 * {@code claude -p --resume}) against a scripted Anthropic Messages API on loopback, with
 * turndiff's hooks in the workspace's {@code .claude/settings.local.json}, {@code
 * bin/turndiff-hook} and the real per-user service of a test store behind them. The model's tool
 * calls are Claude's own {@code Write}, {@code Edit} and {@code Bash}; what lands in the store is
 * held against what really happened on disk, as {@code GeminiHooksIT} does: one turn per prompt,
 * every changed file's before and after equal to the trees taken before and after the prompt, each
 * turn's patch applied with {@code git apply}, the rewinds byte for byte newest first, and the
 * secret behind the links out nowhere.
 */
class ClaudeCodeHooksIT {

  @TempDir Path temp;

  private Path database;
  private Map<String, String> env;

  @BeforeEach
  void setUp() {
    database = temp.resolve("store/turndiff.db");
    env = new HashMap<>();
    env.put("TURNDIFF_DB", database.toString());
    env.put("XDG_RUNTIME_DIR", temp.resolve("xdg-run").toString());
    env.put("HOME", temp.resolve("home").toString());
  }

  @AfterEach
  void tearDown() throws Exception {
    CliProcess.run(env, "service", "stop", "--force", "--wait", "10");
  }

  @Test
  void twoPromptsOfOneClaudeCodeSessionAreTwoTurnsThatReviewAndRewindByteForByte()
      throws Exception {
    long began = System.nanoTime();
    ClaudeCode claude = ClaudeCode.installed(repository(), temp.resolve("logs"));
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
    // a second directory out, never relinked, for the write through a directory link
    Path elsewhere = Files.createDirectories(workspace.base().resolve("elsewhere"));
    workspace.symlink("escape-dir", elsewhere.toString());
    Path root = workspace.root();
    Canary canary = workspace.canary();
    TurnEvidence evidence = new TurnEvidence(env, database, temp, canary);

    CliProcess.run(env, "service", "start").expect(0);
    installHooks(root);

    String ws = root.toString();
    ModelScript script =
        new ModelScript()
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
                // through the directory link out: Claude refuses it after PreToolUse named it
                call(
                    function(
                        "Write", "file_path", ws + "/escape-dir/planted.txt", "content", "x\n")),
                // a shell write through the file link out, the path named by the patch in the
                // command: Claude refuses it too, after PreToolUse
                call(
                    bash(
                        "cat >/dev/null <<'EOF'\n*** Begin Patch\n*** Update File:"
                            + " outside-link.txt\n@@\n+appended\n*** End Patch\nEOF\n"
                            + "printf 'appended through the link\\n' >> outside-link.txt")),
                call(bash("ln -sfn src outside-dir")),
                call(bash("printf 'shell\\n' > from-shell.txt && chmod +x from-shell.txt")),
                say("Done with prompt two."));

    String session = UUID.randomUUID().toString();
    long[] promptSeconds = new long[2];
    Map<String, String> beforeOne;
    Map<String, String> afterOne;
    Map<String, String> afterTwo;
    Path copyOne;
    Path copyTwo;
    try (AnthropicMessagesServer model = new AnthropicMessagesServer(script)) {
      Map<String, String> claudeEnv = claudeEnvironment(model);
      beforeOne = TreeContent.of(root);
      copyOne = evidence.copyOf(root, "tree-before-1");
      long at = System.nanoTime();
      prompt(claude, root, claudeEnv, "one", List.of("--session-id", session));
      promptSeconds[0] = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - at);
      afterOne = TreeContent.of(root);
      copyTwo = evidence.copyOf(root, "tree-before-2");
      at = System.nanoTime();
      prompt(claude, root, claudeEnv, "two", List.of("--resume", session));
      promptSeconds[1] = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - at);
      afterTwo = TreeContent.of(root);
    }

    // Claude really did what the script asked (else the store would be checked against nothing)
    assertEquals("hi\n", workspace.readText("hello.txt"));
    assertEquals("rel\n", workspace.readText("sub/rel.txt"));
    assertEquals("alpha\nBETA\n", workspace.readText("notes.txt"));
    assertEquals("v2\n", workspace.readText("src/app.txt"));
    assertEquals("old\n", workspace.readText("renamed.txt"));
    assertFalse(Files.exists(workspace.resolve("old.txt")));
    assertFalse(Files.exists(workspace.resolve("trash.txt")));
    assertEquals("shell\n", workspace.readText("from-shell.txt"));
    assertTrue(Files.isExecutable(workspace.resolve("from-shell.txt")));
    assertEquals(Path.of("src"), Files.readSymbolicLink(workspace.resolve("outside-dir")));
    assertEquals(workspace.secret(), Files.readSymbolicLink(workspace.resolve("outside-link.txt")));
    // nothing changed outside: Claude refused its Write through the directory link and its shell
    // redirection through the file link ("resolves through a symlink to ..., which is outside the
    // allowed working directories"), both after the PreToolUse hook had named the path
    workspace.assertOutsideUnchanged();

    List<String> turns = evidence.finishedTurns("claude-code:" + session, 2);
    String turnOne = turns.get(0);
    String turnTwo = turns.get(1);

    Map<String, JsonNode> recordsOne = evidence.records(turnOne);
    assertEquals(
        Set.of("hello.txt", "sub/rel.txt", "notes.txt", "src/app.txt"), recordsOne.keySet());
    assertEquals(TurnEvidence.changedEntries(beforeOne, afterOne), recordsOne.keySet());
    evidence.assertRecord(recordsOne, "hello.txt", "added", "snapshot", beforeOne, afterOne);
    evidence.assertRecord(recordsOne, "sub/rel.txt", "added", "snapshot", beforeOne, afterOne);
    evidence.assertRecord(recordsOne, "notes.txt", "modified", "snapshot", beforeOne, afterOne);
    evidence.assertRecord(recordsOne, "src/app.txt", "modified", "scan", beforeOne, afterOne);
    evidence.assertDirectories(turnOne, Map.of("sub", "created"));

    Map<String, JsonNode> recordsTwo = evidence.records(turnTwo);
    Set<String> escaped = Set.of("escape-dir/planted.txt", "outside-link.txt");
    Set<String> insideTwo = new TreeSet<>(recordsTwo.keySet());
    insideTwo.removeAll(escaped);
    assertEquals(
        Set.of("old.txt", "renamed.txt", "trash.txt", "outside-dir", "from-shell.txt"),
        insideTwo,
        recordsTwo.keySet().toString());
    assertEquals(TurnEvidence.changedEntries(afterOne, afterTwo), insideTwo);
    evidence.assertRecord(recordsTwo, "old.txt", "deleted", "scan", afterOne, afterTwo);
    evidence.assertRecord(recordsTwo, "trash.txt", "deleted", "scan", afterOne, afterTwo);
    evidence.assertRecord(recordsTwo, "renamed.txt", "added", "scan", afterOne, afterTwo);
    evidence.assertRecord(recordsTwo, "from-shell.txt", "added", "scan", afterOne, afterTwo);
    evidence.assertRecord(recordsTwo, "outside-dir", "modified", "scan", afterOne, afterTwo);
    evidence.assertEscaped(recordsTwo, "outside-link.txt", "snapshot", "escapes_workspace");
    // after the turn, the path through the directory link out is "unreadable: a parent directory
    // of the path is a symlink now" (WorkspaceBoundary.observeExact), though the link was there,
    // unchanged, before: the before says escapes_workspace; nothing is read on either side
    evidence.assertEscaped(recordsTwo, "escape-dir/planted.txt", "snapshot", "unreadable");
    evidence.assertDirectories(turnTwo, Map.of());

    String patchOne = evidence.patch(turnOne);
    assertTrue(patchOne.contains("-beta\n+BETA\n"), patchOne);
    assertEquals(afterOne, evidence.applied(patchOne, copyOne));
    String patchTwo = evidence.patch(turnTwo);
    assertTrue(patchTwo.contains("new file mode 100755"), patchTwo);
    assertEquals(afterTwo, evidence.applied(patchTwo, copyTwo));

    evidence.rewind(turnTwo, insideTwo, Set.of(), escaped);
    assertEquals(afterOne, TreeContent.of(root), "the tree before prompt 2, byte for byte");
    evidence.rewind(
        turnOne,
        Set.of("hello.txt", "sub/rel.txt", "notes.txt", "src/app.txt"),
        Set.of("sub"),
        Set.of());
    assertEquals(beforeOne, TreeContent.of(root), "the tree before prompt 1, byte for byte");

    workspace.assertOutsideUnchanged();
    evidence.assertSecretNowhere();

    System.out.printf(
        "ClaudeCodeHooksIT: install %d s, prompt 1 %d s, prompt 2 %d s, whole test %d s%n",
        TimeUnit.NANOSECONDS.toSeconds(installed - began),
        promptSeconds[0],
        promptSeconds[1],
        TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - began));
  }

  // ---- the runtime

  private static ModelScript.ToolCall bash(String command) {
    return function("Bash", "command", command, "description", "scripted shell step");
  }

  private static Path repository() {
    // cli/target/turndiff.jar
    return CliProcess.jar().toAbsolutePath().getParent().getParent().getParent();
  }

  /**
   * {@code turndiff hooks install --runtime claude-code --workspace DIR}, as a user types it:
   * turndiff's hooks in {@code DIR/.claude/settings.local.json} (docs/runtime-hooks.md, "Claude
   * Code"), the workspace tracked.
   */
  private void installHooks(Path root) throws Exception {
    CliProcess.run(
            env, "hooks", "install", "--runtime", "claude-code", "--workspace", root.toString())
        .expect(0);
    JsonNode hooks =
        Json.mapper().readTree(root.resolve(".claude/settings.local.json").toFile()).get("hooks");
    String command = "'" + repository().resolve("bin/turndiff-hook") + "' claude-code";
    for (String event : List.of("UserPromptSubmit", "PreToolUse", "Stop", "SessionEnd")) {
      assertEquals(
          command, hooks.get(event).get(0).get("hooks").get(0).get("command").asText(), event);
    }
  }

  private Map<String, String> claudeEnvironment(ScriptedModelServer model) throws Exception {
    Map<String, String> base = new HashMap<>(env);
    base.put("TURNDIFF_HOME", CliProcess.launcherHome(temp.resolve("turndiff-home")).toString());
    return ClaudeCode.environment(base, model, temp.resolve("claude-home"));
  }

  private static void prompt(
      ClaudeCode claude,
      Path directory,
      Map<String, String> environment,
      String words,
      List<String> session)
      throws Exception {
    CommandRun run =
        claude.prompt(directory, environment, "do prompt " + words, session, "prompt-" + words);
    assertEquals(0, run.exitCode(), "claude prompt " + words + ": " + run);
    assertTrue(run.out().contains("Done with prompt " + words + "."), run.out() + run.err());
  }
}
