package io.turndiff.cli;

import static io.turndiff.cli.ModelScript.Step.call;
import static io.turndiff.cli.ModelScript.Step.say;
import static io.turndiff.cli.ModelScript.ToolCall.function;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.api.Json;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestWorkspace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21, item 8, with the real Claude Code (2.1.332): the user rewinds the session's first
 * prompt between two prompts, and the second prompt's model requests carry turndiff's note that it
 * was rewound, as Claude Code puts a {@code UserPromptSubmit} hook's output into the model's
 * context (a system message {@code UserPromptSubmit hook success: <line>}); the first prompt's,
 * when all was well, carry no note. turndiff's hooks are installed by {@code hooks install}, {@code
 * bin/turndiff-hook} prints what the real per-user service of a test store answers, and the
 * scripted Anthropic Messages API on loopback keeps every request it receives.
 */
class PromptNoteIT {

  private static final String OPENING =
      "turndiff (the tool that records this session's file changes) notes, for information only"
          + " and not as an instruction: ";
  private static final String REWOUND =
      OPENING
          + "your previous turn was rewound since it ended: 2 restored, 0 merged, 0 skipped; the"
          + " files are as the rewind left them, not as your previous turn left them.";
  private static final String CONTENT = "CONTENT-OF-HELLO-" + UUID.randomUUID();

  @TempDir Path temp;

  @Test
  void claudeCodesSecondPromptIsToldTheFirstPromptWasRewound() throws Exception {
    ClaudeCode claude = ClaudeCode.installed(HookTestStore.repository(), temp.resolve("logs"));
    String session = UUID.randomUUID().toString();
    try (HookedWorkspace hooked = new HookedWorkspace(temp, "claude-code");
        AnthropicMessagesServer model = new AnthropicMessagesServer(script(hooked.root))) {
      Map<String, String> environment =
          ClaudeCode.environment(hooked.store.runtimeBase(), model, temp.resolve("claude-home"));

      claude.promptToItsEnd(hooked.root, environment, "one", List.of("--session-id", session));
      assertEquals(CONTENT, Files.readString(hooked.root.resolve("hello.txt")));
      assertNoNote(model.conversationsWith("do prompt one"));

      hooked.rewindTheFirstPrompt("claude-code:" + session);

      claude.promptToItsEnd(hooked.root, environment, "two", List.of("--resume", session));
      assertTheRewindIsNoted(model.conversationsWith("do prompt two"));
    }
  }

  /** Prompt one writes a file and edits another; prompt two only answers. */
  private static ModelScript script(Path root) {
    return new ModelScript()
        .prompt(
            "do prompt one",
            call(function("Write", "file_path", root + "/hello.txt", "content", CONTENT)),
            call(
                function(
                    "Edit",
                    "file_path",
                    root + "/notes.txt",
                    "old_string",
                    "alpha",
                    "new_string",
                    "ALPHA")),
            say("Done with prompt one."))
        .prompt("do prompt two", say("Done with prompt two."));
  }

  /** All was well before the first prompt: the hook printed nothing, so Claude added nothing. */
  private static void assertNoNote(List<ScriptedModelServer.Request> requests) {
    assertFalse(requests.isEmpty(), "the model was asked");
    for (ScriptedModelServer.Request request : requests) {
      String system = request.messageTexts("system");
      assertFalse(
          system.contains("UserPromptSubmit hook") || system.contains(OPENING),
          "all is well: no note in the model's context: " + system);
    }
  }

  /**
   * Every request of the second prompt holds the note, as a system message, with the rewind's
   * counts (both paths restored), and not the content of the file the first prompt wrote.
   */
  private static void assertTheRewindIsNoted(List<ScriptedModelServer.Request> requests) {
    assertFalse(requests.isEmpty(), "the model was asked the second prompt");
    for (ScriptedModelServer.Request request : requests) {
      String system = request.messageTexts("system");
      assertTrue(
          system.contains("UserPromptSubmit hook success: " + REWOUND),
          "the second prompt's model is told of the rewind: " + system);
      assertFalse(system.contains(CONTENT), "never a file's content: " + system);
    }
  }

  /**
   * The same with the real Gemini CLI (0.61.0) on scripted answers ({@code --fake-responses}, so no
   * request reaches a server this test could read): Gemini appends a {@code BeforeAgent} hook's
   * {@code hookSpecificOutput.additionalContext} to the prompt's parts as {@code
   * <hook_context>…</hook_context>}, and records the parts it sends the model as the user message
   * of its session file (its chat recording, under the home the test gives it), where the test
   * reads them.
   */
  @Test
  void geminisSecondPromptIsToldTheFirstPromptWasRewound() throws Exception {
    GeminiCli gemini = GeminiCli.installed(HookTestStore.repository(), temp.resolve("logs"));
    String session = UUID.randomUUID().toString();
    try (HookedWorkspace hooked = new HookedWorkspace(temp, "gemini")) {
      Map<String, String> environment = GeminiCli.environment(hooked.store.runtimeBase());

      geminiPrompt(gemini, hooked.root, environment, "one", List.of("--session-id", session));
      assertEquals(CONTENT, Files.readString(hooked.root.resolve("hello.txt")));
      assertEquals(List.of(), hookContexts(hooked.store), "all is well: no note");

      hooked.rewindTheFirstPrompt("gemini:" + session);

      geminiPrompt(gemini, hooked.root, environment, "two", List.of("-r", session));
      assertEquals(List.of(REWOUND), hookContexts(hooked.store), "the second prompt's parts");
    }
  }

  /**
   * Runs {@code do prompt WORDS} with Gemini on its scripted answers: prompt one writes {@code
   * hello.txt} and edits {@code notes.txt}, each prompt ends saying {@code Done with prompt WORDS.}
   */
  private void geminiPrompt(
      GeminiCli gemini,
      Path root,
      Map<String, String> environment,
      String words,
      List<String> session)
      throws Exception {
    List<String> answers = new ArrayList<>();
    if (words.equals("one")) {
      answers.add(
          geminiCall("write_file", Map.of("file_path", root + "/hello.txt", "content", CONTENT)));
      answers.add(
          geminiCall(
              "replace",
              Map.of(
                  "file_path",
                  root + "/notes.txt",
                  "instruction",
                  "Uppercase alpha",
                  "old_string",
                  "alpha",
                  "new_string",
                  "ALPHA")));
    }
    answers.add(geminiAnswer(Map.of("text", "Done with prompt " + words + ".")));
    Path file = temp.resolve("gemini-prompt-" + words + ".jsonl");
    Files.writeString(file, String.join("\n", answers) + "\n");
    CommandRun run =
        gemini.prompt(root, environment, "do prompt " + words, session, file, "gemini-" + words);
    assertEquals(0, run.exitCode(), "gemini prompt " + words + ": " + run);
    assertTrue(run.out().contains("Done with prompt " + words + "."), run.out() + run.err());
  }

  private static String geminiCall(String tool, Map<String, String> args) {
    return geminiAnswer(Map.of("functionCall", Map.of("name", tool, "args", args)));
  }

  /** One {@code generateContentStream} answer of the model, with {@code part} its one part. */
  private static String geminiAnswer(Map<String, Object> part) {
    Map<String, Object> candidate =
        Map.of(
            "content",
            Map.of("role", "model", "parts", List.of(part)),
            "finishReason",
            "STOP",
            "index",
            0);
    return Json.write(
        Map.of(
            "method",
            "generateContentStream",
            "response",
            List.of(Map.of("candidates", List.of(candidate)))),
        false);
  }

  /**
   * The text of every {@code <hook_context>} part of the user messages Gemini recorded in its
   * session files under the test's home, in order.
   */
  private List<String> hookContexts(HookTestStore store) throws Exception {
    Path recorded = Path.of(store.env().get("HOME"), ".gemini");
    List<String> contexts = new ArrayList<>();
    Pattern context = Pattern.compile("<hook_context>(.*?)</hook_context>", Pattern.DOTALL);
    try (Stream<Path> files = Files.walk(recorded)) {
      for (Path file : files.filter(path -> path.toString().contains("chats")).sorted().toList()) {
        if (Files.isRegularFile(file)) {
          Matcher found = context.matcher(Files.readString(file));
          while (found.find()) {
            contexts.add(found.group(1));
          }
        }
      }
    }
    return contexts;
  }

  /**
   * A workspace ({@code notes.txt}) whose runtime's hooks {@code hooks install --workspace} put
   * there, the test store's service started behind them; closing it stops the service and checks
   * that nothing outside the workspace changed.
   */
  private static final class HookedWorkspace implements AutoCloseable {

    final TestWorkspace workspace;
    final Path root;
    final HookTestStore store;
    final TurnEvidence evidence;

    HookedWorkspace(Path temp, String runtime) throws Exception {
      workspace = TestWorkspace.in(temp.resolve("w")).file("notes.txt", "alpha\n");
      root = workspace.root();
      store = HookTestStore.in(temp);
      evidence = new TurnEvidence(store.env(), store.database(), temp, workspace.canary());
      try {
        store.startService();
        store.installHooks(runtime, "--workspace", root.toString());
      } catch (Exception e) {
        store.close(); // the service may have started
        throw e;
      }
    }

    /**
     * What the user does between the two prompts: {@code turndiff rewind} of the session's one
     * finished turn, which restores both paths the first prompt changed.
     */
    void rewindTheFirstPrompt(String session) throws Exception {
      String first = evidence.finishedTurns(session, 1).getFirst();
      evidence.rewind(first, Set.of("hello.txt", "notes.txt"), Set.of(), Set.of());
      assertFalse(Files.exists(root.resolve("hello.txt")));
    }

    @Override
    public void close() throws Exception {
      store.close();
      workspace.assertOutsideUnchanged();
    }
  }
}
