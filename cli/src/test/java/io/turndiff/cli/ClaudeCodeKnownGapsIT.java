package io.turndiff.cli;

import static io.turndiff.cli.ModelScript.Step.call;
import static io.turndiff.cli.ModelScript.Step.say;
import static io.turndiff.cli.ModelScript.ToolCall.function;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.fixtures.TreeContent;
import io.turndiff.hooks.install.RuntimeSessionFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The less plain setups of issue 21 with the real Claude Code (2.1.332), one prompt each: a {@code
 * Write} of a new file and a shell edit of an existing one, which must land in one turn that
 * rewinds byte for byte. Each names the item it shows. The symlinked parent held with
 * Claude Code from the start; the link spelling of a tool's path failed before item 2's fix; the
 * start in a subdirectory of a non-git workspace is Claude's behaviour, and there the test holds
 * turndiff to saying so (it failed before item 4's fix: status said nothing), and, once Claude ran
 * there with no hook, to flagging its session file (item 0). All run by default.
 */
class ClaudeCodeKnownGapsIT {

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

  /**
   * Issue 21, items 1 and 2: the workspace is installed, and Claude started, through a symlinked
   * parent ({@code link/workspace}, {@code link -> w}, {@code PWD} so spelled), as a user whose
   * home or projects folder is a link types it; the model's tools name the real path. Passes today:
   * Claude loads the hooks, and the service finds the tracked workspace from the hooks' {@code
   * cwd}.
   */
  @Test
  void aWorkspaceReachedThroughASymlinkedParentIsCaptured() throws Exception {
    TestWorkspace workspace = workspace();
    Path link = Files.createSymbolicLink(temp.resolve("link"), workspace.base());
    Path spelled = link.resolve("workspace");
    runOnePrompt(workspace, spelled, workspace.root());
  }

  /**
   * Issue 21, item 2: the hooks and Claude use the workspace's real path, the model names a file
   * through the workspace's symlinked name ({@code link/workspace/hello.txt}). Before the fix the
   * turn gained an {@code outside_workspace} record of that spelling, and the scan's {@code
   * hello.txt} had no before-state of the tool's.
   */
  @Test
  void aToolPathSpelledThroughTheWorkspacesSymlinkedNameIsInTheWorkspace() throws Exception {
    TestWorkspace workspace = workspace();
    Path link = Files.createSymbolicLink(temp.resolve("link"), workspace.base());
    runOnePrompt(workspace, workspace.root(), link.resolve("workspace"));
  }

  /**
   * Issue 21, item 4: a workspace that is not a git repository, its hooks installed at its root,
   * Claude started in its subdirectory {@code src}: Claude looks for project settings in the
   * directory it starts in only (its project root is the git top level, else that directory), so it
   * loads no hook at all. That is the runtime's to change; turndiff's part is to say so, and what
   * works instead. So: {@code hooks status} run in {@code src} says Claude Code does not run the
   * workspace's hooks there, and Claude bears it out (no hook call, no turn, where before nothing
   * said so); the user's install that status offers instead captures the next prompt started there
   * in the workspace, rewound byte for byte.
   */
  @Test
  void aRuntimeStartedInASubdirectoryOfANonGitWorkspaceIsToldOfAndTheUsersInstallCapturesIt()
      throws Exception {
    TestWorkspace workspace = workspace();
    Path root = workspace.root();
    Path src = root.resolve("src");
    installHooks(root);
    JsonNode loading = loadingHere(src, root);
    assertFalse(loading.get("loads").asBoolean(), loading.toString());
    assertTrue(
        loading.get("instead").asText().endsWith("hooks install --runtime claude-code --user"),
        loading.toString());
    ClaudeCode claude = ClaudeCode.installed(HookTestStore.repository(), temp.resolve("logs"));
    Map<String, String> before = TreeContent.of(root);
    try (AnthropicMessagesServer model = new AnthropicMessagesServer(script(root))) {
      prompt(claude, src, environment(model, src), UUID.randomUUID().toString());
    }
    assertEquals(0L, StoreRows.count(database).get("turn"), "Claude ran no hook, as status said");
    // and status run there now has the evidence: Claude's session file for src, written with no
    // hook arriving (item 0)
    Map<String, String> claudesHome = new HashMap<>(env);
    claudesHome.put("HOME", temp.resolve("claude-home").toString());
    ProcessBuilder seen = CliProcess.builder(claudesHome, "hooks", "status", "--json");
    seen.directory(src.toFile());
    JsonNode evidence =
        Json.mapper().readTree(CommandRun.ofProcess(seen).out()).get("session_files");
    assertEquals(1, evidence.size(), evidence.toString());
    assertTrue(
        evidence
            .get(0)
            .get("file")
            .asText()
            .contains(
                "/.claude/projects/" + RuntimeSessionFiles.claudeFolderName(src.toString()) + "/"),
        evidence.toString());
    assertTrue(
        evidence
            .get(0)
            .get("warning")
            .asText()
            .startsWith("hooks may not be firing for claude-code since "),
        evidence.toString());
    // the prompt's changes, put back by hand (a tracked workspace's changes outside any turn)
    Files.delete(root.resolve("hello.txt"));
    Files.writeString(root.resolve("src/app.txt"), "v1\n");
    assertEquals(before, TreeContent.of(root));

    // what status offers: the user's install (Claude's user settings are in its HOME)
    Map<String, String> userEnv = new HashMap<>(env);
    userEnv.put("HOME", temp.resolve("claude-home").toString());
    CliProcess.run(userEnv, "hooks", "install", "--runtime", "claude-code", "--user").expect(0);
    String session = UUID.randomUUID().toString();
    try (AnthropicMessagesServer model = new AnthropicMessagesServer(script(root))) {
      prompt(claude, src, environment(model, src), session);
    }
    Map<String, String> after = TreeContent.of(root);
    new TurnEvidence(env, database, temp, workspace.canary())
        .assertOneTurnRewoundExactly(
            "claude-code:" + session,
            root,
            before,
            after,
            Map.of("hello.txt", "snapshot", "src/app.txt", "scan"));
  }

  /**
   * What {@code hooks status --json}, run in {@code directory}, says of the hooks installed in
   * {@code workspace} for a Claude Code started there.
   */
  private JsonNode loadingHere(Path directory, Path workspace) throws Exception {
    ProcessBuilder builder = CliProcess.builder(env, "hooks", "status", "--json");
    builder.directory(directory.toFile());
    CommandRun status = CommandRun.ofProcess(builder);
    assertEquals(0, status.exitCode(), status.err());
    for (JsonNode loading : Json.mapper().readTree(status.out()).get("here").get("loadings")) {
      if (loading.get("runtime").asText().equals("claude-code")
          && workspace.toString().equals(loading.path("workspace").asText())) {
        return loading;
      }
    }
    throw new AssertionError("status says nothing of " + workspace + ": " + status.out());
  }

  // ---- one prompt

  private TestWorkspace workspace() throws Exception {
    TestWorkspace workspace =
        TestWorkspace.in(temp.resolve("w")).file("src/app.txt", "v1\n").file("notes.txt", "n\n");
    store.startService();
    return workspace;
  }

  /**
   * Installs the hooks at {@code spelled} (the workspace's root as the user names it), runs one
   * prompt started there whose tools name files under {@code toolRoot}, and checks the turn.
   */
  private void runOnePrompt(TestWorkspace workspace, Path spelled, Path toolRoot) throws Exception {
    Path root = workspace.root();
    installHooks(spelled);
    ClaudeCode claude = ClaudeCode.installed(HookTestStore.repository(), temp.resolve("logs"));
    String session = UUID.randomUUID().toString();
    Map<String, String> before = TreeContent.of(root);
    try (AnthropicMessagesServer model = new AnthropicMessagesServer(script(toolRoot))) {
      prompt(claude, spelled, environment(model, spelled), session);
    }
    Map<String, String> after = TreeContent.of(root);
    new TurnEvidence(env, database, temp, workspace.canary())
        .assertOneTurnRewoundExactly(
            "claude-code:" + session,
            root,
            before,
            after,
            Map.of("hello.txt", "snapshot", "src/app.txt", "scan"));
  }

  /** A {@code Write} of {@code hello.txt} under {@code toolRoot}, a shell edit of src/app.txt. */
  private static ModelScript script(Path toolRoot) {
    return new ModelScript()
        .prompt(
            "do prompt one",
            call(function("Write", "file_path", toolRoot + "/hello.txt", "content", "hi\n")),
            call(
                function(
                    "Bash",
                    "command",
                    "sed -i 's/v1/v2/' " + toolRoot + "/src/app.txt",
                    "description",
                    "scripted shell step")),
            say("Done with prompt one."));
  }

  private void installHooks(Path spelled) throws Exception {
    store.installHooks("claude-code", "--workspace", spelled.toString());
  }

  /** Claude's environment, with {@code PWD} the directory as spelled (a shell's {@code cd}). */
  private Map<String, String> environment(ScriptedModelServer model, Path directory)
      throws Exception {
    Map<String, String> base = store.runtimeBase();
    base.put("PWD", directory.toString());
    return ClaudeCode.environment(base, model, temp.resolve("claude-home"));
  }

  private static void prompt(
      ClaudeCode claude, Path directory, Map<String, String> environment, String session)
      throws Exception {
    CommandRun run =
        claude.prompt(
            directory, environment, "do prompt one", List.of("--session-id", session), "prompt");
    assertEquals(0, run.exitCode(), "claude: " + run);
    assertTrue(run.out().contains("Done with prompt one."), run.out() + run.err());
  }
}
