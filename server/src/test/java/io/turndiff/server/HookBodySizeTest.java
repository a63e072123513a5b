package io.turndiff.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.boundary.WorkspacePolicy;
import io.turndiff.fixtures.RawHttp;
import io.turndiff.fixtures.RecordedChanges;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.TurnState;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hook bodies as large as the README promises (64 MiB), through the real HTTP service on a loopback
 * port over a real store: the service needs a tool's name and paths, not the content it writes, so
 * a {@code Write} whose content is over Jackson's default string cap (20,000,000 characters) and a
 * Codex {@code apply_patch} of a ~60 MiB file are snapshotted like any other call (the rows land in
 * the store), and a body over the limit is a {@code 413} naming it, with nothing written.
 */
class HookBodySizeTest {

  private static final String TOKEN = "test-token-0123456789abcdef";
  private static final Duration ANSWER_WITHIN = Duration.ofSeconds(120);
  private static final String CLAUDE_SESSION = "8a1c2f0e-5b7d-4e63-9f21-3c4d5e6f7a80";
  private static final String CLAUDE_PROMPT = "550e8400-e29b-41d4-a716-446655440000";

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Turndiff turndiff;
  private HttpService service;

  @BeforeEach
  void setUp() throws IOException {
    workspace = TestWorkspace.in(temp.resolve("base")).file("existing.txt", "base\n");
    turndiff =
        Turndiff.builder(TestStore.fileIn(temp)).policy(WorkspacePolicy.anyDirectory()).open();
    service =
        HttpService.start(
            turndiff,
            ServiceOptions.builder(TOKEN).port(0).shutdownGrace(Duration.ofSeconds(1)).build());
  }

  @AfterEach
  void tearDown() {
    service.stop();
    turndiff.close();
    workspace.assertOutsideUnchanged();
    workspace.canary().assertNotInStoreFiles(TestStore.fileIn(temp));
  }

  @Test
  void aWriteWhoseContentIsOverJacksonsStringCapIsSnapshotted() throws IOException {
    String cwd = quoted(workspace.root().toString());
    RawHttp.Response begun =
        post(
            "claude-code",
            claude("UserPromptSubmit", cwd, "\"prompt\":\"write a big file\"")
                .getBytes(StandardCharsets.UTF_8));
    assertEquals(204, begun.status(), begun.head() + begun.body());

    // 21 million characters of content (once its escapes are read) before the path, non-ASCII and
    // escapes among them
    String unit = "line of text \\u00e9\\\"quoted\\\" \\n";
    int decodedPerUnit = 24;
    String content = unit.repeat(21_000_000 / decodedPerUnit + 1);
    byte[] write =
        claude(
                "PreToolUse",
                cwd,
                "\"tool_name\":\"Write\",\"tool_input\":{\"content\":\""
                    + content
                    + "\",\"file_path\":"
                    + quoted(workspace.resolve("big.txt").toString())
                    + "},\"tool_use_id\":\"toolu_big\"")
            .getBytes(StandardCharsets.UTF_8);
    assertTrue(
        content.length() / unit.length() * decodedPerUnit > 20_000_000,
        "a string over Jackson's cap");
    RawHttp.Response snapshot = post("claude-code", write);
    assertEquals(204, snapshot.status(), snapshot.head() + snapshot.body());
    assertEquals("snapshotted", header(snapshot, "Turndiff-Hook-Outcome"));

    Files.write(workspace.resolve("big.txt"), new byte[3 << 20]);
    RawHttp.Response finished =
        post(
            "claude-code",
            claude("Stop", cwd, "\"stop_hook_active\":false").getBytes(StandardCharsets.UTF_8));
    assertEquals("finished", header(finished, "Turndiff-Hook-Outcome"));
    assertEquals(
        Map.of("big.txt", "added snapshot [toolu_big]"), recorded("claude-code:" + CLAUDE_PROMPT));
  }

  @Test
  void aCodexPatchOfA60MibFileIsSnapshottedByItsPath() throws IOException {
    byte[] begin =
        ("{\"session_id\":\"s-big\",\"turn_id\":\"t-big\",\"cwd\":"
                + quoted(workspace.root().toString())
                + ",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"add a big file\"}")
            .getBytes(StandardCharsets.UTF_8);
    assertEquals("begun", header(post("codex", begin), "Turndiff-Hook-Outcome"));

    // the patch is the command the mapping reads: a kept string of ~60 MiB
    ByteArrayOutputStream body = new ByteArrayOutputStream(61 << 20);
    body.writeBytes(
        ("{\"session_id\":\"s-big\",\"turn_id\":\"t-big\",\"cwd\":"
                + quoted(workspace.root().toString())
                + ",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"apply_patch\","
                + "\"tool_input\":{\"command\":\"*** Begin Patch\\n*** Add File: huge.txt\\n")
            .getBytes(StandardCharsets.UTF_8));
    byte[] line =
        "+0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz\\n"
            .getBytes(StandardCharsets.UTF_8);
    while (body.size() < (60 << 20)) {
      body.writeBytes(line);
    }
    body.writeBytes(
        "*** End Patch\"},\"tool_use_id\":\"call_huge\"}".getBytes(StandardCharsets.UTF_8));
    byte[] patch = body.toByteArray();
    assertTrue(patch.length > (60 << 20) && patch.length < (64 << 20), "~60 MiB: " + patch.length);
    RawHttp.Response snapshot = post("codex", patch);
    assertEquals(204, snapshot.status(), snapshot.head() + snapshot.body());
    assertEquals("snapshotted", header(snapshot, "Turndiff-Hook-Outcome"));

    Files.writeString(workspace.resolve("huge.txt"), "written by the patch\n");
    byte[] stop =
        ("{\"session_id\":\"s-big\",\"turn_id\":\"t-big\",\"cwd\":"
                + quoted(workspace.root().toString())
                + ",\"hook_event_name\":\"Stop\"}")
            .getBytes(StandardCharsets.UTF_8);
    assertEquals("finished", header(post("codex", stop), "Turndiff-Hook-Outcome"));
    assertEquals(Map.of("huge.txt", "added snapshot [call_huge]"), recorded("codex:t-big"));
  }

  @Test
  void aBodyOverTheLimitIsRefusedNamingItAndNothingIsWritten() throws IOException {
    long over = HookEndpoints.MAX_BODY_BYTES + 1L;
    // the client sends no byte of the body: the answer comes from its declared length alone
    byte[] head =
        ("POST /v1/hooks/claude-code HTTP/1.1\r\nHost: 127.0.0.1:"
                + service.port()
                + "\r\nContent-Type: application/json\r\nAuthorization: Bearer "
                + TOKEN
                + "\r\nContent-Length: "
                + over
                + "\r\nConnection: close\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    RawHttp.Response answer = RawHttp.exchange(service.port(), head, new byte[0], ANSWER_WITHIN);
    assertEquals(413, answer.status(), answer.head() + answer.body());
    JsonNode refusal = Json.mapper().readTree(answer.body());
    assertEquals("too_large", refusal.get("error").asText());
    assertTrue(
        refusal.get("message").asText().contains("over the limit of 67108864 bytes (64 MiB)"),
        refusal.toString());
    assertEquals(
        0L,
        StoreRows.count(TestStore.fileIn(temp)).values().stream().mapToLong(n -> n).sum(),
        "rows in the store");
  }

  private static String claude(String event, String cwd, String more) {
    return "{\"session_id\":\""
        + CLAUDE_SESSION
        + "\",\"prompt_id\":\""
        + CLAUDE_PROMPT
        + "\",\"cwd\":"
        + cwd
        + ",\"hook_event_name\":\""
        + event
        + "\","
        + more
        + "}";
  }

  /** The turn's recorded changes: path to kind, how it was detected and by which tool calls. */
  private Map<String, String> recorded(String turn) {
    assertEquals(TurnState.FINISHED, RecordedChanges.turn(turndiff.store(), turn).state());
    return RecordedChanges.summary(turndiff.store(), turn);
  }

  private static String quoted(String text) {
    return HookPosts.quoted(text);
  }

  private RawHttp.Response post(String runtime, byte[] body) {
    return new HookPosts(service.port(), TOKEN, ANSWER_WITHIN).post(runtime, body);
  }

  private static String header(RawHttp.Response answer, String name) {
    return HookPosts.header(answer, name);
  }
}
