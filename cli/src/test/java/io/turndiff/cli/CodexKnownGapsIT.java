package io.turndiff.cli;

import static io.turndiff.cli.ModelScript.Step.call;
import static io.turndiff.cli.ModelScript.Step.say;
import static io.turndiff.cli.ModelScript.ToolCall.freeform;
import static io.turndiff.cli.ModelScript.ToolCall.function;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.fixtures.TreeContent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The less plain setups of issue 21 with the real Codex CLI (0.171.0), one prompt each: an {@code
 * apply_patch} adding a file and a shell edit of an existing one, which must land in one turn that
 * rewinds byte for byte. Each names the item it shows. Each went blind before its item's
 * fix and runs by default since; one that still goes blind is tagged {@code known-gap-i21}, which
 * the default Failsafe run of {@code cli/pom.xml} leaves out (run it with {@code
 * -Dit.test=CodexKnownGapsIT -Dturndiff.it.excludedGroups=none}).
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
   * directory alone, so it loads no hook at all.
   */
  @Tag("known-gap-i21")
  @Test
  void aRuntimeStartedInASubdirectoryOfANonGitWorkspaceIsCaptured() throws Exception {
    TestWorkspace workspace = workspace();
    Path root = workspace.root();
    runOnePrompt(
        workspace,
        "--workspace",
        root,
        root.resolve("src"),
        root,
        List.of(root, root.resolve("src")));
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
