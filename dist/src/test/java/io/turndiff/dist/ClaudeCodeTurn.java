package io.turndiff.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.turndiff.fixtures.CommandRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * One Claude Code turn through the hooks {@code turndiff hooks install} wrote into a workspace's
 * {@code .claude/settings.local.json}: the hook command is read from the file and run as Claude
 * Code runs it ({@code sh -c}, the payload on stdin, with the events' recorded shape), and between
 * {@code PreToolUse} and {@code Stop} the "tool" writes the file.
 */
final class ClaudeCodeTurn {

  private static final ObjectMapper JSON = new ObjectMapper();

  private ClaudeCodeTurn() {}

  /** A workspace {@code folder} holding the {@code app.py} the turn rewrites. */
  static Path project(Path folder) throws Exception {
    Path workspace = Files.createDirectories(folder);
    Files.writeString(workspace.resolve("app.py"), "print('one')\n");
    return workspace;
  }

  static Path settings(Path workspace) {
    return workspace.resolve(".claude/settings.local.json");
  }

  /** The command of turndiff's PreToolUse hook in the workspace's settings. */
  static String hookCommand(Path workspace) throws Exception {
    JsonNode settings = JSON.readTree(Files.readAllBytes(settings(workspace)));
    for (JsonNode group : settings.path("hooks").path("PreToolUse")) {
      for (JsonNode hook : group.path("hooks")) {
        if (hook.path("command").asText().contains("turndiff-hook")) {
          return hook.path("command").asText();
        }
      }
    }
    throw new AssertionError("no turndiff hook in " + settings);
  }

  /**
   * {@code turndiff hooks install --runtime claude-code --workspace W} run by {@code launcher},
   * checked to write {@code hook} (the release's hook client) as the hook command, then a turn
   * through the hooks that rewrites {@code app.py} (the first hook starts the service); the service
   * that took it.
   */
  static ServiceProcess installedAndUsed(Sandbox user, Path launcher, Path workspace, Path hook)
      throws Exception {
    user.run(
            launcher,
            "hooks",
            "install",
            "--runtime",
            "claude-code",
            "--workspace",
            workspace.toString())
        .expect(0);
    assertEquals("'" + hook + "' claude-code", hookCommand(workspace));
    edit(user, workspace, "app.py", "print('two')\n");
    return ServiceProcess.of(user.run(launcher, "service", "status", "--json").expect(0).json());
  }

  /**
   * A turn in which the Edit tool rewrites {@code file} (relative to the workspace) to {@code
   * text}.
   */
  static void edit(Sandbox sandbox, Path workspace, String file, String text) throws Exception {
    String command = hookCommand(workspace);
    String session = UUID.randomUUID().toString();
    String prompt = UUID.randomUUID().toString();
    Path target = workspace.resolve(file);

    ObjectNode submit = event(session, prompt, workspace, "UserPromptSubmit");
    submit.put("prompt", "change " + file);
    hook(sandbox, command, submit);
    ObjectNode before = event(session, prompt, workspace, "PreToolUse");
    before.put("tool_name", "Edit");
    before.putObject("tool_input").put("file_path", target.toString()).put("new_string", text);
    before.put("tool_use_id", "toolu_" + prompt.substring(0, 8));
    hook(sandbox, command, before);
    Files.writeString(target, text);
    ObjectNode stop = event(session, prompt, workspace, "Stop");
    stop.put("stop_hook_active", false);
    hook(sandbox, command, stop);
  }

  private static ObjectNode event(String session, String prompt, Path workspace, String name) {
    ObjectNode event = JSON.createObjectNode();
    event.put("session_id", session);
    event.put("prompt_id", prompt);
    event.put("transcript_path", "/nonexistent/" + session + ".jsonl");
    event.put("cwd", workspace.toString());
    event.put("permission_mode", "default");
    event.put("hook_event_name", name);
    return event;
  }

  /** The hook as the runtime calls it: it says nothing and exits 0, whatever happened. */
  private static void hook(Sandbox sandbox, String command, ObjectNode payload) throws Exception {
    CommandRun run =
        sandbox.run(
            JSON.writeValueAsString(payload).getBytes(StandardCharsets.UTF_8), "sh", "-c", command);
    assertEquals(0, run.exitCode(), run.err());
    assertEquals("", run.out() + run.err());
  }
}
