package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.turndiff.api.Json;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.hooks.install.CodexTrust;
import io.turndiff.store.Store;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * {@code turndiff hooks install|uninstall|status} as real processes on real settings files that
 * already hold other hooks and settings (in {@code hooks/}: the settings the fixtures of
 * integrations/fixtures were recorded with — Gemini CLI 0.61.0's {@code settings.json} and Codex
 * 0.171.0's {@code hooks.json} and {@code config.toml}, whose one trust entry Codex itself granted
 * — and Claude Code's documented {@code http} hooks example with settings around it, indented with
 * four spaces and without a final newline, as turndiff would not write it): install keeps every
 * other setting and hook, installing twice is installing once, uninstall gives back the bytes that
 * were there (or no file), bad input exits 2 and writes nothing.
 */
// its tests run at once (cli/pom.xml, Failsafe): each test has its own HOME, XDG folders,
// CODEX_HOME and store in its own temp dir
@Execution(ExecutionMode.CONCURRENT)
class HooksInstallProcessIT {

  /**
   * What Codex passes on to turndiff's MCP server, beside the few variables it passes to every
   * server: those that say where the store is and whose it is, and the launcher's JDK.
   */
  private static final String CODEX_PASSED_VARIABLES =
      "[\"TURNDIFF_DB\", \"TURNDIFF_DB_PASSWORD_FILE\", \"XDG_DATA_HOME\", \"PGUSER\","
          + " \"PGPASSWORD\", \"TURNDIFF_HOST_ID\", \"TURNDIFF_BUSY_TIMEOUT_MS\","
          + " \"TURNDIFF_PORTABILITY\", \"JAVA_HOME\"]";

  @TempDir Path temp;

  private Path home;
  private Path state;
  private Path codexHome;
  private Path workspace;
  private UserSandbox sandbox;
  private Map<String, String> env;

  @BeforeEach
  void setUp() throws IOException {
    sandbox = UserSandbox.in(temp);
    home = sandbox.home();
    state = sandbox.state();
    codexHome = sandbox.codexHome();
    workspace = Files.createDirectories(temp.resolve("ws"));
    Files.createDirectories(sandbox.data());
    Files.writeString(workspace.resolve("main.py"), "print('hi')\n");
    env = sandbox.environment();
    env.put("TURNDIFF_DB", sandbox.data().resolve("turndiff.db").toString());
  }

  private static Path checkout() {
    return UserSandbox.checkout();
  }

  private String command(String runtime) {
    return HookTestStore.hookCommand(runtime);
  }

  private CommandRun turndiff(String... args) throws Exception {
    return turndiffIn(null, args);
  }

  /** The command run in {@code directory} (null: the jar's). */
  private CommandRun turndiffIn(Path directory, String... args) throws Exception {
    return sandbox.run(directory, args);
  }

  private static byte[] resource(String name) throws IOException {
    try (InputStream in = HooksInstallProcessIT.class.getResourceAsStream("hooks/" + name)) {
      return in.readAllBytes();
    }
  }

  private static JsonNode json(Path file) throws IOException {
    return Json.mapper().readTree(Files.readAllBytes(file));
  }

  private List<Path> backups() throws IOException {
    Path root = state.resolve("turndiff/hooks-backups");
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile).toList();
    }
  }

  /** Install, install again (no change, no new backup), uninstall: the original bytes. */
  private void roundTrip(String runtime, Path file, byte[] original, String... extra)
      throws Exception {
    List<String> args = new ArrayList<>(List.of("hooks", "install", "--runtime", runtime));
    args.addAll(List.of(extra));
    List<Path> backupsBefore = backups();
    CommandRun first = turndiff(args.toArray(String[]::new));
    assertEquals(0, first.exitCode(), first.err());
    byte[] installed = Files.readAllBytes(file);
    assertFalse(Arrays.equals(original, installed), "install changed " + file);
    List<Path> backupsAfterFirst = backups();
    List<Path> made =
        backupsAfterFirst.stream().filter(backup -> !backupsBefore.contains(backup)).toList();
    if (original == null) {
      assertEquals(List.of(), made, "no backup of a file that was not there");
    } else {
      assertEquals(1, made.size(), made.toString());
      assertEquals(file.getFileName(), made.getFirst().getFileName());
      assertArrayEquals(original, Files.readAllBytes(made.getFirst()));
      assertEquals(
          "rw-------",
          PosixFilePermissions.toString(Files.getPosixFilePermissions(made.getFirst())));
    }

    CommandRun second = turndiff(args.toArray(String[]::new));
    assertEquals(0, second.exitCode(), second.err());
    assertTrue(second.out().contains("already installed"), second.out());
    assertArrayEquals(installed, Files.readAllBytes(file), "installing twice is installing once");
    assertEquals(backupsAfterFirst, backups(), "no new backup");

    List<String> uninstall = new ArrayList<>(List.of("hooks", "uninstall", "--runtime", runtime));
    Stream.of(extra)
        .filter(arg -> !arg.equals("--no-track") && !arg.equals("--git-root"))
        .forEach(uninstall::add);
    CommandRun removed = turndiff(uninstall.toArray(String[]::new));
    assertEquals(0, removed.exitCode(), removed.err());
    if (original == null) {
      assertFalse(Files.exists(file), file + " is gone, as before install");
    } else {
      assertArrayEquals(original, Files.readAllBytes(file), "byte-identical after uninstall");
    }
  }

  @Test
  void geminiRoundTripOnRecordedSettingsWithOtherHooks() throws Exception {
    Path file = workspace.resolve(".gemini/settings.json");
    Files.createDirectories(file.getParent());
    byte[] original = resource("gemini-settings.json");
    Files.write(file, original);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));

    CommandRun install = sandbox.installWorkspaceHooks("gemini", workspace);
    assertEquals(0, install.exitCode(), install.err());
    assertEquals("", install.err());
    JsonNode settings = json(file);
    // every other setting and hook kept, in its place; turndiff's group appended to each event
    JsonNode before = Json.mapper().readTree(original);
    assertEquals(before.get("hooksConfig"), settings.get("hooksConfig"));
    assertEquals(before.get("tools"), settings.get("tools"));
    List<String> keys = new ArrayList<>();
    settings.get("hooks").fieldNames().forEachRemaining(keys::add);
    List<String> keysBefore = new ArrayList<>();
    before.get("hooks").fieldNames().forEachRemaining(keysBefore::add);
    assertEquals(keysBefore, keys, "no event added or moved: Gemini's recorder had them all");
    JsonNode beforeTool = settings.get("hooks").get("BeforeTool");
    assertEquals(2, beforeTool.size());
    assertEquals(before.get("hooks").get("BeforeTool").get(0), beforeTool.get(0));
    assertEquals(
        "^(write_file|replace|run_shell_command)$", beforeTool.get(1).get("matcher").asText());
    JsonNode handler = beforeTool.get(1).get("hooks").get(0);
    assertEquals("turndiff", handler.get("name").asText());
    assertEquals(command("gemini"), handler.get("command").asText());
    assertEquals(30000, handler.get("timeout").asInt(), "Gemini's timeouts are in milliseconds");
    assertEquals(
        5000,
        settings.get("hooks").get("SessionEnd").get(1).get("hooks").get(0).get("timeout").asInt());
    assertFalse(
        settings.get("hooks").has("BeforeModel")
            && settings.get("hooks").get("BeforeModel").size() > 1);
    assertEquals(
        "rw-r-----",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(file)),
        "mode kept");
    try (Stream<Path> left = Files.list(file.getParent())) {
      assertEquals(List.of(file), left.toList(), "no temp file left");
    }

    CommandRun uninstall =
        turndiff("hooks", "uninstall", "--runtime", "gemini", "--workspace", workspace.toString());
    assertEquals(0, uninstall.exitCode(), uninstall.err());
    assertArrayEquals(original, Files.readAllBytes(file));
    assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
  }

  @Test
  void geminiTwiceIsOnceAndANewFileIsRemovedWithItsDirectory() throws Exception {
    roundTrip(
        "gemini",
        workspace.resolve(".gemini/settings.json"),
        null,
        "--workspace",
        workspace.toString(),
        "--no-track");
    assertFalse(Files.exists(workspace.resolve(".gemini")), "the directory install made is gone");
    byte[] original = resource("gemini-settings.json");
    Files.createDirectories(workspace.resolve(".gemini"));
    Files.write(workspace.resolve(".gemini/settings.json"), original);
    roundTrip(
        "gemini",
        workspace.resolve(".gemini/settings.json"),
        original,
        "--workspace",
        workspace.toString(),
        "--no-track");
  }

  @Test
  void claudeCodeRoundTripKeepsAFileFormattedAsTurndiffWouldNot() throws Exception {
    Path file = workspace.resolve(".claude/settings.local.json");
    Files.createDirectories(file.getParent());
    byte[] original = resource("claude-settings.local.json");
    Files.write(file, original);
    CommandRun install = sandbox.installWorkspaceHooks("claude-code", workspace);
    assertEquals(0, install.exitCode(), install.err());
    String text = Files.readString(file);
    assertTrue(text.contains("\"ratio\": 1.50"), "numbers as written");
    assertTrue(text.contains("\"greeting\": \"Grüße / ☃\""), "text as written");
    JsonNode settings = json(file);
    JsonNode preToolUse = settings.get("hooks").get("PreToolUse");
    assertEquals(2, preToolUse.size(), "the http hook kept, turndiff's group after it");
    assertEquals("http", preToolUse.get(0).get("hooks").get(0).get("type").asText());
    assertEquals(
        "Write|Edit|MultiEdit|NotebookEdit|Bash|PowerShell",
        preToolUse.get(1).get("matcher").asText());
    assertEquals(
        command("claude-code"), preToolUse.get(1).get("hooks").get(0).get("command").asText());
    assertEquals(
        5,
        settings.get("hooks").get("SessionEnd").get(0).get("hooks").get(0).get("timeout").asInt());
    // the settings without turndiff's groups are the original's, key for key
    ObjectNode stripped = (ObjectNode) settings.deepCopy();
    for (String event : List.of("UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop")) {
      ((ArrayNode) stripped.get("hooks").get(event))
          .remove(stripped.get("hooks").get(event).size() - 1);
    }
    assertEquals(
        "Bash|PowerShell",
        settings.get("hooks").get("PostToolUseFailure").get(0).get("matcher").asText(),
        "a shell call's end, failed or not");
    ((ObjectNode) stripped.get("hooks")).remove(List.of("SessionEnd", "PostToolUseFailure"));
    // and the approval of the workspace's .mcp.json server, which Claude Code asks for otherwise
    assertEquals("[\"turndiff\"]", stripped.remove("enabledMcpjsonServers").toString());
    assertEquals(Json.mapper().readTree(original), stripped);
    Files.write(file, original);
    // the user's file as it was, then the round trip in full
    CommandRun uninstall =
        turndiff(
            "hooks", "uninstall", "--runtime", "claude-code", "--workspace", workspace.toString());
    assertEquals(0, uninstall.exitCode(), uninstall.err());
    assertArrayEquals(original, Files.readAllBytes(file));
    roundTrip("claude-code", file, original, "--workspace", workspace.toString(), "--no-track");
  }

  /** With {@code --no-prompts} the store is set to keep none of the prompts (issue 22 item 5). */
  @Test
  void claudeCodeUserInstallGoesToTheHomeSettingsWithAutoTrack() throws Exception {
    Path file = home.resolve(".claude/settings.json");
    roundTrip("claude-code", file, null, "--user");
    CommandRun install =
        turndiff("hooks", "install", "--runtime", "claude-code", "--user", "--no-prompts");
    assertEquals(0, install.exitCode(), install.err());
    assertEquals(
        command("claude-code") + " --auto-track",
        json(file).get("hooks").get("Stop").get(0).get("hooks").get(0).get("command").asText());
    assertTrue(install.out().contains("prompts: none are kept in "), install.out());
    try (Store store = Store.open(Path.of(env.get("TURNDIFF_DB")))) {
      assertFalse((boolean) store.read(tx -> tx.prompts().kept()), "--no-prompts keeps none");
    }
  }

  @Test
  void codexRoundTripWritesTheTrustCodexChecksAndTakesItOut() throws Exception {
    Path hooks = codexHome.resolve("hooks.json");
    Path config = codexHome.resolve("config.toml");
    Files.createDirectories(codexHome);
    byte[] originalHooks = resource("codex-hooks.json");
    byte[] originalConfig = resource("codex-config.toml");
    Files.write(hooks, originalHooks);
    Files.write(config, originalConfig);
    Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rw-------"));

    CommandRun install = turndiff("hooks", "install", "--runtime", "codex", "--user");
    assertEquals(0, install.exitCode(), install.err());
    JsonNode settings = json(hooks);
    String configText = Files.readString(config);
    assertTrue(
        configText.startsWith(new String(originalConfig, StandardCharsets.UTF_8)), "appended only");
    String cmd = command("codex") + " --auto-track";
    for (String[] event :
        new String[][] {
          {"UserPromptSubmit", "user_prompt_submit", "30"},
          {"PreToolUse", "pre_tool_use", "30"},
          {"PostToolUse", "post_tool_use", "30"},
          {"Stop", "stop", "30"},
          {"SessionEnd", "session_end", "3"}
        }) {
      JsonNode groups = settings.get("hooks").get(event[0]);
      int index = groups.size() - 1;
      assertEquals(1, index, event[0] + ": turndiff's group after the recorder's");
      JsonNode handler = groups.get(index).get("hooks").get(0);
      assertEquals(cmd, handler.get("command").asText());
      assertEquals(Integer.parseInt(event[2]), handler.get("timeout").asInt());
      assertFalse(groups.get(index).has("matcher"));
      String entry =
          "[hooks.state.\""
              + hooks
              + ":"
              + event[1]
              + ":"
              + index
              + ":0\"]\ntrusted_hash = \""
              + CodexTrust.trustedHash(event[1], cmd, Integer.parseInt(event[2]))
              + "\"\n";
      assertTrue(configText.contains(entry), entry + " in\n" + configText);
    }
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(config)));

    CommandRun status =
        turndiff(
            "hooks", "status", "--runtime", "codex", "--workspace", workspace.toString(), "--json");
    assertEquals(0, status.exitCode(), status.err());
    JsonNode user = Json.mapper().readTree(status.out()).get("installations").get(1);
    assertEquals("user", user.get("scope").asText());
    assertTrue(user.get("installed").asBoolean());
    assertTrue(user.get("current").asBoolean());
    assertTrue(user.get("codex_trusted").asBoolean(), status.out());
    assertTrue(user.get("script_executable").asBoolean());
    // the MCP server, after the trust block: Codex starts it in the session's directory
    assertTrue(
        configText.endsWith(
            "# >>> turndiff mcp: the MCP server `turndiff hooks install` registered;"
                + " `turndiff hooks uninstall` removes this block\n[mcp_servers.turndiff]\ncommand = \""
                + checkout().resolve("turndiff")
                + "\"\nargs = [\"mcp\"]\nenv_vars = "
                + CODEX_PASSED_VARIABLES
                + "\nstartup_timeout_sec = 60\n# <<< turndiff mcp\n"),
        configText);
    assertEquals(config.toString(), user.get("mcp_server").asText(), status.out());

    CommandRun again = turndiff("hooks", "install", "--runtime", "codex", "--user");
    assertTrue(again.out().contains("already installed"), again.out());
    CommandRun uninstall = turndiff("hooks", "uninstall", "--runtime", "codex", "--user");
    assertEquals(0, uninstall.exitCode(), uninstall.err());
    assertArrayEquals(originalHooks, Files.readAllBytes(hooks));
    assertArrayEquals(originalConfig, Files.readAllBytes(config));
  }

  /**
   * Codex keys trust by the hooks file as it names it (asked of Codex 0.171.0 itself: see {@code
   * io.turndiff.hooks.install.CodexHookNames}): a workspace reached through a symlinked parent is
   * the real path when Codex runs in it, the given name with {@code codex -C}; a {@code CODEX_HOME}
   * that is a symlink is its real path. Install writes those keys, and status checks exactly them:
   * present after install; missing when only the keys of the names as given are there (what install
   * wrote before); present for right keys written by hand, in another TOML form.
   */
  @Test
  void codexTrustIsKeyedByTheNamesCodexUsesAndStatusChecksExactlyThose() throws Exception {
    Path realParent = Files.createDirectories(temp.resolve("real"));
    Path realWorkspace = Files.createDirectories(realParent.resolve("ws")).toRealPath();
    Path linkedParent = Files.createSymbolicLink(temp.resolve("link"), realParent);
    Path linkedWorkspace = linkedParent.resolve("ws");
    Path realCodexHome = Files.createDirectories(temp.resolve("codex-real")).toRealPath();
    Path linkedCodexHome = Files.createSymbolicLink(temp.resolve("codex-link"), realCodexHome);
    env.put("CODEX_HOME", linkedCodexHome.toString());
    Path config = realCodexHome.resolve("config.toml");
    Files.write(config, resource("codex-config.toml"));

    CommandRun project = installIn(linkedWorkspace, "codex", "--no-track");
    assertEquals(0, project.exitCode(), project.err());
    assertTrue(
        project.err().contains("[projects.\"" + realWorkspace + "\"]"),
        "the project Codex must trust is the real one: " + project.err());
    CommandRun user = turndiff("hooks", "install", "--runtime", "codex", "--user");
    assertEquals(0, user.exitCode(), user.err());
    String text = Files.readString(config);
    String cmd = command("codex");
    for (Path name :
        List.of(
            realWorkspace.resolve(".codex/hooks.json"),
            linkedWorkspace.resolve(".codex/hooks.json"))) {
      assertTrue(text.contains(entry(name, "stop", 0, cmd, 30)), name + " in\n" + text);
    }
    assertTrue(
        text.contains(
            entry(realCodexHome.resolve("hooks.json"), "stop", 0, cmd + " --auto-track", 30)),
        text);
    assertFalse(text.contains("\"" + linkedCodexHome + "/hooks.json:"), text);
    JsonNode installed = codexStatus(linkedWorkspace);
    assertTrue(installed.get(0).get("codex_trusted").asBoolean(), installed.toString());
    assertTrue(installed.get(1).get("codex_trusted").asBoolean(), installed.toString());

    // only the keys of the names as given (the workspace's link, CODEX_HOME's link): Codex skips
    // every hook, and status says so
    String given =
        text.replace(realWorkspace + "/.codex/hooks.json:", linkedWorkspace + "/.codex/hooks.json:")
            .replace(realCodexHome + "/hooks.json:", linkedCodexHome + "/hooks.json:");
    Files.writeString(config, dropDuplicateTables(given));
    JsonNode wrong = codexStatus(linkedWorkspace);
    assertFalse(wrong.get(0).get("codex_trusted").asBoolean(), wrong.toString());
    assertFalse(wrong.get(1).get("codex_trusted").asBoolean(), wrong.toString());
    assertTrue(
        wrong.get(0).get("notes").toString().contains("no trusted_hash for " + realWorkspace),
        wrong.toString());

    // the right keys written by hand, as literal-string tables without turndiff's block: trusted
    StringBuilder byHand =
        new StringBuilder(new String(resource("codex-config.toml"), StandardCharsets.UTF_8));
    for (String[] event :
        new String[][] {
          {"user_prompt_submit", "30"},
          {"pre_tool_use", "30"},
          {"post_tool_use", "30"},
          {"stop", "30"},
          {"session_end", "3"}
        }) {
      for (Map.Entry<Path, String> hooks :
          Map.of(
                  realWorkspace.resolve(".codex/hooks.json"),
                  cmd,
                  realCodexHome.resolve("hooks.json"),
                  cmd + " --auto-track")
              .entrySet()) {
        byHand
            .append("\n[ hooks.state.'")
            .append(hooks.getKey())
            .append(':')
            .append(event[0])
            .append(":0:0' ]\ntrusted_hash='")
            .append(CodexTrust.trustedHash(event[0], hooks.getValue(), Integer.parseInt(event[1])))
            .append("'  # by hand\n");
      }
    }
    Files.writeString(config, byHand);
    JsonNode right = codexStatus(linkedWorkspace);
    assertTrue(right.get(0).get("codex_trusted").asBoolean(), right.toString());
    assertTrue(right.get(1).get("codex_trusted").asBoolean(), right.toString());
  }

  /** {@code hooks install --runtime RUNTIME --workspace ROOT} and {@code more}. */
  private CommandRun installIn(Path root, String runtime, String... more) throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of("hooks", "install", "--runtime", runtime, "--workspace", root.toString()));
    args.addAll(List.of(more));
    return turndiff(args.toArray(String[]::new));
  }

  /** {@code hooks status --runtime codex --json}: the workspace's installation, then the user's. */
  private JsonNode codexStatus(Path workspace) throws Exception {
    CommandRun status =
        turndiff(
            "hooks", "status", "--runtime", "codex", "--workspace", workspace.toString(), "--json");
    assertEquals(0, status.exitCode(), status.err());
    JsonNode installations = Json.mapper().readTree(status.out()).get("installations");
    assertEquals("workspace", installations.get(0).get("scope").asText());
    assertEquals("user", installations.get(1).get("scope").asText());
    return installations;
  }

  private static String entry(Path hooks, String event, int index, String command, int timeout) {
    return "[hooks.state.\""
        + hooks
        + ":"
        + event
        + ":"
        + index
        + ":0\"]\ntrusted_hash = \""
        + CodexTrust.trustedHash(event, command, timeout)
        + "\"\n";
  }

  /** {@code text} with each table given twice kept once (the first), so that it stays TOML. */
  private static String dropDuplicateTables(String text) {
    StringBuilder kept = new StringBuilder();
    Set<String> seen = new HashSet<>();
    boolean skipping = false;
    for (String line : text.split("\n", -1)) {
      if (line.startsWith("[")) {
        skipping = !seen.add(line);
      }
      if (!skipping) {
        kept.append(line).append('\n');
      }
    }
    return kept.substring(0, kept.length() - 1);
  }

  @Test
  void codexWorkspaceInstallWithAUserEditBetweenTakesOutOnlyTurndiffs() throws Exception {
    Path hooks = workspace.resolve(".codex/hooks.json");
    Path config = codexHome.resolve("config.toml");
    Files.createDirectories(codexHome);
    byte[] originalConfig = resource("codex-config.toml");
    Files.write(config, originalConfig);
    CommandRun install = sandbox.installWorkspaceHooks("codex", workspace);
    assertEquals(0, install.exitCode(), install.err());
    assertTrue(install.err().contains("[projects.\"" + workspace + "\"]"), install.err());
    // the user adds a setting and a line of config after install
    ObjectNode edited = (ObjectNode) json(hooks);
    edited.put("mine", true);
    Files.writeString(hooks, Json.write(edited, true));
    Files.writeString(config, Files.readString(config) + "\n[tui]\nnotifications = true\n");

    CommandRun uninstall =
        turndiff("hooks", "uninstall", "--runtime", "codex", "--workspace", workspace.toString());
    assertEquals(0, uninstall.exitCode(), uninstall.err());
    JsonNode left = json(hooks);
    assertTrue(left.get("mine").asBoolean());
    assertFalse(left.has("hooks"), "install made hooks and its events: all gone, " + left);
    assertEquals(
        new String(originalConfig, StandardCharsets.UTF_8) + "\n[tui]\nnotifications = true\n",
        Files.readString(config));
  }

  @Test
  void opencodePluginIsTheShippedOneWithItsOptionsAndGoesAway() throws Exception {
    Path plugin = workspace.resolve(".opencode/plugins/turndiff.ts");
    Files.createDirectories(workspace.resolve(".opencode"));
    Files.writeString(workspace.resolve(".opencode/opencode.json"), "{}\n");
    roundTrip("opencode", plugin, null, "--workspace", workspace.toString(), "--no-track");
    assertFalse(Files.exists(workspace.resolve(".opencode/plugins")));
    assertTrue(Files.exists(workspace.resolve(".opencode/opencode.json")));
    CommandRun install =
        turndiff(
            "hooks",
            "install",
            "--runtime",
            "opencode",
            "--workspace",
            workspace.toString(),
            "--no-track",
            "--git-root");
    assertEquals(0, install.exitCode(), install.err());
    String shipped = Files.readString(checkout().resolve("integrations/opencode/turndiff.ts"));
    String expected =
        shipped.replace(
            "const INSTALL = /* turndiff-install */ {};",
            "const INSTALL = /* turndiff-install */ {\"turndiffHome\":\""
                + checkout()
                + "\",\"root\":\"git\"};");
    assertEquals(expected, Files.readString(plugin));
  }

  /**
   * Issue 21, item 4: Claude Code and Codex take a directory's git top level for its project, else
   * the directory itself, and Gemini CLI reads a project's settings only where it starts, so a
   * runtime started in a subdirectory of a workspace that is not a git repository runs none of the
   * workspace's hooks (seen with each: integrations/*-e2e). Install and status, run in that
   * subdirectory, say so and what works instead; once the workspace is a repository's top level
   * they say Claude Code and Codex run them there, Gemini still not; the user's install runs
   * everywhere.
   */
  @Test
  void installAndStatusSayWhetherARuntimeStartedInASubdirectoryRunsTheWorkspacesHooks()
      throws Exception {
    Path src = Files.createDirectories(workspace.resolve("src"));
    CommandRun install = installWorkspaceIn(src, "claude-code");
    assertEquals(0, install.exitCode(), install.err());
    assertTrue(
        install
            .out()
            .contains(
                "claude-code: runs these hooks when started in "
                    + workspace
                    + "; started in a subdirectory, it does NOT run them (the workspace is not in"
                    + " a git repository, so Claude Code takes the directory it starts in for the"
                    + " project and reads its settings only there)\n"),
        install.out());
    assertTrue(
        install.out().contains("claude-code: started here (" + src + "), it does NOT run them"),
        install.out());
    assertTrue(
        install
            .out()
            .contains(
                "claude-code: where it does not, start claude-code in "
                    + workspace
                    + ", or install for the user"),
        install.out());
    assertTrue(
        install.out().contains("turndiff hooks install --runtime claude-code --user\n"),
        install.out());
    CommandRun gemini = installWorkspaceIn(src, "gemini");
    assertEquals(0, gemini.exitCode(), gemini.err());

    CommandRun status = turndiffIn(src, "hooks", "status");
    assertTrue(status.out().contains("started here: " + src + "\n"), status.out());
    assertTrue(
        status
            .out()
            .contains(
                "    claude-code  does NOT run the hooks of "
                    + workspace
                    + " (the workspace is not in a git repository"),
        status.out());
    assertTrue(
        status.out().contains("                 instead: start claude-code in " + workspace),
        status.out());
    assertEquals(
        Map.of("claude-code", false, "gemini", false), loadingsHere(src, workspace.toString()));
    // at the workspace's root, each runs them
    assertEquals(
        Map.of("claude-code", true, "gemini", true), loadingsHere(workspace, workspace.toString()));
    // outside the workspace, its hooks are not the runtime's concern
    assertEquals(Map.of(), loadingsHere(temp, workspace.toString()));

    // the workspace made a git repository's top level: Claude Code's project from src
    Files.createDirectory(workspace.resolve(".git"));
    assertEquals(
        Map.of("claude-code", true, "gemini", false), loadingsHere(src, workspace.toString()));
    assertTrue(
        turndiffIn(src, "hooks", "status", "--runtime", "claude-code")
            .out()
            .contains(
                "    claude-code  runs the hooks of "
                    + workspace
                    + " (Claude Code takes the git top level "
                    + workspace
                    + " for the project)"));
    // a repository above the workspace: Claude Code's project is that top level, not the
    // workspace
    Files.delete(workspace.resolve(".git"));
    Files.createDirectory(temp.resolve(".git"));
    assertEquals(
        Map.of("claude-code", false, "gemini", false), loadingsHere(src, workspace.toString()));

    // the user's install: run wherever the runtime starts
    CommandRun user =
        turndiffIn(src, "hooks", "install", "--runtime", "gemini", "--user", "--no-track");
    assertEquals(0, user.exitCode(), user.err());
    assertFalse(user.out().contains("started here"), user.out());
    assertEquals(Map.of("gemini", true), loadingsHere(src, null));
  }

  /**
   * {@code hooks install --runtime RUNTIME --workspace <workspace> --no-track} run in {@code
   * directory}.
   */
  private CommandRun installWorkspaceIn(Path directory, String runtime) throws Exception {
    return sandbox.installWorkspaceHooksIn(directory, runtime, workspace);
  }

  /**
   * {@code hooks status --json} run in {@code directory}: per runtime, whether a runtime started
   * there runs the hooks of {@code installed} (a workspace, or null: the user's settings).
   */
  private Map<String, Boolean> loadingsHere(Path directory, String installed) throws Exception {
    CommandRun status = turndiffIn(directory, "hooks", "status", "--json");
    assertEquals(0, status.exitCode(), status.err());
    JsonNode here = Json.mapper().readTree(status.out()).get("here");
    assertEquals(directory.toString(), here.get("directory").asText());
    Map<String, Boolean> loads = new TreeMap<>();
    for (JsonNode loading : here.get("loadings")) {
      boolean ofInstalled =
          installed == null
              ? loading.get("scope").asText().equals("user")
              : loading.hasNonNull("workspace")
                  && installed.equals(loading.get("workspace").asText());
      if (ofInstalled) {
        loads.put(loading.get("runtime").asText(), loading.get("loads").asBoolean());
      }
    }
    return loads;
  }

  @Test
  void installTracksTheWorkspaceOnceAndStatusSaysSo() throws Exception {
    CommandRun install =
        turndiff("hooks", "install", "--runtime", "gemini", "--workspace", workspace.toString());
    assertEquals(0, install.exitCode(), install.err());
    assertTrue(install.out().contains("tracking " + workspace), install.out());
    CommandRun again =
        turndiff("hooks", "install", "--runtime", "gemini", "--workspace", workspace.toString());
    assertEquals(0, again.exitCode(), again.err());
    assertTrue(again.out().contains("is tracked already"), again.out());

    CommandRun status = turndiff("hooks", "status", "--workspace", workspace.toString());
    assertEquals(0, status.exitCode(), status.err());
    assertTrue(
        status
            .out()
            .contains(
                "gemini       workspace  installed      "
                    + workspace.resolve(".gemini/settings.json")),
        status.out());
    assertTrue(status.out().contains("    command: " + command("gemini") + "\n"), status.out());
    assertTrue(
        status
            .out()
            .contains(
                "claude-code  workspace  not installed  "
                    + workspace.resolve(".claude/settings.local.json")),
        status.out());
    assertTrue(status.out().contains("workspace:    " + workspace + " (tracked"), status.out());
    assertTrue(status.out().contains("service:      not running"), status.out());

    JsonNode json =
        Json.mapper()
            .readTree(
                turndiff("hooks", "status", "--workspace", workspace.toString(), "--json").out());
    assertEquals(8, json.get("installations").size());
    assertTrue(json.get("workspace").get("tracked").asBoolean());
    assertEquals(env.get("TURNDIFF_DB"), json.get("hooks_store").asText());

    // doctor: nothing failed (exit 0); what it cannot know without the service it says so
    CommandRun doctor = turndiff("doctor", "--workspace", workspace.toString());
    assertEquals(0, doctor.exitCode(), doctor.out() + doctor.err());
    assertTrue(
        doctor.out().contains(String.format("  %-5s %-25s %s", "ok", "tracking", workspace)),
        doctor.out());
    assertTrue(
        doctor.out().contains(String.format("  %-5s %-25s %s", "warn", "service", "not running")),
        doctor.out());
    assertTrue(
        doctor
            .out()
            .contains(
                String.format("  %-5s %-25s %s", "skip", "hooks gemini firing", "cannot tell")),
        doctor.out());
    // a store others can read fails, with the command that mends it (exit 1)
    Path store = Path.of(env.get("TURNDIFF_DB"));
    Files.setPosixFilePermissions(store, PosixFilePermissions.fromString("rw-r--r--"));
    CommandRun open = turndiff("doctor", "--workspace", workspace.toString());
    assertEquals(1, open.exitCode(), open.out() + open.err());
    assertTrue(
        open.out().contains(String.format("  %-5s %-25s %s", "fail", "store modes", store)),
        open.out());
    assertTrue(open.out().contains("-> chmod 600 '" + store + "'"), open.out());
    Files.setPosixFilePermissions(store, PosixFilePermissions.fromString("rw-------"));
  }

  @Test
  void withoutTurndiffHomeTheScriptIsTheOneOfTheJarsCheckout() throws Exception {
    env.remove("TURNDIFF_HOME");
    CommandRun install = sandbox.installWorkspaceHooks("gemini", workspace);
    assertEquals(0, install.exitCode(), install.err());
    assertEquals(
        command("gemini"),
        json(workspace.resolve(".gemini/settings.json"))
            .get("hooks")
            .get("BeforeAgent")
            .get(0)
            .get("hooks")
            .get(0)
            .get("command")
            .asText());
  }

  @Test
  void aUsersSettingsFileLinkedToTheirDotfilesIsWrittenThroughAndStaysALink() throws Exception {
    Path dotfiles = Files.createDirectories(temp.resolve("dotfiles"));
    Path real = dotfiles.resolve("gemini.json");
    byte[] original = resource("gemini-settings.json");
    Files.write(real, original);
    Path link = home.resolve(".gemini/settings.json");
    Files.createDirectories(link.getParent());
    Files.createSymbolicLink(link, real);
    CommandRun install = turndiff("hooks", "install", "--runtime", "gemini", "--user");
    assertEquals(0, install.exitCode(), install.err());
    assertTrue(
        install.out().contains(link + " is reached through a symbolic link: writing " + real),
        install.out());
    assertTrue(Files.isSymbolicLink(link));
    assertTrue(Files.readString(real).contains(command("gemini")));
    CommandRun uninstall = turndiff("hooks", "uninstall", "--runtime", "gemini", "--user");
    assertEquals(0, uninstall.exitCode(), uninstall.err());
    assertTrue(Files.isSymbolicLink(link));
    assertArrayEquals(original, Files.readAllBytes(real));
  }

  // ---- a workspace's settings go through its boundary: a link out of it is refused
  // ----------------------------------------------------------------------------------

  /**
   * For each runtime, a workspace whose settings path leads out of it through a symbolic link — the
   * file itself, or a directory above it — to a JSON file of the user's holding the canary, or to a
   * directory outside: install refuses it naming the link (exit 2), writes nothing anywhere (the
   * outside tree, the ledger, the backups, Codex's config), and claims no write.
   */
  @Test
  void aSettingsPathLinkedOutOfTheWorkspaceIsRefusedAndNothingIsWrittenAnywhere() throws Exception {
    Map<String, String[]> links =
        Map.of(
            "claude-code",
                new String[] {".claude/settings.local.json", "../../outside/elsewhere.json"},
            "gemini", new String[] {".gemini", "../outside/dir"},
            "codex", new String[] {".codex", "../outside"},
            "opencode", new String[] {".opencode/plugins", "../../outside/dir"});
    Files.createDirectories(codexHome);
    byte[] config = resource("codex-config.toml");
    Files.write(codexHome.resolve("config.toml"), config);
    for (Map.Entry<String, String[]> link : links.entrySet()) {
      TestWorkspace outsideAndIn = TestWorkspace.in(temp.resolve("links-" + link.getKey()));
      Files.writeString(
          outsideAndIn.outside().resolve("elsewhere.json"),
          "{\"mine\": \"" + outsideAndIn.canary().text() + "\"}\n");
      outsideAndIn.refreshOutsidePicture();
      outsideAndIn.symlink(link.getValue()[0], link.getValue()[1]);
      Path root = outsideAndIn.root();

      CommandRun install = installIn(root, link.getKey());
      assertEquals(2, install.exitCode(), link.getKey() + ": " + install.out() + install.err());
      assertTrue(
          install.err().contains("symlink " + link.getValue()[0] + " -> " + link.getValue()[1]),
          link.getKey() + " names the link: " + install.err());
      assertTrue(install.err().contains("nothing was written"), install.err());
      assertFalse(install.out().contains("wrote"), install.out());
      outsideAndIn.assertOutsideUnchanged();
      assertFalse(Files.exists(state.resolve("turndiff/hooks-installed.json")), "no ledger");
      assertEquals(List.of(), backups());
      assertArrayEquals(config, Files.readAllBytes(codexHome.resolve("config.toml")));
      outsideAndIn.canary().assertNotIn("install's output", install.out() + install.err());

      // status reads nothing outside either, and says why install refuses the file
      CommandRun status =
          turndiff("hooks", "status", "--runtime", link.getKey(), "--workspace", root.toString());
      assertEquals(0, status.exitCode(), status.err());
      assertTrue(
          status.out().contains("points outside") || status.out().contains("leads above"),
          status.out());
      outsideAndIn.canary().assertNotIn("status's output", status.out() + status.err());
      outsideAndIn.assertOutsideUnchanged();
    }
  }

  /** A link that stays inside the workspace is followed, as the boundary follows it. */
  @Test
  void aSettingsDirectoryLinkedInsideTheWorkspaceIsWrittenThroughItAndTakenBack() throws Exception {
    Path config = Files.createDirectories(workspace.resolve("config/claude"));
    Files.createSymbolicLink(workspace.resolve(".claude"), Path.of("config/claude"));
    CommandRun install = installIn(workspace, "claude-code", "--no-track");
    assertEquals(0, install.exitCode(), install.err());
    Path reached = config.resolve("settings.local.json");
    assertTrue(
        install
            .out()
            .contains(
                workspace.resolve(".claude/settings.local.json")
                    + " is reached through a symbolic link: writing "
                    + reached),
        install.out());
    assertTrue(Files.readString(reached).contains(command("claude-code")));
    assertTrue(Files.isSymbolicLink(workspace.resolve(".claude")));
    CommandRun uninstall =
        turndiff(
            "hooks", "uninstall", "--runtime", "claude-code", "--workspace", workspace.toString());
    assertEquals(0, uninstall.exitCode(), uninstall.err());
    assertFalse(Files.exists(reached), "install had created it");
    assertTrue(Files.isSymbolicLink(workspace.resolve(".claude")));
    assertTrue(Files.isDirectory(config));
  }

  /**
   * A settings file turned into a link out after install (a checkout replaced it): uninstall
   * refuses it naming the link, puts nothing back through it, and keeps its record.
   */
  @Test
  void uninstallRefusesASettingsFileThatNowLeadsOutOfTheWorkspace() throws Exception {
    TestWorkspace outsideAndIn = TestWorkspace.in(temp.resolve("base"));
    Path root = outsideAndIn.root();
    Path file = root.resolve(".gemini/settings.json");
    Files.createDirectories(file.getParent());
    Files.write(file, resource("gemini-settings.json"));
    CommandRun install = installIn(root, "gemini", "--no-track");
    assertEquals(0, install.exitCode(), install.err());
    byte[] ledger = Files.readAllBytes(state.resolve("turndiff/hooks-installed.json"));

    Files.delete(file);
    Files.createSymbolicLink(file, outsideAndIn.secret());
    outsideAndIn.refreshOutsidePicture();
    CommandRun uninstall =
        turndiff("hooks", "uninstall", "--runtime", "gemini", "--workspace", root.toString());
    assertEquals(2, uninstall.exitCode(), uninstall.out() + uninstall.err());
    assertTrue(
        uninstall.err().contains("symlink .gemini/settings.json -> " + outsideAndIn.secret()),
        uninstall.err());
    assertFalse(uninstall.out().contains("restored"), uninstall.out());
    outsideAndIn.assertOutsideUnchanged();
    outsideAndIn.canary().assertNotIn("uninstall's output", uninstall.out() + uninstall.err());
    assertArrayEquals(ledger, Files.readAllBytes(state.resolve("turndiff/hooks-installed.json")));
  }

  @Test
  void badInputExits2AndWritesNothing() throws Exception {
    Path file = workspace.resolve(".gemini/settings.json");
    Files.createDirectories(file.getParent());
    byte[] garbage = "{\"hooks\": {\"BeforeTool\": [ }\n".getBytes(StandardCharsets.UTF_8);
    Files.write(file, garbage);
    CommandRun notJson = sandbox.installWorkspaceHooks("gemini", workspace);
    assertEquals(2, notJson.exitCode(), notJson.err());
    assertTrue(
        notJson
            .err()
            .startsWith("turndiff: cannot install into " + file + ": it is not valid JSON"),
        notJson.err());
    assertFalse(notJson.err().contains("Exception"), notJson.err());
    assertArrayEquals(garbage, Files.readAllBytes(file));

    Files.writeString(file, "{\"hooksConfig\": {\"enabled\": false}}");
    CommandRun disabled = sandbox.installWorkspaceHooks("gemini", workspace);
    assertEquals(2, disabled.exitCode(), disabled.err());
    assertTrue(disabled.err().contains("hooksConfig.enabled is false"), disabled.err());

    CommandRun unknown =
        turndiff("hooks", "install", "--runtime", "cline", "--workspace", workspace.toString());
    assertEquals(2, unknown.exitCode());
    assertEquals(
        "turndiff: unknown runtime 'cline': expected one of claude-code, gemini, codex, opencode\n",
        unknown.err());

    CommandRun both =
        turndiff(
            "hooks",
            "install",
            "--runtime",
            "claude-code",
            "--workspace",
            workspace.toString(),
            "--user");
    assertEquals(2, both.exitCode());
    assertTrue(both.err().contains("--workspace and --user exclude each other"), both.err());

    Files.createDirectories(codexHome);
    Files.writeString(codexHome.resolve("config.toml"), "[features]\nhooks = false\n");
    CommandRun codexOff = turndiff("hooks", "install", "--runtime", "codex", "--user");
    assertEquals(2, codexOff.exitCode(), codexOff.err());
    assertTrue(codexOff.err().contains("hooks = false"), codexOff.err());
    assertFalse(
        Files.exists(codexHome.resolve("hooks.json")), "nothing written, not even the hooks file");

    assertFalse(Files.exists(workspace.resolve(".claude")));
    assertFalse(Files.exists(home.resolve(".claude")));
    assertFalse(Files.exists(state), "no record, no backup");
  }

  @Test
  void garbageInEachRuntimesFileExits2AndLeavesItAsItWas() throws Exception {
    byte[] garbage = "{\"hooks\": {\"Stop\": [ }\n".getBytes(StandardCharsets.UTF_8);
    for (String[] runtimeAndFile :
        new String[][] {
          {"claude-code", ".claude/settings.local.json"},
          {"gemini", ".gemini/settings.json"},
          {"codex", ".codex/hooks.json"}
        }) {
      Path file = workspace.resolve(runtimeAndFile[1]);
      Files.createDirectories(file.getParent());
      Files.write(file, garbage);
      CommandRun install =
          turndiff(
              "hooks",
              "install",
              "--runtime",
              runtimeAndFile[0],
              "--workspace",
              workspace.toString());
      assertEquals(2, install.exitCode(), install.err());
      assertTrue(
          install
              .err()
              .startsWith("turndiff: cannot install into " + file + ": it is not valid JSON"),
          install.err());
      assertTrue(install.err().endsWith("; nothing was written\n"), install.err());
      assertArrayEquals(garbage, Files.readAllBytes(file));
    }
    Files.createDirectories(codexHome);
    byte[] notUtf8 = {'a', ' ', '=', ' ', '"', (byte) 0xff, '"', '\n'};
    Files.write(codexHome.resolve("config.toml"), notUtf8);
    CommandRun codex = turndiff("hooks", "install", "--runtime", "codex", "--user");
    assertEquals(2, codex.exitCode(), codex.err());
    assertTrue(codex.err().contains("it is not UTF-8 text"), codex.err());
    assertArrayEquals(notUtf8, Files.readAllBytes(codexHome.resolve("config.toml")));
    assertFalse(Files.exists(codexHome.resolve("hooks.json")));

    Path plugin = workspace.resolve(".opencode/plugins/turndiff.ts");
    Files.createDirectories(plugin.getParent());
    Files.writeString(plugin, "export const Mine = async () => ({});\n");
    CommandRun opencode =
        turndiff("hooks", "install", "--runtime", "opencode", "--workspace", workspace.toString());
    assertEquals(2, opencode.exitCode(), opencode.err());
    assertTrue(opencode.err().contains("it is not turndiff's plugin"), opencode.err());
    assertEquals("export const Mine = async () => ({});\n", Files.readString(plugin));
    assertFalse(Files.exists(state), "no record, no backup");
    assertFalse(Files.exists(temp.resolve("data/turndiff.db")), "nothing tracked");
  }

  @Test
  void uninstallWithoutARecordTakesOutTurndiffsHooksOnly() throws Exception {
    Path file = workspace.resolve(".gemini/settings.json");
    Files.createDirectories(file.getParent());
    byte[] original = resource("gemini-settings.json");
    Files.write(file, original);
    CommandRun install = sandbox.installWorkspaceHooks("gemini", workspace);
    assertEquals(0, install.exitCode(), install.err());
    Files.delete(state.resolve("turndiff/hooks-installed.json"));

    CommandRun status =
        turndiff("hooks", "status", "--runtime", "gemini", "--workspace", workspace.toString());
    assertTrue(status.out().contains("no record of the install"), status.out());
    CommandRun uninstall =
        turndiff("hooks", "uninstall", "--runtime", "gemini", "--workspace", workspace.toString());
    assertEquals(0, uninstall.exitCode(), uninstall.err());
    assertTrue(uninstall.out().contains("took turndiff's 5 hooks out of " + file), uninstall.out());
    assertEquals(Json.mapper().readTree(original), json(file), "every other setting and hook kept");
    CommandRun again =
        turndiff("hooks", "uninstall", "--runtime", "gemini", "--workspace", workspace.toString());
    assertEquals(0, again.exitCode(), again.err());
    assertTrue(again.out().contains("gemini: not installed in " + file), again.out());
  }

  /**
   * Issue 24 item 4: install registers {@code turndiff mcp} with Claude Code (the workspace's
   * {@code .mcp.json}, beside the user's own server, approved in the hooks' settings file) and
   * Gemini (its settings.json), status shows where, {@code --no-mcp} leaves it out, and uninstall
   * takes out exactly it from a file the user changed since.
   */
  @Test
  void installRegistersTheMcpServerWhereEachRuntimeReadsItAndUninstallTakesOutExactlyIt()
      throws Exception {
    Path mcpJson = workspace.resolve(".mcp.json");
    String original =
        "{\n  \"mcpServers\": {\n    \"db\": {\"command\": \"pg-mcp\", \"args\": []}\n  }\n}\n";
    Files.writeString(mcpJson, original);
    CommandRun install = sandbox.installWorkspaceHooks("claude-code", workspace);
    assertEquals(0, install.exitCode(), install.err());
    JsonNode servers = json(mcpJson).get("mcpServers");
    assertEquals(List.of("db", "turndiff"), fieldNames(servers));
    assertEquals(
        checkout().resolve("turndiff").toString(), servers.get("turndiff").get("command").asText());
    assertEquals(
        "[\"mcp\",\"--workspace\",\"" + workspace + "\"]",
        servers.get("turndiff").get("args").toString());
    Path settings = workspace.resolve(".claude/settings.local.json");
    assertEquals("[\"turndiff\"]", json(settings).get("enabledMcpjsonServers").toString());
    CommandRun status =
        turndiff(
            "hooks",
            "status",
            "--runtime",
            "claude-code",
            "--workspace",
            workspace.toString(),
            "--json");
    JsonNode installed = Json.mapper().readTree(status.out()).get("installations").get(0);
    assertEquals("workspace", installed.get("scope").asText());
    assertEquals(mcpJson.toString(), installed.get("mcp_server").asText(), status.out());
    assertEquals(List.of(), fieldNames(installed.get("notes")), status.out());
    CommandRun text =
        turndiff(
            "hooks", "status", "--runtime", "claude-code", "--workspace", workspace.toString());
    assertTrue(
        text.out().contains("    MCP server: turndiff mcp, registered in " + mcpJson), text.out());

    // the user adds a server after install: uninstall takes out turndiff's alone
    ObjectNode edited = (ObjectNode) json(mcpJson);
    ((ObjectNode) edited.get("mcpServers")).putObject("web").put("command", "web-mcp");
    Files.writeString(mcpJson, edited.toPrettyString());
    CommandRun uninstall =
        turndiff(
            "hooks", "uninstall", "--runtime", "claude-code", "--workspace", workspace.toString());
    assertEquals(0, uninstall.exitCode(), uninstall.err());
    assertTrue(uninstall.out().contains("took out turndiff's MCP server"), uninstall.out());
    assertEquals(List.of("db", "web"), fieldNames(json(mcpJson).get("mcpServers")));
    assertFalse(Files.exists(settings), "the settings file install created is gone");

    // Gemini: --no-mcp leaves it out; by default it is in settings.json beside the hooks
    Path gemini = workspace.resolve(".gemini/settings.json");
    CommandRun noMcp =
        turndiff(
            "hooks",
            "install",
            "--runtime",
            "gemini",
            "--workspace",
            workspace.toString(),
            "--no-track",
            "--no-mcp");
    assertEquals(0, noMcp.exitCode(), noMcp.err());
    assertFalse(json(gemini).has("mcpServers"), Files.readString(gemini));
    CommandRun geminiInstall = sandbox.installWorkspaceHooks("gemini", workspace);
    assertEquals(0, geminiInstall.exitCode(), geminiInstall.err());
    assertEquals(
        "[\"mcp\",\"--workspace\",\"" + workspace + "\"]",
        json(gemini).get("mcpServers").get("turndiff").get("args").toString());
    CommandRun geminiUninstall =
        turndiff("hooks", "uninstall", "--runtime", "gemini", "--workspace", workspace.toString());
    assertEquals(0, geminiUninstall.exitCode(), geminiUninstall.err());
    assertFalse(Files.exists(gemini), "install had created it");
  }

  /**
   * Codex takes one {@code [mcp_servers.turndiff]} per file, so a workspace's goes into the
   * workspace's own {@code .codex/config.toml} (a trusted project's layer, read where its hooks
   * are): beside the user's settings there, shown by status, taken out exactly by uninstall; a
   * table of that name that is the user's own is refused.
   */
  @Test
  void codexGetsTheMcpServerInTheWorkspacesOwnConfigAndUninstallTakesOutExactlyIt()
      throws Exception {
    Path config = Files.createDirectories(workspace.resolve(".codex")).resolve("config.toml");
    String mine = "model = \"gpt-5.5\"\n";
    Files.writeString(config, mine + "\n[mcp_servers.turndiff]\ncommand = \"npx\"\n");
    CommandRun refused = installIn(workspace, "codex", "--no-track");
    assertEquals(2, refused.exitCode(), refused.out());
    assertTrue(refused.err().contains("[mcp_servers.turndiff]"), refused.err());
    assertFalse(Files.exists(workspace.resolve(".codex/hooks.json")), "nothing written");

    Files.writeString(config, mine);
    CommandRun install = installIn(workspace, "codex", "--no-track");
    assertEquals(0, install.exitCode(), install.err());
    String text = Files.readString(config);
    assertTrue(text.startsWith(mine + "\n# >>> turndiff mcp"), text);
    assertTrue(text.contains("args = [\"mcp\", \"--workspace\", \"" + workspace + "\"]\n"), text);
    JsonNode installed =
        Json.mapper()
            .readTree(
                turndiff(
                        "hooks",
                        "status",
                        "--runtime",
                        "codex",
                        "--workspace",
                        workspace.toString(),
                        "--json")
                    .out())
            .get("installations")
            .get(0);
    assertEquals(config.toString(), installed.get("mcp_server").asText(), installed.toString());

    // the user adds a setting after install: uninstall takes out turndiff's block alone
    Files.writeString(config, text + "\n[features]\nhooks = true\n");
    CommandRun uninstall =
        turndiff("hooks", "uninstall", "--runtime", "codex", "--workspace", workspace.toString());
    assertEquals(0, uninstall.exitCode(), uninstall.err());
    assertEquals(mine + "\n[features]\nhooks = true\n", Files.readString(config));
  }

  @Test
  void anMcpServerNamedTurndiffThatIsNotTurndiffsExits2AndNothingIsWritten() throws Exception {
    Path mcpJson = workspace.resolve(".mcp.json");
    byte[] original =
        "{\"mcpServers\": {\"turndiff\": {\"command\": \"npx\", \"args\": [\"other\"]}}}"
            .getBytes(StandardCharsets.UTF_8);
    Files.write(mcpJson, original);
    CommandRun install = sandbox.installWorkspaceHooks("claude-code", workspace);
    assertEquals(2, install.exitCode(), install.out());
    assertTrue(install.err().contains("that is not turndiff's"), install.err());
    assertTrue(install.err().contains("--no-mcp"), install.err());
    assertArrayEquals(original, Files.readAllBytes(mcpJson));
    assertFalse(Files.exists(workspace.resolve(".claude")), "nothing written");
    CommandRun withoutMcp =
        turndiff(
            "hooks",
            "install",
            "--runtime",
            "claude-code",
            "--workspace",
            workspace.toString(),
            "--no-track",
            "--no-mcp");
    assertEquals(0, withoutMcp.exitCode(), withoutMcp.err());
    assertArrayEquals(original, Files.readAllBytes(mcpJson));
    assertFalse(
        json(workspace.resolve(".claude/settings.local.json")).has("enabledMcpjsonServers"));
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    if (node.isArray()) {
      node.forEach(element -> names.add(element.asText()));
    } else {
      node.fieldNames().forEachRemaining(names::add);
    }
    return names;
  }
}
