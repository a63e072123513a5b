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
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.fixtures.TreeContent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The less plain setups of issue 21 with the real Codex CLI (0.171.0), one prompt each: an {@code
 * apply_patch} adding a file and a shell edit of an existing one, which must land in one turn that
 * rewinds byte for byte. Each names the item it shows; each went blind before its item's
 * fix (run against the old code: they failed) and runs by default since. The start in a
 * subdirectory of a non-git workspace is Codex's behaviour: there the test holds turndiff to saying
 * so.
 */
class CodexKnownGapsIT {

  @TempDir Path temp;

  private HookTestStore store;
  private Path database;
  private Map<String, String> env;

  @BeforeEach
  void setUp() {
    store = HookTestStore.in(temp);
    database = store.database();
    env = store.env();
    env.put("CODEX_HOME", temp.resolve("codex-home").toString());
  }

  @AfterEach
  void tearDown() throws Exception {
    store.stopService();
  }

  /**
   * Issue 21, item 1: the workspace is installed, and Codex started, through a symlinked parent
   * ({@code link/workspace}, {@code link -> w}); both spellings are trusted projects. turndiff
   * wrote the hooks' trust keys with the path as given, Codex looks them up by the real path and
   * skipped every hook, silently (failed before the fix of item 1: no "hook: UserPromptSubmit").
   */
  @Test
  void aWorkspaceReachedThroughASymlinkedParentIsCaptured() throws Exception {
    TestWorkspace workspace = workspace();
    Path spelled =
        Files.createSymbolicLink(temp.resolve("link"), workspace.base()).resolve("workspace");
    runOnePrompt(
        workspace,
        "--workspace",
        spelled,
        spelled,
        workspace.root(),
        List.of(spelled, workspace.root()));
  }

  /**
   * Issue 21, item 1: {@code CODEX_HOME} is a symlink ({@code codex-home -> codex-real}) and the
   * hooks are a user install ({@code $CODEX_HOME/hooks.json}): the trust keys named the hooks file
   * through the link, Codex through its real path (failed before the fix of item 1).
   */
  @Test
  void aUserInstallWithCodexHomeASymlinkIsCaptured() throws Exception {
    Path real = Files.createDirectories(temp.resolve("codex-real"));
    Files.createSymbolicLink(Path.of(env.get("CODEX_HOME")), real);
    TestWorkspace workspace = workspace();
    Path root = workspace.root();
    runOnePrompt(workspace, "--user", null, root, root, List.of(root));
  }

  /**
   * Issue 21, item 2: the hooks and Codex use the workspace's real path, the model names files
   * through the workspace's symlinked name ({@code link/workspace/hello.txt}): before the fix the
   * turn gained an {@code outside_workspace} record of that spelling beside the scan's {@code
   * hello.txt}.
   */
  @Test
  void aToolPathSpelledThroughTheWorkspacesSymlinkedNameIsInTheWorkspace() throws Exception {
    TestWorkspace workspace = workspace();
    Path spelled =
        Files.createSymbolicLink(temp.resolve("link"), workspace.base()).resolve("workspace");
    Path root = workspace.root();
    runOnePrompt(workspace, "--workspace", root, root, spelled, List.of(root));
  }

  /**
   * Issue 21, item 4: a workspace that is not a git repository, its hooks installed at its root,
   * Codex started in its subdirectory {@code src} (both trusted projects): Codex reads project
   * config from the directory it starts in up to its project root, the git top level, else that
   * directory alone, so it loads no hook at all. That is Codex's to change; turndiff's part is to
   * say so: {@code hooks status} run in {@code src} says Codex does not run the workspace's hooks
   * there (and offers the user's install, which {@link
   * #aUserInstallWithCodexHomeASymlinkIsCaptured} shows capturing), and Codex bears it out: it runs
   * no hook, no turn is recorded.
   */
  @Test
  void aRuntimeStartedInASubdirectoryOfANonGitWorkspaceIsToldOf() throws Exception {
    TestWorkspace workspace = workspace();
    Path root = workspace.root();
    Path src = root.resolve("src");
    CodexCli codex = CodexCli.installed(HookTestStore.repository(), temp.resolve("logs"));
    try (ResponsesApiServer model = new ResponsesApiServer(script(root))) {
      CodexCli.configure(Path.of(env.get("CODEX_HOME")), model, List.of(root, src));
      CliProcess.run(env, "hooks", "install", "--runtime", "codex", "--workspace", root.toString())
          .expect(0);
      ProcessBuilder status = CliProcess.builder(env, "hooks", "status", "--json");
      status.directory(src.toFile());
      CommandRun told = CommandRun.ofProcess(status);
      assertEquals(0, told.exitCode(), told.err());
      JsonNode loadings = Json.mapper().readTree(told.out()).get("here").get("loadings");
      assertEquals(1, loadings.size(), told.out());
      assertEquals("codex", loadings.get(0).get("runtime").asText());
      assertEquals(root.toString(), loadings.get(0).get("workspace").asText());
      assertFalse(loadings.get(0).get("loads").asBoolean(), told.out());
      assertTrue(
          loadings.get(0).get("instead").asText().endsWith("--runtime codex --user"), told.out());

      CommandRun run = promptOne(codex, src);
      assertFalse(run.err().contains("hook: "), "Codex ran no hook, as status said: " + run.err());
    }
    assertEquals(0L, StoreRows.count(database).get("turn"));
  }

  // ---- one prompt

  private TestWorkspace workspace() throws Exception {
    TestWorkspace workspace =
        TestWorkspace.in(temp.resolve("w")).file("src/app.txt", "v1\n").file("notes.txt", "n\n");
    store.startService();
    return workspace;
  }

  /**
   * Configures Codex (the scripted model, {@code trusted} projects), installs the hooks ({@code
   * scope} {@code --workspace installed} or {@code --user}), runs one prompt started in {@code
   * start} whose tools name files under {@code toolRoot}, and checks the turn.
   */
  private void runOnePrompt(
      TestWorkspace workspace,
      String scope,
      Path installed,
      Path start,
      Path toolRoot,
      List<Path> trusted)
      throws Exception {
    Path root = workspace.root();
    CodexCli codex = CodexCli.installed(HookTestStore.repository(), temp.resolve("logs"));
    String session;
    Map<String, String> before;
    try (ResponsesApiServer model = new ResponsesApiServer(script(toolRoot))) {
      CodexCli.configure(Path.of(env.get("CODEX_HOME")), model, trusted);
      List<String> install =
          installed == null
              ? List.of("hooks", "install", "--runtime", "codex", scope)
              : List.of("hooks", "install", "--runtime", "codex", scope, installed.toString());
      CliProcess.run(env, install.toArray(String[]::new)).expect(0);
      before = TreeContent.of(root);
      CommandRun run = promptOne(codex, start);
      // Codex prints each hook it runs ("hook: UserPromptSubmit"); where the gap is its skipping
      // turndiff's hooks, this is where the test fails
      assertTrue(
          run.err().contains("hook: UserPromptSubmit") && run.err().contains("hook: Stop"),
          "Codex ran turndiff's hooks: " + run.err());
      session = CodexCli.session(run);
    }
    Map<String, String> after = TreeContent.of(root);
    new TurnEvidence(env, database, temp, workspace.canary())
        .assertOneTurnRewoundExactly(
            "codex:" + session,
            root,
            before,
            after,
            Map.of("hello.txt", "snapshot", "src/app.txt", "scan"));
  }

  /** Runs the first prompt with Codex started in {@code start} (and {@code PWD} so spelled). */
  private CommandRun promptOne(CodexCli codex, Path start) throws Exception {
    Map<String, String> base = store.runtimeBase();
    base.put("PWD", start.toString());
    CommandRun run =
        codex.first(
            start,
            CodexCli.environment(base, temp.resolve("codex-user-home")),
            "do prompt one",
            "prompt");
    assertEquals(0, run.exitCode(), "codex: " + run);
    assertTrue(run.out().contains("Done with prompt one."), run.out() + run.err());
    return run;
  }

  /** An {@code apply_patch} adding {@code hello.txt} under {@code toolRoot}, a shell edit. */
  private static ModelScript script(Path toolRoot) {
    return new ModelScript()
        .prompt(
            "do prompt one",
            call(
                freeform(
                    "apply_patch",
                    "*** Begin Patch\n*** Add File: "
                        + toolRoot
                        + "/hello.txt\n+hi\n*** End Patch\n")),
            call(
                function(
                    "exec_command",
                    "cmd",
                    "sed -i 's/v1/v2/' app.txt",
                    "workdir",
                    toolRoot.resolve("src").toString())),
            say("Done with prompt one."));
  }
}
