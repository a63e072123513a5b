package io.turndiff.cli;

import static io.turndiff.cli.ModelScript.Step.say;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.fixtures.CommandRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a prompt hook's standard output goes, seen in the requests the real runtimes send their
 * model (issue 21, item 8: turndiff may add a line there only if the runtime puts it into the
 * model's context). A hook of the test's own on {@code UserPromptSubmit} prints a note; the
 * scripted model API keeps every request, and the test finds the note in each model request of the
 * prompt, in the form the runtime gives it. What the runtimes do, not turndiff: tagged {@code
 * runtime-research}; it runs by default (two prompts, about 10 s) so that a new pinned version that
 * moves the output elsewhere fails here.
 */
@Tag("runtime-research")
class PromptHookContextIT {

  @TempDir Path temp;

  /**
   * Claude Code 2.1.332: the plain stdout of {@code UserPromptSubmit} is a {@code system} message
   * of the Messages request, {@code UserPromptSubmit hook success: <stdout>}.
   */
  @Test
  void claudeCodePutsAPromptHooksStdoutIntoTheModelsContext() throws Exception {
    String note = "TURNDIFF-NOTE-" + UUID.randomUUID();
    Path workspace = Files.createDirectories(temp.resolve("ws/.claude")).getParent();
    Path hook = hook(note);
    Files.writeString(
        workspace.resolve(".claude/settings.local.json"),
        """
        {"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "%s"}]}]}}
        """
            .formatted(hook));
    ClaudeCode claude = ClaudeCode.installed(HookTestStore.repository(), temp.resolve("logs"));
    ModelScript script = new ModelScript().prompt("do prompt one", say("Done with prompt one."));
    try (AnthropicMessagesServer model = new AnthropicMessagesServer(script)) {
      Map<String, String> environment =
          ClaudeCode.environment(Map.of(), model, temp.resolve("claude-home"));
      CommandRun run =
          claude.prompt(
              workspace,
              environment,
              "do prompt one",
              List.of("--session-id", UUID.randomUUID().toString()),
              "prompt");
      assertEquals(0, run.exitCode(), run.toString());
      List<ScriptedModelServer.Request> requests = model.conversationsWith("do prompt one");
      assertFalse(requests.isEmpty(), "the model was asked");
      for (ScriptedModelServer.Request request : requests) {
        assertTrue(
            request.messageTexts("system").contains("UserPromptSubmit hook success: " + note),
            "a system message holds the hook's stdout: " + request.body());
      }
    }
  }

  /**
   * Codex 0.171.0: the plain stdout of {@code UserPromptSubmit} is a {@code developer} message of
   * its own in the Responses request, right after the user's prompt.
   */
  @Test
  void codexPutsAPromptHooksStdoutIntoTheModelsContext() throws Exception {
    String note = "TURNDIFF-NOTE-" + UUID.randomUUID();
    Path workspace = Files.createDirectories(temp.resolve("ws/.codex")).getParent();
    Path hook = hook(note);
    Files.writeString(
        workspace.resolve(".codex/hooks.json"),
        """
        {"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "%s", "timeout": 10}]}]}}
        """
            .formatted(hook));
    CodexCli codex = CodexCli.installed(HookTestStore.repository(), temp.resolve("logs"));
    Path codexHome = temp.resolve("codex-home");
    ModelScript script = new ModelScript().prompt("do prompt one", say("Done with prompt one."));
    try (ResponsesApiServer model = new ResponsesApiServer(script)) {
      CodexCli.configure(codexHome, model, List.of(workspace));
      Map<String, String> environment =
          CodexCli.environment(
              Map.of("CODEX_HOME", codexHome.toString()), temp.resolve("codex-user-home"));
      // the hook's trust is not what this looks at: Codex is told to run it untrusted
      CommandRun run =
          codex.first(
              workspace, environment, "do prompt one", "prompt", "--dangerously-bypass-hook-trust");
      assertEquals(0, run.exitCode(), run.toString());
      List<ScriptedModelServer.Request> requests = model.conversationsWith("do prompt one");
      assertFalse(requests.isEmpty(), "the model was asked");
      for (ScriptedModelServer.Request request : requests) {
        JsonNode input = request.json().path("input");
        int prompt = -1;
        for (int i = 0; i < input.size(); i++) {
          if (input.get(i).toString().contains("do prompt one")) {
            prompt = i;
          }
        }
        JsonNode next = input.get(prompt + 1);
        assertEquals("developer", next.path("role").asText(), request.body());
        assertEquals(
            note, next.path("content").get(0).path("text").asText().strip(), request.body());
      }
    }
  }

  /** A hook that prints {@code note} and nothing else. */
  private Path hook(String note) throws Exception {
    Path hook = temp.resolve("note-hook.sh");
    Files.writeString(hook, "#!/bin/sh\ncat >/dev/null\necho '" + note + "'\n");
    Files.setPosixFilePermissions(hook, PosixFilePermissions.fromString("rwx------"));
    return hook;
  }
}
