package io.turndiff.cli;

import static io.turndiff.cli.ModelScript.Step.call;
import static io.turndiff.cli.ModelScript.Step.say;
import static io.turndiff.cli.ModelScript.ToolCall.freeform;
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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21's end to end test for Codex: the real Codex CLI (0.171.0, {@code
 * integrations/codex-e2e}) runs two prompts of one session headless ({@code codex exec}, then
 * {@code codex exec resume}) against a scripted Responses API on loopback, with turndiff's hooks in
 * the workspace's {@code .codex/hooks.json}, their trust entries in {@code $CODEX_HOME/config.toml}
 * (both written by {@code turndiff hooks install --runtime codex}), {@code bin/turndiff-hook} and
 * the real per-user service of a test store behind them. The model's tool calls are Codex's own
 * {@code apply_patch} and {@code exec_command} (the shell); what lands in the store is held against
 * what really happened on disk, as {@code GeminiHooksIT} does.
 */
class CodexHooksIT {

  /** What prompt 2's shell command appends to the outside secret through the link. */
  private static final String APPENDED = "appended through the link\n";

  @TempDir Path temp;

  private Path database;
  private Path codexHome;
  private Map<String, String> env;

  @BeforeEach
  void setUp() {
    database = temp.resolve("store/turndiff.db");
    codexHome = temp.resolve("codex-home");
    env = new HashMap<>();
    env.put("TURNDIFF_DB", database.toString());
    env.put("XDG_RUNTIME_DIR", temp.resolve("xdg-run").toString());
    env.put("HOME", temp.resolve("home").toString());
    env.put("CODEX_HOME", codexHome.toString());
  }

  @AfterEach
  void tearDown() throws Exception {
    CliProcess.run(env, "service", "stop", "--force", "--wait", "10");
  }

  @Test
  void twoPromptsOfOneCodexSessionAreTwoTurnsThatReviewAndRewindByteForByte() throws Exception {
    long began = System.nanoTime();
    CodexCli codex = CodexCli.installed(repository(), temp.resolve("logs"));
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

    ModelScript script =
        new ModelScript()
            .prompt(
                "do prompt one",
                call(
                    patch(
                        "*** Add File: hello.txt\n+hi\n*** Update File: notes.txt\n@@\n alpha\n"
                            + "-beta\n+BETA\n")),
                call(patch("*** Add File: sub/rel.txt\n+rel\n")),
                call(shell("sed -i 's/v1/v2/' app.txt", root.resolve("src"))),
                say("Done with prompt one."))
            .prompt(
                "do prompt two",
                call(shell("mv old.txt renamed.txt && rm trash.txt", root)),
                // through the directory link out: Codex writes there (no sandbox), the hook named
                // it
                call(patch("*** Add File: escape-dir/planted.txt\n+planted\n")),
                // a shell write through the file link out, named by the patch in the command
                call(
                    shell(
                        "cat >/dev/null <<'EOF'\n*** Begin Patch\n*** Update File:"
                            + " outside-link.txt\n@@\n+appended\n*** End Patch\nEOF\nprintf '"
                            + APPENDED.strip()
                            + "\\n' >> outside-link.txt",
                        root)),
                call(shell("ln -sfn src outside-dir", root)),
                call(shell("printf 'shell\\n' > from-shell.txt && chmod +x from-shell.txt", root)),
                say("Done with prompt two."));

    long[] promptSeconds = new long[2];
    String session;
    Map<String, String> beforeOne;
    Map<String, String> afterOne;
    Map<String, String> afterTwo;
    Path copyOne;
    Path copyTwo;
    try (ResponsesApiServer model = new ResponsesApiServer(script)) {
      CodexCli.configure(codexHome, model, List.of(root));
      CliProcess.run(env, "service", "start").expect(0);
      installHooks(root);
      Map<String, String> codexEnv = codexEnvironment();

      beforeOne = TreeContent.of(root);
      copyOne = evidence.copyOf(root, "tree-before-1");
      long at = System.nanoTime();
      CommandRun first = codex.first(root, codexEnv, "do prompt one", "prompt-one");
      assertDone(first, "one");
      session = CodexCli.session(first);
      promptSeconds[0] = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - at);
      afterOne = TreeContent.of(root);
      copyTwo = evidence.copyOf(root, "tree-before-2");
      at = System.nanoTime();
      assertDone(codex.resume(root, codexEnv, session, "do prompt two", "prompt-two"), "two");
      promptSeconds[1] = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - at);
      afterTwo = TreeContent.of(root);
    }

    // Codex really did what the script asked (else the store would be checked against nothing)
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
    // the changes outside, Codex's own: the file its patch added through the directory link, the
    // line its shell appended through the file link
    Path planted = elsewhere.resolve("planted.txt");
    assertEquals("planted\n", Files.readString(planted));
    assertEquals(canary.text() + APPENDED, Files.readString(workspace.secret()));
    workspace.assertOutsideUnchangedExcept("secret.txt");

    List<String> turns = evidence.finishedTurns("codex:" + session, 2);
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

    // a rewind never writes outside: Codex's own changes there stay
    assertEquals("planted\n", Files.readString(planted));
    assertEquals(canary.text() + APPENDED, Files.readString(workspace.secret()));
    workspace.assertOutsideUnchangedExcept("secret.txt");
    evidence.assertSecretNowhere();

    System.out.printf(
        "CodexHooksIT: install %d s, prompt 1 %d s, prompt 2 %d s, whole test %d s%n",
        TimeUnit.NANOSECONDS.toSeconds(installed - began),
        promptSeconds[0],
        promptSeconds[1],
        TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - began));
  }

  // ---- the runtime

  /** Codex's {@code apply_patch}, a free-form tool: the patch's body between its markers. */
  private static ModelScript.ToolCall patch(String body) {
    return freeform("apply_patch", "*** Begin Patch\n" + body + "*** End Patch\n");
  }

  /** Codex's shell tool, {@code exec_command}, in {@code workdir}. */
  private static ModelScript.ToolCall shell(String command, Path workdir) {
    return function("exec_command", "cmd", command, "workdir", workdir.toString());
  }

  private static Path repository() {
    // cli/target/turndiff.jar
    return CliProcess.jar().toAbsolutePath().getParent().getParent().getParent();
  }

  /**
   * {@code turndiff hooks install --runtime codex --workspace DIR}, as a user types it: turndiff's
   * hooks in {@code DIR/.codex/hooks.json} and their trust in {@code $CODEX_HOME/config.toml}
   * (docs/runtime-hooks.md, "Codex"), the workspace tracked.
   */
  private void installHooks(Path root) throws Exception {
    CliProcess.run(env, "hooks", "install", "--runtime", "codex", "--workspace", root.toString())
        .expect(0);
    JsonNode hooks =
        Json.mapper().readTree(root.resolve(".codex/hooks.json").toFile()).get("hooks");
    String command = "'" + repository().resolve("bin/turndiff-hook") + "' codex";
    for (String event : List.of("UserPromptSubmit", "PreToolUse", "Stop", "SessionEnd")) {
      assertEquals(
          command, hooks.get(event).get(0).get("hooks").get(0).get("command").asText(), event);
    }
    assertTrue(
        Files.readString(codexHome.resolve("config.toml")).contains("trusted_hash"),
        "install wrote Codex's trust entries");
  }

  private Map<String, String> codexEnvironment() throws Exception {
    Map<String, String> base = new HashMap<>(env);
    base.put("TURNDIFF_HOME", CliProcess.launcherHome(temp.resolve("turndiff-home")).toString());
    return CodexCli.environment(base, temp.resolve("codex-user-home"));
  }

  private static void assertDone(CommandRun run, String words) {
    assertEquals(0, run.exitCode(), "codex prompt " + words + ": " + run);
    assertTrue(run.out().contains("Done with prompt " + words + "."), run.out() + run.err());
  }
}
