package io.turndiff.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.boundary.Portability;
import io.turndiff.boundary.WorkspacePolicy;
import io.turndiff.capture.track.TrackingOptions;
import io.turndiff.capture.track.WatchOptions;
import io.turndiff.fixtures.RawHttp;
import io.turndiff.fixtures.RecordedChanges;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.fixtures.TreeContent;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.Reason;
import io.turndiff.model.RuntimeProcess;
import io.turndiff.model.Snapshot;
import io.turndiff.model.TurnState;
import io.turndiff.ownfiles.Proc;
import io.turndiff.rewind.RewindReport;
import io.turndiff.rewind.RewindRequest;
import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredHookSighting;
import io.turndiff.store.StoredTurn;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code POST /v1/hooks/RUNTIME} over a real store, a real tracked workspace and the HTTP service
 * on a loopback port: every scenario of {@code integrations/fixtures/scenarios.json} replayed with
 * the runtimes' own payloads as their bytes (Claude Code shaped per its documentation and SDK
 * types, Gemini, Codex and OpenCode as recorded; {@code SOURCES.md} names each), the tools' effects
 * done to the workspace between them, each step's status and outcome checked, then the store as the
 * scenario's {@code then} says. Refused bodies (the garbage fixtures, {@code *.invalid.json}) write
 * nothing: the store files stay byte-identical. Every scenario ends with the canary check.
 */
class HookEndpointsTest {

  private static final String TOKEN = "test-token-0123456789abcdef";
  private static final Duration ANSWER_WITHIN = Duration.ofSeconds(60);
  private static final Path FIXTURES = Path.of("..", "integrations", "fixtures");

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Turndiff turndiff;
  private HttpService service;
  private final List<String> answers = new ArrayList<>();

  @AfterEach
  void tearDown() {
    if (service != null) {
      service.stop();
      turndiff.close();
      workspace.assertOutsideUnchanged();
      workspace.canary().assertNotInStoreFiles(TestStore.fileIn(temp));
      answers.forEach(answer -> workspace.canary().assertNotIn("a hook answer", answer));
    }
  }

  // ---- the scenarios

  static Stream<String> scenarios() throws IOException {
    List<String> names = new ArrayList<>();
    scenarioFile().get("scenarios").forEach(scenario -> names.add(scenario.get("name").asText()));
    return names.stream();
  }

  private static JsonNode scenarioFile() throws IOException {
    return Json.mapper().readTree(FIXTURES.resolve("scenarios.json").toFile());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void replay(String name) throws Exception {
    JsonNode scenario = null;
    for (JsonNode candidate : scenarioFile().get("scenarios")) {
      if (candidate.get("name").asText().equals(name)) {
        scenario = candidate;
      }
    }
    assertNotNull(scenario, name);
    Replay replay = new Replay(scenario);
    replay.run();
    Consumer<Replay> then = expectations.get(name);
    assertNotNull(then, "the test checks what scenario " + name + " says the store shows");
    then.accept(replay);
    workspace.canary().assertNotInStore(turndiff.store());
  }

  /** One scenario: the workspace laid out and tracked, then each step in order. */
  private final class Replay {
    final JsonNode scenario;
    final String runtime;
    final String recordedWorkspace;
    final Map<String, String> setupTree;

    Replay(JsonNode scenario) {
      this.scenario = scenario;
      this.runtime = scenario.get("runtime").asText();
      this.recordedWorkspace = scenario.get("workspace").asText();
      workspace = TestWorkspace.in(temp.resolve("base"));
      for (Map.Entry<String, JsonNode> entry : scenario.get("setup").properties()) {
        JsonNode value = entry.getValue();
        if (value.isTextual()) {
          workspace.file(entry.getKey(), value.asText());
        } else if (value.isObject()) {
          assertEquals("<outside>", value.get("link").asText());
          workspace.symlink(entry.getKey(), workspace.outside().toString());
        }
      }
      startService();
      // as hooks install does: the workspace is tracked, so the finish scan sees shell changes
      turndiff.capture().tracker().track(workspace.root(), TrackingOptions.DEFAULTS);
      setupTree = TreeContent.of(workspace.root());
    }

    void run() throws Exception {
      for (JsonNode step : scenario.get("steps")) {
        if (step.has("effect")) {
          Effect effect = EFFECTS.get(runtime + ": " + step.get("effect").asText());
          assertNotNull(effect, "the test does the effect '" + step.get("effect").asText() + "'");
          effect.apply(workspace);
          continue;
        }
        String fixture = step.get("post").asText();
        byte[] body = fixture(fixture, recordedWorkspace, workspace.root());
        if (step.has("status")) {
          assertRefused(
              runtime, body, step.get("status").asInt(), step.get("error").asText(), fixture);
          continue;
        }
        RawHttp.Response answer = post(runtime, body);
        assertEquals(204, answer.status(), fixture + ": " + answer.head() + "\n" + answer.body());
        assertEquals("", answer.body(), fixture);
        assertEquals(step.get("expect").asText(), header(answer, "Turndiff-Hook-Outcome"), fixture);
        if (step.has("turn")) {
          assertEquals(step.get("turn").asText(), header(answer, "Turndiff-Hook-Turn"), fixture);
        }
      }
    }
  }

  // ---- what each scenario leaves in the store

  private static final String CODEX_SESSION = "codex:01a22c16-ec5e-7b40-8390-e82f84f74cdc";
  private static final String CODEX_TURN = "codex:01a22c16-ecba-72b3-b9bf-386121332e1f";
  private static final String GEMINI_SESSION = "gemini:d2f57fa9-3145-4742-8537-8222f53d18d3";
  private static final String CLAUDE_SESSION = "claude-code:8a1c2f0e-5b7d-4e63-9f21-3c4d5e6f7a80";
  private static final String CLAUDE_TURN = "claude-code:550e8400-e29b-41d4-a716-446655440000";
  private static final String OPENCODE_SESSION = "opencode:ses_dd3e1cfb8ffeINY8lt5uJdeNEn";

  private final Map<String, Consumer<Replay>> expectations = then();

  private Map<String, Consumer<Replay>> then() {
    Map<String, Consumer<Replay>> then = new HashMap<>();
    then.put(
        "codex-recorded-run",
        replay -> {
          assertEquals(
              List.of(CODEX_TURN, "codex:01a22c17-41da-7b83-9718-cef0754d15ca"),
              finishedTurns(CODEX_SESSION));
          assertChanges(
              CODEX_TURN,
              Map.of(
                  "new.txt", "added snapshot",
                  "existing.txt", "modified snapshot",
                  "old_name.txt", "deleted snapshot",
                  "new_name.txt", "unchanged snapshot",
                  "gone.txt", "deleted snapshot",
                  "sub/multi.txt", "added snapshot"));
          assertChanges(
              "codex:01a22c17-41da-7b83-9718-cef0754d15ca",
              Map.of("sub/multi.txt", "modified scan"));
          RewindReport report =
              turndiff
                  .rewind()
                  .rewind(new RewindRequest(CODEX_TURN, true, Optional.empty(), false, false));
          assertTrue(report.complete(), report.toString());
          assertEquals(replay.setupTree, TreeContent.of(workspace.root()));
        });
    then.put(
        "codex-missing-user-prompt-submit",
        replay -> {
          assertEquals(List.of(CODEX_TURN), finishedTurns(CODEX_SESSION));
          assertChanges(CODEX_TURN, Map.of("existing.txt", "modified snapshot"));
        });
    then.put(
        "codex-bash-only-turn",
        replay -> {
          assertEquals(List.of(CODEX_TURN), finishedTurns(CODEX_SESSION));
          assertChanges(CODEX_TURN, Map.of("existing.txt", "modified scan"));
        });
    then.put(
        "codex-bash-only-turn-without-user-prompt-submit",
        replay -> {
          assertEquals(List.of(CODEX_TURN), finishedTurns(CODEX_SESSION));
          assertChanges(CODEX_TURN, Map.of("existing.txt", "modified scan"));
        });
    then.put(
        "codex-duplicate-deliveries",
        replay -> {
          assertEquals(List.of(CODEX_TURN), finishedTurns(CODEX_SESSION));
          assertChanges(CODEX_TURN, Map.of("existing.txt", "modified snapshot"));
          assertEquals(List.of("call_upd"), changes(CODEX_TURN).get("existing.txt").toolCalls());
        });
    then.put(
        "codex-apply_patch-through-the-shell",
        replay -> {
          String turn = "codex:01a22c19-35c7-7392-88a5-9c54c204bc2d";
          assertEquals(List.of(turn), finishedTurns("codex:01a22c19-354b-77d0-aa6b-d9851da9781c"));
          assertChanges(turn, Map.of("via_shell.txt", "added snapshot"));
        });
    then.put(
        "codex-every-apply_patch-operation",
        replay -> {
          Map<String, String> expected = new TreeMap<>();
          for (String fixture :
              List.of(
                  "codex/PreToolUse.apply_patch.all-ops.synthetic.json",
                  "codex/PreToolUse.apply_patch.lenient.synthetic.json",
                  "codex/PreToolUse.apply_patch.heredoc-argument.synthetic.json",
                  "codex/PreToolUse.apply_patch.invalid.synthetic.json")) {
            patchPaths(fixture).forEach(path -> expected.put(path, "unchanged snapshot"));
          }
          assertChanges(CODEX_TURN, expected);
          assertInstanceOf(
              Snapshot.Absent.class, changes(CODEX_TURN).get("spaced name.txt").before());
        });
    then.put("codex-link-out", replay -> assertLinkOut(CODEX_TURN));
    then.put("codex-refused-bodies", replay -> assertNothingWritten());
    then.put(
        "gemini-recorded-run",
        replay -> {
          assertEquals(
              List.of(GEMINI_SESSION + ":1", GEMINI_SESSION + ":2"), finishedTurns(GEMINI_SESSION));
          assertChanges(
              GEMINI_SESSION + ":1",
              Map.of("a.txt", "added snapshot", "sub/b.txt", "unchanged snapshot"));
          assertInstanceOf(
              Snapshot.Absent.class, changes(GEMINI_SESSION + ":1").get("sub/b.txt").before());
          assertChanges(GEMINI_SESSION + ":2", Map.of("a.txt", "unchanged snapshot"));
          // each file names the runtime's tools that changed it, in the order of the calls
          Map<String, List<String>> tools = toolsShown(GEMINI_SESSION + ":1");
          assertEquals(List.of("write_file", "replace"), tools.get("a.txt"), tools.toString());
        });
    then.put(
        "gemini-missing-before-agent",
        replay -> {
          assertEquals(List.of(GEMINI_SESSION + ":1"), finishedTurns(GEMINI_SESSION));
          assertChanges(GEMINI_SESSION + ":1", Map.of("a.txt", "added snapshot"));
        });
    then.put(
        "gemini-bash-only-turn",
        replay -> {
          assertEquals(List.of(GEMINI_SESSION + ":1"), finishedTurns(GEMINI_SESSION));
          assertChanges(GEMINI_SESSION + ":1", Map.of("a.txt", "modified scan"));
        });
    then.put(
        "gemini-duplicate-deliveries",
        replay -> {
          assertEquals(List.of(GEMINI_SESSION + ":1"), finishedTurns(GEMINI_SESSION));
          assertChanges(GEMINI_SESSION + ":1", Map.of("a.txt", "added snapshot"));
        });
    then.put(
        "claude-code-documented-turn",
        replay -> {
          assertEquals(List.of(CLAUDE_TURN), finishedTurns(CLAUDE_SESSION));
          assertChanges(
              CLAUDE_TURN,
              Map.of(
                  "src/new.ts", "added snapshot",
                  "src/app.ts", "modified snapshot",
                  "analysis.ipynb", "modified snapshot",
                  "src/util.ts", "modified scan"));
          assertEquals(
              List.of("toolu_01A2", "toolu_01A3"),
              changes(CLAUDE_TURN).get("src/app.ts").toolCalls());
          Map<String, List<String>> tools = toolsShown(CLAUDE_TURN);
          assertEquals(List.of("Write"), tools.get("src/new.ts"), tools.toString());
          assertEquals(List.of("Edit", "MultiEdit"), tools.get("src/app.ts"), tools.toString());
          assertEquals(List.of("NotebookEdit"), tools.get("analysis.ipynb"), tools.toString());
        });
    then.put(
        "claude-code-missing-user-prompt-submit",
        replay -> {
          assertEquals(List.of(CLAUDE_TURN), finishedTurns(CLAUDE_SESSION));
          assertChanges(CLAUDE_TURN, Map.of("src/new.ts", "added snapshot"));
        });
    then.put(
        "claude-code-no-prompt-id",
        replay -> {
          assertEquals(List.of(CLAUDE_SESSION + ":1"), finishedTurns(CLAUDE_SESSION));
          assertChanges(CLAUDE_SESSION + ":1", Map.of("src/new.ts", "added snapshot"));
        });
    then.put(
        "claude-code-continuation-after-stop",
        replay -> {
          assertEquals(List.of(CLAUDE_TURN, CLAUDE_TURN + "+2"), finishedTurns(CLAUDE_SESSION));
          assertChanges(CLAUDE_TURN, Map.of());
          assertChanges(CLAUDE_TURN + "+2", Map.of("src/app.ts", "modified snapshot"));
        });
    then.put(
        "claude-code-interrupted-turn",
        replay -> {
          assertEquals(List.of(CLAUDE_TURN), finishedTurns(CLAUDE_SESSION));
          assertChanges(CLAUDE_TURN, Map.of("src/new.ts", "added snapshot"));
        });
    then.put(
        "claude-code-subagent",
        replay -> {
          assertEquals(List.of(CLAUDE_TURN), finishedTurns(CLAUDE_SESSION));
          assertChanges(CLAUDE_TURN, Map.of("src/from-subagent.ts", "added snapshot"));
        });
    then.put("claude-code-link-out", replay -> assertLinkOut(CLAUDE_TURN));
    then.put(
        "claude-code-duplicate-deliveries",
        replay -> {
          assertEquals(List.of(CLAUDE_TURN), finishedTurns(CLAUDE_SESSION));
          assertChanges(CLAUDE_TURN, Map.of("src/new.ts", "added snapshot"));
        });
    then.put("claude-code-refused-bodies", replay -> assertNothingWritten());
    then.put(
        "opencode-recorded-run",
        replay -> {
          String first = "opencode:msg_22c1e32f7001tacuOEqpq6QbvI";
          String second = "opencode:msg_22c1f16520018HpxmMNRYLYABH";
          assertEquals(List.of(first, second), finishedTurns(OPENCODE_SESSION));
          // new.txt was written, then moved away by the shell: absent before and after
          assertChanges(
              first,
              Map.of(
                  "new.txt", "unchanged snapshot",
                  "sub/rel.txt", "added snapshot",
                  "existing.txt", "modified snapshot",
                  "moved.txt", "added scan",
                  "gone.txt", "deleted scan"));
          assertChanges(second, Map.of("existing.txt", "modified snapshot"));
        });
    then.put(
        "opencode-missing-chat-message",
        replay -> {
          List<StoredTurn> turns = turns("opencode:ses_dd3e050bdffee2jKhbl5xsFN6Y");
          assertEquals(1, turns.size());
          assertEquals(TurnState.OPEN, turns.getFirst().state());
          Map<String, StoredFileChange> recorded = changes(turns.getFirst().externalId());
          assertEquals(Set.of("ap_new.txt", "p1.txt", "moved.txt"), recorded.keySet());
        });
    return then;
  }

  private List<StoredTurn> turns(String session) {
    return turndiff
        .store()
        .read(
            tx ->
                tx.sessions()
                    .byExternalId(session)
                    .map(stored -> tx.turns().ofSession(stored.id()))
                    .orElse(List.of()));
  }

  /** The ids of the session's turns, in order; each must be finished. */
  private List<String> finishedTurns(String session) {
    List<StoredTurn> turns = turns(session);
    for (StoredTurn turn : turns) {
      assertEquals(TurnState.FINISHED, turn.state(), turn.externalId());
    }
    return turns.stream().map(StoredTurn::externalId).toList();
  }

  private Map<String, StoredFileChange> changes(String turn) {
    Map<String, StoredFileChange> changes = new TreeMap<>();
    for (StoredFileChange change : RecordedChanges.of(turndiff.store(), turn)) {
      changes.put(change.path().display(), change);
    }
    return changes;
  }

  /** The {@code tools} of each file record of the turn's HTTP view, by path. */
  private Map<String, List<String>> toolsShown(String turn) {
    RawHttp.Response answer =
        RawHttp.request(
            service.port(),
            "GET",
            "/v1/turns/" + turn,
            null,
            ANSWER_WITHIN,
            "Authorization: Bearer " + TOKEN);
    assertEquals(200, answer.status(), answer.body());
    Map<String, List<String>> tools = new TreeMap<>();
    try {
      for (JsonNode file : Json.mapper().readTree(answer.body()).get("files")) {
        List<String> names = new ArrayList<>();
        file.get("tools").forEach(tool -> names.add(tool.asText()));
        tools.put(file.get("path").asText(), names);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return tools;
  }

  /** The turn recorded exactly these paths, each as {@code "<change> <detected_by>"}. */
  private void assertChanges(String turn, Map<String, String> expected) {
    Map<String, String> actual = new TreeMap<>();
    changes(turn)
        .forEach(
            (path, change) ->
                actual.put(
                    path,
                    change.change().map(ChangeKind::code).orElse("open")
                        + " "
                        + change.detectedBy().code()));
    assertEquals(new TreeMap<>(expected), actual, "what turn " + turn + " recorded");
  }

  /** A file reached through a link to the outside: its metadata only, never its bytes. */
  private void assertLinkOut(String turn) {
    Map<String, StoredFileChange> recorded = changes(turn);
    assertEquals(1, recorded.size(), recorded.toString());
    StoredFileChange change = recorded.values().iterator().next();
    Snapshot.MetadataOnly before = assertInstanceOf(Snapshot.MetadataOnly.class, change.before());
    assertEquals(Reason.ESCAPES_WORKSPACE, before.why());
    assertEquals(Optional.of(ChangeKind.UNKNOWN), change.change());
    assertFalse(change.restorable());
  }

  private void assertNothingWritten() {
    StoreRows.count(TestStore.fileIn(temp))
        .forEach(
            (table, rows) -> {
              if (!table.equals("workspace")) {
                assertEquals(0L, rows, table + " (the tracked workspace is the only row)");
              }
            });
  }

  private static List<String> patchPaths(String fixture) {
    try {
      JsonNode expected =
          Json.mapper().readTree(FIXTURES.resolve("apply_patch.paths.json").toFile());
      List<String> paths = new ArrayList<>();
      expected.get("fixtures").get(fixture).get("paths").forEach(path -> paths.add(path.asText()));
      return paths;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ---- the tools' effects

  @FunctionalInterface
  private interface Effect {
    void apply(TestWorkspace workspace) throws IOException;
  }

  private static final Map<String, Effect> EFFECTS = effects();

  private static Map<String, Effect> effects() {
    Map<String, Effect> effects = new HashMap<>();
    effects.put(
        "codex: create new.txt with \"hello\\nworld\\n\"",
        ws -> ws.file("new.txt", "hello\nworld\n"));
    effects.put(
        "codex: existing.txt becomes \"base changed\\n\"",
        ws -> ws.file("existing.txt", "base changed\n"));
    effects.put(
        "codex: old_name.txt renamed to new_name.txt, content \"moved\\n\"",
        ws -> {
          Files.move(ws.resolve("old_name.txt"), ws.resolve("new_name.txt"));
          ws.file("new_name.txt", "moved\n");
        });
    effects.put("codex: delete gone.txt", ws -> Files.delete(ws.resolve("gone.txt")));
    effects.put(
        "codex: create sub/multi.txt \"m1\\n\"; new.txt becomes \"hello\\nWORLD\\n\"",
        ws -> ws.file("sub/multi.txt", "m1\n").file("new.txt", "hello\nWORLD\n"));
    effects.put(
        "codex: sed -i 's/changed/CHANGED/' existing.txt",
        ws -> shell(ws, ".", "sed -i 's/changed/CHANGED/' existing.txt"));
    effects.put(
        "codex: mv new_name.txt renamed.txt && rm renamed.txt",
        ws -> shell(ws, ".", "mv new_name.txt renamed.txt && rm renamed.txt"));
    effects.put(
        "codex: echo second >> sub/multi.txt",
        ws -> shell(ws, ".", "echo second >> sub/multi.txt"));
    effects.put(
        "codex: create via_shell.txt \"v\\n\" (Codex fires no PostToolUse for it)",
        ws -> ws.file("via_shell.txt", "v\n"));
    effects.put("gemini: create a.txt \"one\\ntwo\\n\"", ws -> ws.file("a.txt", "one\ntwo\n"));
    effects.put("gemini: create sub/b.txt \"bee\\n\"", ws -> ws.file("sub/b.txt", "bee\n"));
    effects.put("gemini: a.txt becomes \"one\\nTWO\\n\"", ws -> ws.file("a.txt", "one\nTWO\n"));
    effects.put(
        "gemini: sed -i 's/one/ONE/' a.txt", ws -> shell(ws, ".", "sed -i 's/one/ONE/' a.txt"));
    effects.put(
        "gemini: in sub/: mv b.txt c.txt && rm c.txt",
        ws -> shell(ws, "sub", "mv b.txt c.txt && rm c.txt"));
    effects.put(
        "gemini: the replace fails (no \"uno\" in a.txt in this replay); nothing changes",
        ws -> {});
    effects.put(
        "claude-code: create src/new.ts", ws -> ws.file("src/new.ts", "export const bar = 1;\n"));
    effects.put(
        "claude-code: create src/from-subagent.ts",
        ws -> ws.file("src/from-subagent.ts", "export const fromSubagent = true;\n"));
    effects.put(
        "claude-code: src/app.ts: foo -> bar on line 1",
        ws -> ws.file("src/app.ts", ws.readText("src/app.ts").replaceFirst("foo", "bar")));
    effects.put(
        "claude-code: src/app.ts: console.log(foo) -> console.log(bar)",
        ws ->
            ws.file(
                "src/app.ts",
                ws.readText("src/app.ts").replace("console.log(foo)", "console.log(bar)")));
    effects.put(
        "claude-code: analysis.ipynb rewritten",
        ws -> ws.file("analysis.ipynb", "{\"cells\": [{\"source\": \"print(\\\"hi\\\")\"}]}\n"));
    effects.put(
        "claude-code: sed -i s/foo/bar/g src/util.ts (the git mv then fails: src/new.ts exists)",
        ws -> shell(ws, ".", "sed -i s/foo/bar/g src/util.ts"));
    effects.put("opencode: create new.txt \"hello\\n\"", ws -> ws.file("new.txt", "hello\n"));
    effects.put("opencode: create sub/rel.txt \"rel\\n\"", ws -> ws.file("sub/rel.txt", "rel\n"));
    effects.put("opencode: existing.txt: base -> BASE", ws -> ws.file("existing.txt", "BASE\n"));
    effects.put(
        "opencode: sed -i 's/BASE/based/' existing.txt",
        ws -> shell(ws, ".", "sed -i 's/BASE/based/' existing.txt"));
    effects.put(
        "opencode: mv new.txt moved.txt && rm gone.txt",
        ws -> shell(ws, ".", "mv new.txt moved.txt && rm gone.txt"));
    effects.put(
        "opencode: existing.txt: based -> based2", ws -> ws.file("existing.txt", "based2\n"));
    effects.put(
        "opencode: apply the patch: ap_new.txt added, p1.txt changed, moved.txt deleted",
        ws -> {
          ws.file("ap_new.txt", "ap\n").file("p1.txt", "P1 patched\n");
          Files.delete(ws.resolve("moved.txt"));
        });
    return effects;
  }

  /**
   * A shell command run in {@code directory} of the workspace, as the runtime's shell tool does.
   */
  private static void shell(TestWorkspace ws, String directory, String command) {
    TestWorkspace.run("sh", "-c", "cd '" + ws.resolve(directory) + "' && " + command);
  }

  // ---- refused bodies and the edges of the endpoint

  static Stream<String> garbage() throws IOException {
    try (Stream<Path> files = Files.list(FIXTURES.resolve("garbage"))) {
      return files.map(path -> path.getFileName().toString()).sorted().toList().stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("garbage")
  void aBodyThatIsNotAHookPayloadIsRefusedAndWritesNothing(String name) throws Exception {
    workspace = TestWorkspace.in(temp.resolve("base"));
    startService();
    byte[] body = Files.readAllBytes(FIXTURES.resolve("garbage").resolve(name));
    for (String runtime : List.of("claude-code", "gemini", "codex", "opencode")) {
      assertRefused(runtime, body, 400, "bad_request", name);
    }
    assertEquals(
        0L, StoreRows.count(TestStore.fileIn(temp)).values().stream().mapToLong(n -> n).sum());
  }

  @Test
  void hookEndpointsTakeTheBearerTokenAndKnownRuntimesOnly() throws Exception {
    workspace = TestWorkspace.in(temp.resolve("base"));
    startService();
    byte[] body = fixture("codex/UserPromptSubmit.json", "/tmp/cdx/exp/ws", workspace.root());
    RawHttp.Response noToken =
        RawHttp.exchange(service.port(), head("codex", body.length, ""), body, ANSWER_WITHIN);
    assertEquals(401, noToken.status(), noToken.head());
    RawHttp.Response unknown = post("cline", body);
    assertEquals(404, unknown.status(), unknown.head());
    assertTrue(unknown.body().contains("claude-code, codex, gemini, opencode"), unknown.body());
    RawHttp.Response badQuery = post("codex?root=svn", body);
    assertEquals(400, badQuery.status(), badQuery.body());
    assertTrue(badQuery.body().contains("root"), badQuery.body());
    assertNothingWrittenAtAll();
    RawHttp.Response accepted = post("codex?root=git&track=auto", body);
    assertEquals(204, accepted.status(), accepted.head() + accepted.body());
    assertEquals("begun", header(accepted, "Turndiff-Hook-Outcome"));
  }

  @Test
  void aFailureIsAnOutcomeNotAnErrorAndTheTurnGoesOnAfterIt() throws Exception {
    workspace = TestWorkspace.in(temp.resolve("base")).file("existing.txt", "base\n");
    startService();
    // the runtime's directory does not exist: the begin fails, the runtime still gets 204
    byte[] missing =
        fixture("codex/UserPromptSubmit.json", "/tmp/cdx/exp/ws", workspace.root().resolve("gone"));
    RawHttp.Response failed = post("codex", missing);
    assertEquals(204, failed.status(), failed.body());
    assertEquals("", failed.body());
    assertEquals("failed", header(failed, "Turndiff-Hook-Outcome"));
    assertEquals("workspace", header(failed, "Turndiff-Hook-Error"));
    assertNothingWrittenAtAll();
    // the same session's next call, from a directory that exists, begins the turn
    RawHttp.Response snapshot =
        post(
            "codex",
            fixture(
                "codex/PreToolUse.apply_patch.update.json", "/tmp/cdx/exp/ws", workspace.root()));
    assertEquals("begun,snapshotted", header(snapshot, "Turndiff-Hook-Outcome"));
    assertEquals(CODEX_TURN, header(snapshot, "Turndiff-Hook-Turn"));
    assertEquals(400, post("codex", "[]".getBytes(StandardCharsets.UTF_8)).status());

    // service status counts them, and keeps the failure
    RawHttp.Response status =
        RawHttp.request(
            service.port(),
            "GET",
            "/v1/service/status",
            null,
            ANSWER_WITHIN,
            "Authorization: Bearer " + TOKEN);
    assertEquals(200, status.status(), status.body());
    JsonNode answer = Json.mapper().readTree(status.body());
    JsonNode codex = answer.get("hooks").get("codex");
    assertEquals(3, codex.get("received").asLong(), codex.toString());
    assertEquals(1, codex.get("failed").asLong(), codex.toString());
    assertEquals(1, codex.get("begun").asLong(), codex.toString());
    assertEquals(1, codex.get("snapshotted").asLong(), codex.toString());
    assertEquals(1, codex.get("refused").asLong(), codex.toString());
    assertEquals(0, answer.get("hooks").get("gemini").get("received").asLong());
    JsonNode failure = answer.get("last_failures").get(0);
    assertEquals("workspace", failure.get("error").asText(), failure.toString());
    assertEquals("UserPromptSubmit", failure.get("event").asText(), failure.toString());
    assertEquals(1, answer.get("last_failures").size());
  }

  @Test
  void aNewPromptFinishesATurnItsStopWasLostFor() throws Exception {
    workspace = TestWorkspace.in(temp.resolve("base")).file("existing.txt", "base\n");
    startService();
    turndiff.capture().tracker().track(workspace.root(), TrackingOptions.DEFAULTS);
    post("codex", fixture("codex/UserPromptSubmit.json", "/tmp/cdx/exp/ws", workspace.root()));
    workspace.file("existing.txt", "changed by a shell command\n");
    RawHttp.Response second =
        post(
            "codex",
            fixture(
                "codex/UserPromptSubmit.resumed-second-prompt.json",
                "/tmp/cdx/exp/ws",
                workspace.root()));
    assertEquals("finished,begun", header(second, "Turndiff-Hook-Outcome"));
    assertEquals(
        List.of(CODEX_TURN, "codex:01a22c17-41da-7b83-9718-cef0754d15ca"),
        turns(CODEX_SESSION).stream().map(StoredTurn::externalId).toList());
    assertChanges(CODEX_TURN, Map.of("existing.txt", "modified scan"));
  }

  // ---- the prompt that made a turn (issue 22 item 5)

  /**
   * Claude Code's and Codex's UserPromptSubmit and Gemini's BeforeAgent carry the prompt (their
   * recorded payloads): a local store keeps each as its turn's, its bytes in the store's files.
   */
  @Test
  void eachRuntimesPromptHookKeepsThePromptAsItsTurns() throws Exception {
    workspace = TestWorkspace.in(temp.resolve("base")).file("a.txt", "a\n");
    startService();
    post(
        "claude-code",
        fixture("claude-code/UserPromptSubmit.json", "/home/user/my-project", workspace.root()));
    post("codex", fixture("codex/UserPromptSubmit.json", "/tmp/cdx/exp/ws", workspace.root()));
    byte[] gemini = fixture("gemini/BeforeAgent.json", "/tmp/gem/exp/ws2", workspace.root());
    assertEquals(
        "begun",
        header(
            post("gemini", replace(gemini, bytes("do prompt one"), bytes("gemini's prompt"))),
            "Turndiff-Hook-Outcome"));
    String geminiTurn = "gemini:d2f57fa9-3145-4742-8537-8222f53d18d3:1";
    assertEquals(
        Map.of(
            CLAUDE_TURN, Optional.of("Rename foo to bar in src/app.ts and run the tests"),
            CODEX_TURN, Optional.of("do prompt one"),
            geminiTurn, Optional.of("gemini's prompt")),
        Map.of(
            CLAUDE_TURN, promptOf(CLAUDE_TURN),
            CODEX_TURN, promptOf(CODEX_TURN),
            geminiTurn, promptOf(geminiTurn)));
    assertTrue(inStoreFiles("gemini's prompt"), "the check below sees a kept prompt's bytes");
  }

  /**
   * A store whose setting is {@code prompts=none} ({@code hooks install --no-prompts}, {@code
   * config --prompts none}) keeps none: the turn begins, and the prompt's bytes are nowhere in the
   * database file or its write-ahead log.
   */
  @Test
  void aStoreThatKeepsNoPromptsHasNoBytesOfThem() throws Exception {
    workspace = TestWorkspace.in(temp.resolve("base")).file("a.txt", "a\n");
    startService();
    turndiff
        .store()
        .write(
            tx -> {
              tx.prompts().keep(false);
              return null;
            });
    String secret = "deploy with token tdp-0f3a9c1e77b2";
    byte[] body =
        fixture("claude-code/UserPromptSubmit.json", "/home/user/my-project", workspace.root());
    body = replace(body, bytes("Rename foo to bar in src/app.ts and run the tests"), bytes(secret));
    assertEquals("begun", header(post("claude-code", body), "Turndiff-Hook-Outcome"));
    assertEquals(Optional.empty(), promptOf(CLAUDE_TURN));
    assertFalse(inStoreFiles(secret), "the prompt's bytes in the store files");
    assertFalse(inStoreFiles("tdp-0f3a9c1e77b2"), "the prompt's token in the store files");
  }

  private Optional<String> promptOf(String turn) {
    return turndiff
        .store()
        .read(tx -> tx.prompts().of(tx.turns().byExternalId(turn).orElseThrow().id()));
  }

  private boolean inStoreFiles(String text) throws IOException {
    byte[] needle = bytes(text);
    for (byte[] file : storeFiles().values()) {
      for (int at = 0; at < file.length; at++) {
        if (startsAt(file, at, needle)) {
          return true;
        }
      }
    }
    return false;
  }

  // ---- two sessions in one workspace (issue 27)

  /**
   * Claude Code's recorded {@code fixture} as session {@code session} and prompt {@code prompt}.
   */
  private byte[] claudeAs(String fixture, String session, String prompt) throws IOException {
    byte[] body = fixture("claude-code/" + fixture, "/home/user/my-project", workspace.root());
    body = replace(body, bytes("8a1c2f0e-5b7d-4e63-9f21-3c4d5e6f7a80"), bytes(session));
    body = replace(body, bytes("550e8400-e29b-41d4-a716-446655440000"), bytes(prompt));
    return replace(body, bytes("toolu_01A5"), bytes("toolu_" + session));
  }

  /**
   * Issue 21, item 8, over HTTP: a prompt's begin answers {@code 204} with no body when all is
   * well; after the session's last turn was rewound, {@code 200} with the note in the form the
   * runtime takes into the model's context: Claude Code's {@code UserPromptSubmit} the plain line,
   * Gemini's {@code BeforeAgent} its JSON {@code hookSpecificOutput.additionalContext}. Claude's
   * shell call came with its tool hooks; Gemini's change came with none, so its note also says that
   * hook calls did not arrive.
   */
  @Test
  void aPromptAfterItsSessionsLastTurnWasRewoundIsAnsweredWithTheNoteInTheRuntimesForm()
      throws Exception {
    workspace =
        TestWorkspace.in(temp.resolve("base"))
            .file("a.txt", "a before\n")
            .file("b.txt", "b before\n");
    startService();
    turndiff.capture().tracker().track(workspace.root(), TrackingOptions.DEFAULTS);
    String rewound =
        "your previous turn was rewound since it ended: 1 restored, 0 merged, 0 skipped; the files"
            + " are as the rewind left them, not as your previous turn left them";

    RawHttp.Response first = post("claude-code", claudeAs("UserPromptSubmit.json", "s", "p1"));
    assertEquals(204, first.status(), "all is well: " + first.head() + first.body());
    assertEquals("", first.body());
    post("claude-code", claudeAs("PreToolUse.Bash.json", "s", "p1"));
    shell(workspace, ".", "echo claude > a.txt");
    post("claude-code", claudeAs("PostToolUse.Bash.json", "s", "p1"));
    post("claude-code", claudeAs("Stop.json", "s", "p1"));
    rewindWhole("claude-code:p1", "a.txt", "a before\n");
    RawHttp.Response claude = post("claude-code", claudeAs("UserPromptSubmit.json", "s", "p2"));
    assertEquals(200, claude.status(), claude.head() + claude.body());
    assertTrue(header(claude, "Content-Type").startsWith("text/plain"), claude.head());
    assertTrue(claude.body().strip().endsWith(": " + rewound + "."), claude.body());
    assertFalse(claude.body().strip().contains("\n"), "one line: " + claude.body());
    // Claude's second prompt ends before Gemini's begins: an open turn would share Gemini's change
    post("claude-code", claudeAs("Stop.json", "s", "p2"));

    String recorded = "/tmp/gem/exp/ws2";
    RawHttp.Response begun =
        post("gemini", fixture("gemini/BeforeAgent.json", recorded, workspace.root()));
    assertEquals(204, begun.status(), "all is well: " + begun.head() + begun.body());
    shell(workspace, ".", "echo gemini > b.txt");
    post("gemini", fixture("gemini/AfterAgent.json", recorded, workspace.root()));
    rewindWhole(header(begun, "Turndiff-Hook-Turn"), "b.txt", "b before\n");
    RawHttp.Response gemini =
        post(
            "gemini",
            fixture("gemini/BeforeAgent.resumed-second-prompt.json", recorded, workspace.root()));
    assertEquals(200, gemini.status(), gemini.head() + gemini.body());
    assertTrue(header(gemini, "Content-Type").startsWith("application/json"), gemini.head());
    JsonNode output = Json.mapper().readTree(gemini.body()).get("hookSpecificOutput");
    assertEquals("BeforeAgent", output.get("hookEventName").asText(), gemini.body());
    assertTrue(
        output
            .get("additionalContext")
            .asText()
            .contains(
                ": "
                    + rewound
                    + "; some hook calls did not arrive: a prompt changed 1 file and no tool call"
                    + " hook of it arrived"),
        gemini.body());
  }

  /** Rewinds {@code turn}, which changed only {@code path}, and checks it is back as it was. */
  private void rewindWhole(String turn, String path, String before) throws IOException {
    RewindReport report =
        turndiff.rewind().rewind(new RewindRequest(turn, false, Optional.empty(), false, false));
    assertEquals(before, Files.readString(workspace.resolve(path)), report.toString());
  }

  /**
   * Two Claude Code sessions in one tracked workspace, each running a shell command while both
   * prompts are open: before the fix the first Stop recorded both files and the second nothing, and
   * the HTTP rewind of the first put the second session's file back, complete. Now each turn
   * records both as shared, and the rewind (dry run and real) leaves both, naming the other
   * session.
   */
  @Test
  void twoSessionsThroughTheirHooksShareWhatTheShellDidAndARewindLeavesTheOthersWork()
      throws Exception {
    workspace =
        TestWorkspace.in(temp.resolve("base")).file("a.txt", "a before\n").file("b.txt", "b\n");
    startService();
    turndiff.capture().tracker().track(workspace.root(), TrackingOptions.DEFAULTS);
    for (String session : List.of("sa", "sb")) {
      assertEquals(
          "begun",
          header(
              post("claude-code", claudeAs("UserPromptSubmit.json", session, session + "-p1")),
              "Turndiff-Hook-Outcome"));
      assertEquals(
          "call_began",
          header(
              post("claude-code", claudeAs("PreToolUse.Bash.json", session, session + "-p1")),
              "Turndiff-Hook-Outcome"));
    }
    shell(workspace, ".", "echo A-edit > a.txt");
    shell(workspace, ".", "echo B-edit > b.txt");
    for (String session : List.of("sa", "sb")) {
      assertEquals(
          "finished",
          header(
              post("claude-code", claudeAs("Stop.json", session, session + "-p1")),
              "Turndiff-Hook-Outcome"));
    }
    String turnA = "claude-code:sa-p1";
    String turnB = "claude-code:sb-p1";
    assertEquals(
        Map.of(
            "a.txt", List.of("turn " + turnB + " of session claude-code:sb"),
            "b.txt", List.of("turn " + turnB + " of session claude-code:sb")),
        RecordedChanges.alsoPossible(turndiff.store(), turnA));
    assertEquals(
        Map.of(
            "a.txt", List.of("turn " + turnA + " of session claude-code:sa"),
            "b.txt", List.of("turn " + turnA + " of session claude-code:sa")),
        RecordedChanges.alsoPossible(turndiff.store(), turnB));
    for (String dryRun : List.of("true", "false")) {
      RawHttp.Response rewound =
          RawHttp.request(
              service.port(),
              "POST",
              "/v1/rewind",
              "{\"turn\":\"" + turnA + "\",\"dry_run\":" + dryRun + "}",
              ANSWER_WITHIN,
              "Authorization: Bearer " + TOKEN);
      assertEquals(200, rewound.status(), rewound.body());
      // a real rewind's report follows its early headers in one chunk: the JSON inside it
      String body = rewound.body();
      JsonNode skipped =
          Json.mapper()
              .readTree(body.substring(body.indexOf('{'), body.lastIndexOf('}') + 1))
              .get("skipped");
      assertEquals(2, skipped.size(), rewound.body());
      for (JsonNode path : skipped) {
        assertEquals("conflict", path.get("reason").asText());
        assertTrue(
            path.get("detail").asText().contains("also possible: turn " + turnB), path.toString());
      }
    }
    assertEquals("B-edit\n", Files.readString(workspace.resolve("b.txt")));
    assertEquals("A-edit\n", Files.readString(workspace.resolve("a.txt")));
  }

  /**
   * Two Claude Code sessions in one tracked, watched workspace, their shell calls bracketed by
   * their PreToolUse and PostToolUse hooks and run at different times, and the user's save between
   * them: each call owns what it changed (before Post was acted on, both turns recorded every file,
   * shared), the save is in both turns as made outside any call, and the HTTP rewind of A's turn
   * puts back A's file only, naming the save as the user's and leaving B's file alone.
   */
  @Test
  void shellCallsBracketedByTheirHooksOwnWhatTheyChangedAndARewindLeavesTheUsersSave()
      throws Exception {
    assumeTrue(Portability.current().watches(), "nothing is watched in the posix mode");
    workspace =
        TestWorkspace.in(temp.resolve("base"))
            .file("a.txt", "a before\n")
            .file("b.txt", "b before\n")
            .file("u.txt", "u before\n");
    startService(WatchOptions.SERVICE);
    turndiff.capture().tracker().track(workspace.root(), TrackingOptions.DEFAULTS);
    for (String session : List.of("sa", "sb")) {
      post("claude-code", claudeAs("UserPromptSubmit.json", session, session + "-p1"));
    }
    Map<String, String> edits = Map.of("sa", "echo A-edit > a.txt", "sb", "echo B-edit > b.txt");
    for (String session : List.of("sa", "sb")) {
      assertEquals(
          "call_began",
          header(
              post("claude-code", claudeAs("PreToolUse.Bash.json", session, session + "-p1")),
              "Turndiff-Hook-Outcome"));
      shell(workspace, ".", edits.get(session));
      assertEquals(
          "call_ended",
          header(
              post("claude-code", claudeAs("PostToolUse.Bash.json", session, session + "-p1")),
              "Turndiff-Hook-Outcome"));
      if (session.equals("sa")) {
        Files.writeString(workspace.resolve("u.txt"), "the user's save\n");
      }
    }
    for (String session : List.of("sa", "sb")) {
      post("claude-code", claudeAs("Stop.json", session, session + "-p1"));
    }
    String turnA = "claude-code:sa-p1";
    String turnB = "claude-code:sb-p1";
    assertEquals(
        Map.of("a.txt", "calls [toolu_sa]", "u.txt", "outside []"),
        RecordedChanges.madeDuring(turndiff.store(), turnA));
    assertEquals(
        Map.of("b.txt", "calls [toolu_sb]", "u.txt", "outside []"),
        RecordedChanges.madeDuring(turndiff.store(), turnB));
    JsonNode shown =
        Json.mapper()
            .readTree(
                RawHttp.request(
                        service.port(),
                        "GET",
                        "/v1/turns/" + turnA,
                        null,
                        ANSWER_WITHIN,
                        "Authorization: Bearer " + TOKEN)
                    .body());
    RawHttp.Response rewound =
        RawHttp.request(
            service.port(),
            "POST",
            "/v1/rewind",
            "{\"turn\":\"" + turnA + "\"}",
            ANSWER_WITHIN,
            "Authorization: Bearer " + TOKEN);
    assertEquals(200, rewound.status(), rewound.body());
    String body = rewound.body();
    JsonNode report =
        Json.mapper().readTree(body.substring(body.indexOf('{'), body.lastIndexOf('}') + 1));
    assertEquals(1, report.get("skipped").size(), body);
    assertEquals("u.txt", report.get("skipped").get(0).get("path").asText(), body);
    assertTrue(
        report.get("skipped").get(0).get("detail").asText().contains("outside any tool call"),
        body);
    assertEquals("a before\n", Files.readString(workspace.resolve("a.txt")));
    assertEquals("the user's save\n", Files.readString(workspace.resolve("u.txt")));
    assertEquals("B-edit\n", Files.readString(workspace.resolve("b.txt")));
    Map<String, JsonNode> files = new TreeMap<>();
    shown.get("files").forEach(file -> files.put(file.get("path").asText(), file));
    assertEquals("calls", files.get("a.txt").get("made_during").asText(), shown.toString());
    JsonNode call = files.get("a.txt").get("calls").get(0);
    assertEquals("toolu_sa", call.get("id").asText());
    assertEquals("Bash", call.get("tool").asText());
    assertEquals(
        "sed -i s/foo/bar/g src/util.ts && git mv src/old.ts src/new.ts",
        call.get("command").asText(),
        "the command its payload carried");
    assertEquals("outside", files.get("u.txt").get("made_during").asText());
  }

  // ---- root=git and track=auto, the query hooks install passes on

  @Test
  void withRootGitATurnsWorkspaceIsTheGitTopLevelOfItsDirectory() throws Exception {
    workspace =
        TestWorkspace.in(temp.resolve("base"))
            .directory("repo/.git")
            .file("repo/sub/deeper/a.txt", "a\n")
            .file("worktree/.git", "gitdir: /elsewhere/.git/worktrees/wt\n")
            .file("worktree/sub/b.txt", "b\n")
            .file("linked/sub/c.txt", "c\n");
    // a .git that is a link (here to the outside tree) is not looked through: it marks nothing
    workspace.symlink("linked/.git", workspace.outside().toString());
    startService();

    beginCodexTurn("git-1", "repo/sub/deeper", "?root=git");
    assertEquals(workspace.resolve("repo").toString(), workspaceOf("codex:git-1"));
    // the directory itself is a top level too
    beginCodexTurn("git-2", "repo", "?root=git");
    assertEquals(workspace.resolve("repo").toString(), workspaceOf("codex:git-2"));
    // a worktree's (or submodule's) .git file marks its top level; it is not read
    beginCodexTurn("git-3", "worktree/sub", "?root=git&track=auto");
    assertEquals(workspace.resolve("worktree").toString(), workspaceOf("codex:git-3"));
    beginCodexTurn("git-4", "linked/sub", "?root=git");
    assertEquals(workspace.resolve("linked/sub").toString(), workspaceOf("codex:git-4"));
    // without root=git: the directory, nothing being tracked above it
    beginCodexTurn("git-5", "repo/sub/deeper", "");
    assertEquals(workspace.resolve("repo/sub/deeper").toString(), workspaceOf("codex:git-5"));
    // with root=git outside any repository: as without it, the deepest tracked workspace
    turndiff.capture().tracker().track(workspace.resolve("linked"), TrackingOptions.DEFAULTS);
    beginCodexTurn("git-6", "linked/sub", "?root=git");
    assertEquals(workspace.resolve("linked").toString(), workspaceOf("codex:git-6"));
  }

  @Test
  void aDirectoryNamedThroughASymlinkIsInTheTrackedWorkspaceItsRealPathLiesIn() throws Exception {
    workspace = TestWorkspace.in(temp.resolve("base")).file("app/src/a.txt", "a\n");
    Path link = Files.createSymbolicLink(temp.resolve("link-to-app"), workspace.resolve("app"));
    startService();
    turndiff.capture().tracker().track(workspace.resolve("app"), TrackingOptions.DEFAULTS);

    // Codex reports the tool's directory, here spelled through the link
    beginCodexTurnIn("link-1", link.resolve("src"), "");
    assertEquals(workspace.resolve("app").toString(), workspaceOf("codex:link-1"));
    beginCodexTurnIn("link-2", link, "?track=auto");
    assertEquals(workspace.resolve("app").toString(), workspaceOf("codex:link-2"));
    assertEquals(List.of(workspace.resolve("app").toString()), trackedRoots());
    workspace.assertOutsideUnchanged();
  }

  /** Posts Codex's recorded UserPromptSubmit as session and turn {@code id}, run in {@code dir}. */
  private void beginCodexTurn(String id, String directory, String query) throws IOException {
    beginCodexTurnIn(id, workspace.resolve(directory), query);
  }

  private void beginCodexTurnIn(String id, Path directory, String query) throws IOException {
    byte[] body = fixture("codex/UserPromptSubmit.json", "/tmp/cdx/exp/ws", directory);
    body = replace(body, bytes("01a22c16-ec5e-7b40-8390-e82f84f74cdc"), bytes("session-" + id));
    body = replace(body, bytes("01a22c16-ecba-72b3-b9bf-386121332e1f"), bytes(id));
    RawHttp.Response answer = post("codex" + query, body);
    assertEquals(204, answer.status(), answer.head() + answer.body());
    assertEquals("begun", header(answer, "Turndiff-Hook-Outcome"), id);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** The root (as given) of the workspace {@code turn} was begun in. */
  private String workspaceOf(String turn) {
    return turndiff
        .store()
        .read(
            tx -> {
              StoredTurn stored = tx.turns().byExternalId(turn).orElseThrow();
              long id =
                  tx.sessions()
                      .byExternalId(stored.sessionExternalId())
                      .orElseThrow()
                      .workspaceId();
              return tx.workspaces().byId(id).orElseThrow().rootGiven();
            });
  }

  private List<String> trackedRoots() {
    return turndiff.store().read(tx -> tx.workspaces().tracked()).stream()
        .map(stored -> stored.rootGiven())
        .toList();
  }

  /** A Claude Code turn that only runs a shell command, in a workspace nobody tracked. */
  private void bashOnlyTurn(String query) throws IOException {
    workspace = TestWorkspace.in(temp.resolve("base")).file("src/util.ts", "const foo = 1;\n");
    startService();
    String recorded = "/home/user/my-project";
    assertEquals(
        "begun",
        header(
            post(
                "claude-code" + query,
                fixture("claude-code/UserPromptSubmit.json", recorded, workspace.root())),
            "Turndiff-Hook-Outcome"));
    assertEquals(
        "call_began",
        header(
            post(
                "claude-code" + query,
                fixture("claude-code/PreToolUse.Bash.json", recorded, workspace.root())),
            "Turndiff-Hook-Outcome"));
    shell(workspace, ".", "sed -i s/foo/bar/g src/util.ts");
    assertEquals(
        "finished",
        header(
            post(
                "claude-code" + query,
                fixture("claude-code/Stop.json", recorded, workspace.root())),
            "Turndiff-Hook-Outcome"));
    assertEquals(List.of(CLAUDE_TURN), finishedTurns(CLAUDE_SESSION));
  }

  @Test
  void withTrackAutoAnUntrackedWorkspaceIsTrackedAndTheScanRecordsAShellChange() throws Exception {
    bashOnlyTurn("?track=auto");
    assertEquals(List.of(workspace.root().toString()), trackedRoots());
    assertChanges(CLAUDE_TURN, Map.of("src/util.ts", "modified scan"));
  }

  @Test
  void withoutTrackAutoAnUntrackedWorkspaceStaysUntrackedAndNothingIsScanned() throws Exception {
    bashOnlyTurn("");
    assertEquals(List.of(), trackedRoots());
    assertChanges(CLAUDE_TURN, Map.of());
  }

  // ---- pid and pid_start: the runtime's process, as the hook script names it

  @Test
  void theRuntimesProcessTheScriptNamesIsKeptWithTheTurnItsCallBegan() throws Exception {
    workspace = TestWorkspace.in(temp.resolve("base")).file("a.txt", "a\n");
    startService();
    long self = ProcessHandle.current().pid();

    beginCodexTurn("proc-1", "", "?pid=" + self + "&pid_start=4242");

    StoredTurn turn = RecordedChanges.turn(turndiff.store(), "codex:proc-1");
    assertEquals(
        Optional.of(new RuntimeProcess(self, 4242, Proc.bootId())),
        turn.runtime(),
        "pid, start time, and the boot the service saw the call in");
  }

  @Test
  void aRuntimeProcessHalfGivenOrMalformedIsRefusedNamingItAndNothingIsWritten() throws Exception {
    workspace = TestWorkspace.in(temp.resolve("base")).file("a.txt", "a\n");
    startService();
    byte[] body = fixture("codex/UserPromptSubmit.json", "/tmp/cdx/exp/ws", workspace.resolve(""));

    assertRefused("codex?pid=12", body, 400, "bad_request", "pid without pid_start");
    assertRefused("codex?pid=0&pid_start=1", body, 400, "bad_request", "pid 0");
    assertRefused("codex?pid=12&pid_start=-1", body, 400, "bad_request", "a negative start");
  }

  // ---- runtime_version: the runtime's version, as the hook script found it

  /**
   * The version lands in the sighting {@code service status} shows, and the service's stop writes
   * the sighting to the store, where the next service finds it (before the stop, no hook call
   * committed one).
   */
  @Test
  void theRuntimesVersionIsShownAndTheServicesStopKeepsItsSightingInTheStore() throws Exception {
    workspace = TestWorkspace.in(temp.resolve("base")).file("a.txt", "a\n");
    startService();

    beginCodexTurn("ver-1", "", "?runtime_version=0.171.0");

    JsonNode sighting = serviceStatus().get("sightings").get(0);
    assertEquals("codex", sighting.get("runtime").asText());
    assertEquals("0.171.0", sighting.get("runtime_version").asText(), sighting.toString());
    assertEquals(List.of(), turndiff.store().read(tx -> tx.hookSightings().latest(10)));
    service.stop();
    List<StoredHookSighting> kept = turndiff.store().read(tx -> tx.hookSightings().latest(10));
    assertEquals(1, kept.size(), kept.toString());
    assertEquals(Optional.of("0.171.0"), kept.getFirst().runtimeVersion());
    assertEquals("UserPromptSubmit", kept.getFirst().lastEvent());
    assertEquals(workspace.root().toString(), kept.getFirst().directory());
  }

  @Test
  void aRuntimeVersionThatIsNotOneIsRefusedNamingItAndNothingIsWritten() throws Exception {
    workspace = TestWorkspace.in(temp.resolve("base")).file("a.txt", "a\n");
    startService();
    byte[] body = fixture("codex/UserPromptSubmit.json", "/tmp/cdx/exp/ws", workspace.resolve(""));

    assertRefused("codex?runtime_version=", body, 400, "bad_request", "an empty version");
    assertRefused(
        "codex?runtime_version=1.0%1B%5B31m", body, 400, "bad_request", "a terminal escape");
    assertRefused(
        "codex?runtime_version=" + "9".repeat(65), body, 400, "bad_request", "65 characters");
  }

  private JsonNode serviceStatus() throws IOException {
    RawHttp.Response answer =
        RawHttp.exchange(
            service.port(),
            ("GET /v1/service/status HTTP/1.1\r\nHost: 127.0.0.1:"
                    + service.port()
                    + "\r\nAuthorization: Bearer "
                    + TOKEN
                    + "\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8),
            new byte[0],
            ANSWER_WITHIN);
    assertEquals(200, answer.status(), answer.head() + answer.body());
    return Json.mapper().readTree(answer.body());
  }

  // ---- the service and the wire

  private void startService() {
    startService(WatchOptions.OFF);
  }

  private void startService(WatchOptions watch) {
    turndiff =
        Turndiff.builder(TestStore.fileIn(temp))
            .policy(WorkspacePolicy.anyDirectory())
            .watch(watch)
            .open();
    try {
      service =
          HttpService.start(
              turndiff,
              ServiceOptions.builder(TOKEN).port(0).shutdownGrace(Duration.ofSeconds(1)).build());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The fixture's bytes with the recorded workspace path replaced, as a JSON string's content, by
   * {@code root}'s: nothing else of the payload changes.
   */
  private static byte[] fixture(String fixture, String recorded, Path root) throws IOException {
    byte[] bytes = Files.readAllBytes(FIXTURES.resolve(fixture));
    return replace(bytes, jsonContent(recorded), jsonContent(root.toString()));
  }

  private static byte[] jsonContent(String text) {
    String quoted = Json.write(Json.mapper().getNodeFactory().textNode(text), false);
    return quoted.substring(1, quoted.length() - 1).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] replace(byte[] haystack, byte[] needle, byte[] replacement) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int i = 0;
    while (i < haystack.length) {
      if (startsAt(haystack, i, needle)) {
        out.writeBytes(replacement);
        i += needle.length;
      } else {
        out.write(haystack[i++]);
      }
    }
    return out.toByteArray();
  }

  private static boolean startsAt(byte[] haystack, int at, byte[] needle) {
    if (at + needle.length > haystack.length) {
      return false;
    }
    for (int j = 0; j < needle.length; j++) {
      if (haystack[at + j] != needle[j]) {
        return false;
      }
    }
    return true;
  }

  private byte[] head(String target, int length, String extra) {
    return ("POST /v1/hooks/"
            + target
            + " HTTP/1.1\r\nHost: 127.0.0.1:"
            + service.port()
            + "\r\nContent-Type: application/json\r\n"
            + extra
            + "Content-Length: "
            + length
            + "\r\nConnection: close\r\n\r\n")
        .getBytes(StandardCharsets.UTF_8);
  }

  private RawHttp.Response post(String target, byte[] body) {
    RawHttp.Response answer =
        RawHttp.exchange(
            service.port(),
            head(target, body.length, "Authorization: Bearer " + TOKEN + "\r\n"),
            body,
            ANSWER_WITHIN);
    answers.add(answer.head() + "\n" + answer.body());
    return answer;
  }

  /**
   * The body is refused with {@code status} and {@code error}, and the store files are unchanged.
   */
  private void assertRefused(String runtime, byte[] body, int status, String error, String what)
      throws Exception {
    // the store's own checkpoint first: it empties the log, so that the one the store makes beside
    // its writer a second after the last commit (WalCheckpointer) has nothing left to move into the
    // database file while the refused post is checked for writing nothing
    turndiff.store().checkpoint();
    Map<String, byte[]> before = storeFiles();
    RawHttp.Response answer = post(runtime, body);
    assertEquals(status, answer.status(), what + ": " + answer.head() + "\n" + answer.body());
    JsonNode refusal = Json.mapper().readTree(answer.body());
    assertEquals(error, refusal.get("error").asText(), what + ": " + refusal);
    assertFalse(refusal.get("message").asText().isBlank(), what);
    Map<String, byte[]> after = storeFiles();
    assertEquals(before.keySet(), after.keySet(), what);
    before.forEach((file, bytes) -> assertArrayEquals(bytes, after.get(file), what + ": " + file));
  }

  private void assertNothingWrittenAtAll() {
    assertEquals(
        0L,
        StoreRows.count(TestStore.fileIn(temp)).values().stream().mapToLong(n -> n).sum(),
        "rows in the store");
  }

  /** The database file and its write-ahead log, as bytes. */
  private Map<String, byte[]> storeFiles() throws IOException {
    Map<String, byte[]> files = new TreeMap<>();
    Path database = TestStore.fileIn(temp);
    for (Path file : List.of(database, Path.of(database + "-wal"))) {
      if (Files.exists(file)) {
        files.put(file.getFileName().toString(), Files.readAllBytes(file));
      }
    }
    return files;
  }

  private static String header(RawHttp.Response answer, String name) {
    Matcher matcher =
        Pattern.compile("(?im)^" + Pattern.quote(name) + ":\\s*(.*?)\\s*$").matcher(answer.head());
    Set<String> values = new LinkedHashSet<>();
    while (matcher.find()) {
      values.add(matcher.group(1));
    }
    assertTrue(values.size() <= 1, "the header " + name + " is given once: " + answer.head());
    return values.isEmpty() ? null : values.iterator().next();
  }
}
