package io.turndiff.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.api.Turndiff;
import io.turndiff.boundary.WorkspacePolicy;
import io.turndiff.capture.track.TrackingOptions;
import io.turndiff.fixtures.RawHttp;
import io.turndiff.fixtures.RecordedChanges;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.fixtures.TreeContent;
import io.turndiff.model.Reason;
import io.turndiff.model.Snapshot;
import io.turndiff.model.TurnState;
import io.turndiff.rewind.RewindReport;
import io.turndiff.rewind.RewindRequest;
import io.turndiff.store.StoredFileChange;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A tool path spelled through another name of the workspace (issue 21, item 2): the runtime's
 * {@code cwd} is the workspace's real path {@code base/workspace}, the model names its files as
 * {@code link/workspace/...} ({@code link -> base}), through the real HTTP service over a real
 * store, in a tracked workspace and in one nobody tracks ({@code --no-track}). Those paths are
 * inside: their before-states are captured, no {@code outside_workspace} record, and the turn's
 * rewind is complete and byte for byte. A name through the same link that leaves the workspace
 * ({@code link/outside/secret.txt}, or {@code link/workspace/../outside/...}) stays outside:
 * metadata only, the secret never read, the outside tree unchanged.
 */
class ToolPathThroughALinkedRootTest {

  private static final String TOKEN = "test-token-0123456789abcdef";
  private static final Duration ANSWER_WITHIN = Duration.ofSeconds(60);
  private static final String SESSION = "0d6a3c1e-7f42-4b8e-9a15-2c3d4e5f6a7b";
  private static final String PROMPT = "7e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b";
  private static final String TURN = "claude-code:" + PROMPT;
  private static final String PROMPT_OUT = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";
  private static final String TURN_OUT = "claude-code:" + PROMPT_OUT;

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Turndiff turndiff;
  private HttpService service;

  @AfterEach
  void tearDown() {
    if (service != null) {
      service.stop();
    }
    if (turndiff != null) {
      turndiff.close();
    }
    workspace.assertOutsideUnchanged();
    workspace.canary().assertNotInStoreFiles(TestStore.fileIn(temp));
  }

  @ParameterizedTest(name = "tracked: {0}")
  @ValueSource(booleans = {true, false})
  void aToolPathSpelledThroughTheWorkspacesLinkedNameIsInside(boolean tracked) throws IOException {
    workspace =
        TestWorkspace.in(temp.resolve("base")).file("src/app.txt", "v1\n").file("notes.txt", "n\n");
    Path spelled =
        Files.createSymbolicLink(temp.resolve("link"), workspace.base()).resolve("workspace");
    start(tracked);
    Map<String, String> before = TreeContent.of(workspace.root());

    String cwd = workspace.root().toString();
    assertEquals(
        "begun", outcome(post(claude(PROMPT, "UserPromptSubmit", cwd, "\"prompt\":\"a\""))));
    assertEquals(
        "snapshotted", outcome(post(tool(PROMPT, cwd, "Write", spelled + "/src/new.txt", "w"))));
    assertEquals(
        "snapshotted", outcome(post(tool(PROMPT, cwd, "Edit", spelled + "/src/app.txt", "e"))));
    Files.writeString(workspace.resolve("src/new.txt"), "new\n");
    Files.writeString(workspace.resolve("src/app.txt"), "v2\n");
    assertEquals(
        "finished", outcome(post(claude(PROMPT, "Stop", cwd, "\"stop_hook_active\":false"))));

    Map<String, StoredFileChange> changes = changesByPath(TURN);
    assertEquals(List.of("src/app.txt", "src/new.txt"), List.copyOf(changes.keySet()));
    assertEquals("modified", changes.get("src/app.txt").change().orElseThrow().code());
    assertEquals("added", changes.get("src/new.txt").change().orElseThrow().code());
    // the before-states are the snapshots' (the edited file's content captured before the tool)
    assertEquals(List.of("e"), changes.get("src/app.txt").toolCalls());
    assertEquals(List.of("w"), changes.get("src/new.txt").toolCalls());
    assertInstanceOf(Snapshot.RegularFile.class, changes.get("src/app.txt").before());
    RewindReport report =
        turndiff.rewind().rewind(new RewindRequest(TURN, false, Optional.empty(), false, false));
    assertTrue(report.complete(), report.toString());
    assertEquals(before, TreeContent.of(workspace.root()));

    // the same link out of the workspace, and its spelling of the workspace climbing out of it,
    // stay outside: metadata only, the secret never read
    String out = temp.resolve("link/outside/secret.txt").toString();
    assertEquals(
        "begun", outcome(post(claude(PROMPT_OUT, "UserPromptSubmit", cwd, "\"prompt\":\"b\""))));
    assertEquals("snapshotted", outcome(post(tool(PROMPT_OUT, cwd, "Edit", out, "o"))));
    assertEquals(
        "snapshotted",
        outcome(post(tool(PROMPT_OUT, cwd, "Edit", spelled + "/../outside/dir/secret.txt", "c"))));
    assertEquals(
        "finished", outcome(post(claude(PROMPT_OUT, "Stop", cwd, "\"stop_hook_active\":false"))));
    Map<String, StoredFileChange> outside = changesByPath(TURN_OUT);
    assertEquals(
        List.of(temp.resolve("link/outside/dir/secret.txt").toString(), out),
        List.copyOf(outside.keySet()));
    for (StoredFileChange change : outside.values()) {
      assertTrue(change.path().isOutside(), change.path().display());
      assertEquals(Optional.of(Reason.OUTSIDE_WORKSPACE), change.before().reason());
    }
  }

  private void start(boolean tracked) throws IOException {
    turndiff =
        Turndiff.builder(TestStore.fileIn(temp)).policy(WorkspacePolicy.anyDirectory()).open();
    if (tracked) {
      turndiff.capture().tracker().track(workspace.root(), TrackingOptions.DEFAULTS);
    }
    service =
        HttpService.start(
            turndiff,
            ServiceOptions.builder(TOKEN).port(0).shutdownGrace(Duration.ofSeconds(1)).build());
  }

  /** The finished turn's changes by the path they are recorded under, sorted. */
  private Map<String, StoredFileChange> changesByPath(String turn) {
    assertEquals(TurnState.FINISHED, RecordedChanges.turn(turndiff.store(), turn).state());
    Map<String, StoredFileChange> byPath = new TreeMap<>();
    for (StoredFileChange change : RecordedChanges.of(turndiff.store(), turn)) {
      byPath.put(change.path().display(), change);
    }
    return byPath;
  }

  private static String tool(String prompt, String cwd, String name, String path, String call) {
    return claude(
        prompt,
        "PreToolUse",
        cwd,
        "\"tool_name\":\""
            + name
            + "\",\"tool_input\":{\"file_path\":"
            + quoted(path)
            + "},\"tool_use_id\":\""
            + call
            + "\"");
  }

  private static String claude(String prompt, String event, String cwd, String more) {
    return "{\"session_id\":\""
        + SESSION
        + "\",\"prompt_id\":\""
        + prompt
        + "\",\"cwd\":"
        + quoted(cwd)
        + ",\"hook_event_name\":\""
        + event
        + "\","
        + more
        + "}";
  }

  private static String quoted(String text) {
    return HookPosts.quoted(text);
  }

  private RawHttp.Response post(String json) {
    return new HookPosts(service.port(), TOKEN, ANSWER_WITHIN)
        .post("claude-code", json.getBytes(StandardCharsets.UTF_8));
  }

  private static String outcome(RawHttp.Response answer) {
    // 204, or 200 where a prompt's begin carries the note for the model (the session's previous
    // turn was rewound since: PromptNote)
    assertTrue(
        answer.status() == 204
            || (answer.status() == 200 && answer.body().startsWith("turndiff (the tool")),
        answer.head() + answer.body());
    return HookPosts.header(answer, "Turndiff-Hook-Outcome");
  }
}
