package io.turndiff.cli;

import static io.turndiff.cli.EvidenceFixture.status;
import static io.turndiff.cli.ModelScript.Step.say;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.hooks.install.RuntimeSessionFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21, item 0, the evidence from outside the hooks, with the real runtimes: each runs one
 * prompt in a workspace whose hooks are installed, and {@code hooks status} there shows no
 * session-file warning (its session file is written a moment after its last hook: within the
 * grace); then one prompt in a workspace whose hooks were installed and taken out again, and {@code
 * hooks status} there says {@code hooks may not be firing for R since T}, naming the session file
 * the runtime wrote and its time, and {@code doctor} says it too. The session file is looked up
 * where the runtime wrote it (its name and folder as the runtime made them), which checks the
 * layouts {@link RuntimeSessionFiles} reads.
 */
class SessionFileEvidenceIT {

  @TempDir Path temp;

  private EvidenceFixture fixture;
  private HookTestStore store;
  private Map<String, String> env;

  @BeforeEach
  void setUp() throws Exception {
    fixture = EvidenceFixture.started(temp);
    store = fixture.store();
    env = fixture.env();
  }

  @AfterEach
  void tearDown() throws Exception {
    fixture.close();
  }

  @Test
  void claudeCodesSessionFileWithNoHookIsFlaggedAndWithItsHooksIsNot() throws Exception {
    Path claudeHome = temp.resolve("claude-home");
    // status reads Claude's sessions in the home Claude ran with
    Map<String, String> cliEnv = new HashMap<>(env);
    cliEnv.put("HOME", claudeHome.toString());
    ClaudeCode claude = ClaudeCode.installed(HookTestStore.repository(), temp.resolve("logs"));
    ModelScript script = new ModelScript().prompt("do prompt one", say("Done with prompt one."));

    Path hooked = fixture.hooked("claude-code", fixture.workspace("hooked"));
    String first = UUID.randomUUID().toString();
    try (AnthropicMessagesServer model = new AnthropicMessagesServer(script)) {
      claude.promptToItsEnd(
          hooked,
          ClaudeCode.environment(store.runtimeBase(), model, claudeHome),
          "one",
          List.of("--session-id", first));
    }
    Path firstFile = claudeProjects(claudeHome, hooked).resolve(first + ".jsonl");
    assertTrue(Files.isRegularFile(firstFile), "Claude wrote its session where it is looked for");
    assertEquals(0, status(cliEnv, hooked).get("session_files").size(), "its hooks arrived");

    Path bare = fixture.unhooked("claude-code", fixture.workspace("bare"));
    String second = UUID.randomUUID().toString();
    try (AnthropicMessagesServer model = new AnthropicMessagesServer(script)) {
      claude.promptToItsEnd(
          bare,
          ClaudeCode.environment(store.runtimeBase(), model, claudeHome),
          "one",
          List.of("--session-id", second));
    }
    Path secondFile = claudeProjects(claudeHome, bare).resolve(second + ".jsonl");
    assertFlagged(cliEnv, bare, "claude-code", secondFile);
  }

  @Test
  void codexsSessionFileWithNoHookIsFlaggedAndWithItsHooksIsNot() throws Exception {
    Path codexHome = temp.resolve("codex-home");
    env.put("CODEX_HOME", codexHome.toString());
    CodexCli codex = CodexCli.installed(HookTestStore.repository(), temp.resolve("logs"));
    ModelScript script = new ModelScript().prompt("do prompt one", say("Done with prompt one."));
    Path hooked = fixture.workspace("hooked");
    Path bare = fixture.workspace("bare");

    String first;
    try (ResponsesApiServer model = new ResponsesApiServer(script)) {
      CodexCli.configure(codexHome, model, List.of(hooked, bare));
      fixture.hooked("codex", hooked);
      CommandRun run = codexPrompt(codex, hooked);
      assertTrue(run.err().contains("hook: Stop"), "Codex ran turndiff's hooks: " + run.err());
      first = CodexCli.session(run);
    }
    assertTrue(
        codexSession(codexHome, first).getFileName().toString().endsWith(first + ".jsonl"),
        "Codex wrote its session where it is looked for");
    assertEquals(0, status(env, hooked).get("session_files").size(), "its hooks arrived");

    String second;
    try (ResponsesApiServer model = new ResponsesApiServer(script)) {
      CodexCli.configure(codexHome, model, List.of(hooked, bare));
      fixture.unhooked("codex", bare);
      CommandRun run = codexPrompt(codex, bare);
      assertTrue(!run.err().contains("hook: UserPromptSubmit"), "no hook ran: " + run.err());
      second = CodexCli.session(run);
    }
    assertFlagged(env, bare, "codex", codexSession(codexHome, second));
  }

  @Test
  void geminisSessionFileWithNoHookIsFlaggedAndWithItsHooksIsNot() throws Exception {
    Path home = Path.of(env.get("HOME"));
    GeminiCli gemini = GeminiCli.installed(HookTestStore.repository(), temp.resolve("logs"));
    Path answers = temp.resolve("answers.jsonl");
    Files.writeString(
        answers,
        "{\"method\":\"generateContentStream\",\"response\":[{\"candidates\":[{\"content\":"
            + "{\"role\":\"model\",\"parts\":[{\"text\":\"Done with prompt one.\"}]},"
            + "\"finishReason\":\"STOP\",\"index\":0}]}]}\n");

    Path hooked = fixture.hooked("gemini", fixture.workspace("hooked"));
    String first = UUID.randomUUID().toString();
    geminiPrompt(gemini, hooked, first, answers);
    assertTrue(
        Files.isRegularFile(geminiSession(home, first)),
        "Gemini wrote its session where it is looked for");
    assertEquals(0, status(env, hooked).get("session_files").size(), "its hooks arrived");

    Path bare = fixture.unhooked("gemini", fixture.workspace("bare"));
    String second = UUID.randomUUID().toString();
    geminiPrompt(gemini, bare, second, answers);
    assertFlagged(env, bare, "gemini", geminiSession(home, second));
  }

  // ---- what status and doctor say

  /**
   * {@code hooks status} in {@code workspace} names {@code file}, the runtime's session file, with
   * its time, in JSON and in text, and {@code doctor} warns of it (the hooks are not installed).
   */
  private static void assertFlagged(
      Map<String, String> cliEnv, Path workspace, String runtime, Path file) throws Exception {
    Instant written = Files.getLastModifiedTime(file).toInstant();
    JsonNode evidence = status(cliEnv, workspace).get("session_files");
    assertEquals(1, evidence.size(), evidence.toString());
    JsonNode seen = evidence.get(0);
    assertEquals(runtime, seen.get("runtime").asText());
    assertEquals(file.toString(), seen.get("file").asText());
    assertEquals(written.toString(), seen.get("written_at").asText());
    assertEquals(false, seen.get("installed").asBoolean());
    String warning =
        "hooks may not be firing for "
            + runtime
            + " since "
            + written
            + ": its session file "
            + file
            + " was written at "
            + written
            + " and no hook arrived";
    assertTrue(seen.get("warning").asText().startsWith(warning), seen.toString());
    EvidenceFixture.assertWarned(cliEnv, workspace, warning, "hooks " + runtime + " sessions");
  }

  // ---- the runtimes

  private static Path claudeProjects(Path claudeHome, Path directory) {
    return claudeHome
        .resolve(".claude/projects")
        .resolve(RuntimeSessionFiles.claudeFolderName(directory.toString()));
  }

  private CommandRun codexPrompt(CodexCli codex, Path directory) throws Exception {
    CommandRun run =
        codex.first(
            directory,
            CodexCli.environment(store.runtimeBase(), temp.resolve("codex-user-home")),
            "do prompt one",
            "prompt-" + directory.getFileName());
    assertEquals(0, run.exitCode(), "codex: " + run);
    assertTrue(run.out().contains("Done with prompt one."), run.out() + run.err());
    return run;
  }

  /** Codex's session file of {@code session}: {@code sessions/YYYY/MM/DD/rollout-…-ID.jsonl}. */
  private static Path codexSession(Path codexHome, String session) throws Exception {
    try (Stream<Path> walk = Files.walk(codexHome.resolve("sessions"), 4)) {
      List<Path> found =
          walk.filter(p -> p.getFileName().toString().matches("rollout-.*-" + session + "\\.jsonl"))
              .filter(p -> codexHome.resolve("sessions").relativize(p).getNameCount() == 4)
              .toList();
      assertEquals(1, found.size(), "Codex's session file of " + session + ": " + found);
      return found.getFirst();
    }
  }

  private void geminiPrompt(GeminiCli gemini, Path directory, String session, Path answers)
      throws Exception {
    CommandRun run =
        gemini.prompt(
            directory,
            GeminiCli.environment(store.runtimeBase()),
            "do prompt one",
            List.of("--session-id", session),
            answers,
            "prompt-" + directory.getFileName());
    assertEquals(0, run.exitCode(), "gemini: " + run);
    assertTrue(run.out().contains("Done with prompt one."), run.out() + run.err());
  }

  /**
   * Gemini's session file of {@code session}: {@code .gemini/tmp/NAME/chats/session-…-ID8.jsonl}.
   */
  private static Path geminiSession(Path home, String session) throws Exception {
    try (Stream<Path> walk = Files.walk(home.resolve(".gemini/tmp"), 3)) {
      List<Path> found =
          walk.filter(
                  p ->
                      p.getFileName().toString().startsWith("session-")
                          && p.getFileName().toString().endsWith(session.substring(0, 8) + ".jsonl")
                          && p.getParent().getFileName().toString().equals("chats"))
              .toList();
      assertEquals(1, found.size(), "Gemini's session file of " + session + ": " + found);
      return found.getFirst();
    }
  }
}
