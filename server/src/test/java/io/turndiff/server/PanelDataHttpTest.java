package io.turndiff.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.boundary.WorkspacePolicy;
import io.turndiff.fixtures.RawHttp;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the review panel's views read (issue 12, docs/review-panel.md section 5), over a real store
 * and real HTTP: the workspaces list, the sessions' last turn, the timeline's counts (checked
 * against the finish summaries of real captures, a tracked workspace's shell changes among them),
 * which rewind rewound a turn (real rewinds of a path, a whole turn, an undo, and one left
 * incomplete), and a range loaded file by file. Bad input is a 400 naming it. Every response is
 * checked for the canary.
 */
class PanelDataHttpTest {

  private static final String TOKEN = "test-token-0123456789abcdef";
  private static final Duration ANSWER_WITHIN = Duration.ofSeconds(30);

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Path database;
  private Turndiff turndiff;
  private HttpService service;
  private final List<String> bodies = new ArrayList<>();

  @BeforeEach
  void setUp() {
    workspace = TestWorkspace.in(temp.resolve("base")).file("a.txt", "a\n").file("b.txt", "b\n");
    database = TestStore.fileIn(temp);
    start(WorkspacePolicy.anyDirectory(), BoundaryOptions.defaults());
  }

  private void start(WorkspacePolicy policy, BoundaryOptions boundary) {
    turndiff = Turndiff.builder(database).policy(policy).boundary(boundary).open();
    try {
      service =
          HttpService.start(
              turndiff,
              ServiceOptions.builder(TOKEN).port(0).shutdownGrace(Duration.ofSeconds(1)).build());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void stop() {
    service.stop();
    turndiff.close();
  }

  @AfterEach
  void tearDown() {
    stop();
    workspace.assertOutsideUnchanged();
    bodies.forEach(body -> workspace.canary().assertNotIn("an HTTP response", body));
  }

  // ---- talking to the service

  private RawHttp.Response call(String method, String target, String body) {
    RawHttp.Response response =
        RawHttp.request(
            service.port(), method, target, body, ANSWER_WITHIN, "Authorization: Bearer " + TOKEN);
    bodies.add(response.body());
    return response;
  }

  private static JsonNode expect(int status, RawHttp.Response response) throws Exception {
    assertEquals(status, response.status(), response.head() + "\n\n" + response.body());
    return Json.mapper().readTree(response.body());
  }

  private JsonNode get(String target) throws Exception {
    return expect(200, call("GET", target, null));
  }

  /** A refusal with {@code status} and {@code code} whose message names {@code input}. */
  private static void assertRefused(
      int status, String code, String input, RawHttp.Response response) throws Exception {
    JsonNode error = expect(status, response);
    assertEquals(code, error.get("error").asText(), error.toString());
    assertTrue(
        error.get("message").asText().contains(input), "the message names " + input + ": " + error);
  }

  /** A rewind's report: its body comes in chunks after the early headers. */
  private JsonNode rewind(String body) throws Exception {
    RawHttp.Response response = call("POST", "/v1/rewind", body);
    assertEquals(200, response.status(), response.head() + "\n\n" + response.body());
    String text = response.body();
    return Json.mapper().readTree(text.substring(text.indexOf('{'), text.lastIndexOf('}') + 1));
  }

  private static String json(String text) {
    return Json.write(Json.mapper().getNodeFactory().textNode(text), false);
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  private String begin(TestWorkspace where, String session) throws Exception {
    return expect(
            201,
            call(
                "POST",
                "/v1/turns",
                "{\"workspace\":"
                    + json(where.root().toString())
                    + ",\"session\":"
                    + json(session)
                    + "}"))
        .get("turn")
        .asText();
  }

  private void snapshot(String turn, String... paths) throws Exception {
    StringBuilder list = new StringBuilder();
    for (String path : paths) {
      list.append(list.isEmpty() ? "" : ",").append(json(path));
    }
    expect(200, call("POST", "/v1/turns/" + turn + "/snapshots", "{\"paths\":[" + list + "]}"));
  }

  private JsonNode finish(String turn) throws Exception {
    return expect(200, call("POST", "/v1/turns/" + turn + "/finish", null));
  }

  /** A finished turn of {@code session} in which a tool wrote {@code content} to {@code file}. */
  private String turnWriting(TestWorkspace where, String session, String file, String content)
      throws Exception {
    String turn = begin(where, session);
    snapshot(turn, file);
    Files.writeString(where.resolve(file), content);
    finish(turn);
    return turn;
  }

  private void track(TestWorkspace where) throws Exception {
    expect(
        200,
        call(
            "POST",
            "/v1/workspaces/track",
            "{\"workspace\":" + json(where.root().toString()) + "}"));
  }

  /** Every turn of a session as the timeline lists it, by turn id. */
  private Map<String, JsonNode> listing(String session) throws Exception {
    Map<String, JsonNode> turns = new LinkedHashMap<>();
    get("/v1/sessions/" + session + "/turns?limit=500")
        .get("turns")
        .forEach(turn -> turns.put(turn.get("turn").asText(), turn));
    return turns;
  }

  private String beganAt(String turn) throws Exception {
    return get("/v1/turns/" + turn).get("began_at").asText();
  }

  private static Set<String> texts(JsonNode array, String field) {
    Set<String> values = new HashSet<>();
    array.forEach(node -> values.add(node.get(field).asText()));
    return values;
  }

  // ---- GET /v1/workspaces and the sessions' last turn

  @Test
  void theWorkspacesListNamesEachWorkspaceWithItsSessionsTurnsLastTurnAndTracking()
      throws Exception {
    assertEquals("{\"workspaces\":[]}", call("GET", "/v1/workspaces", null).body());
    TestWorkspace other = TestWorkspace.in(temp.resolve("other")).file("c.txt", "c\n");
    turnWriting(workspace, "s1", "a.txt", "a2\n");
    String second = turnWriting(workspace, "s1", "a.txt", "a3\n");
    String third = turnWriting(workspace, "s2", "b.txt", "b2\n");
    track(workspace);
    String fourth = turnWriting(other, "s3", "c.txt", "c2\n");

    JsonNode listed = get("/v1/workspaces").get("workspaces");
    assertEquals(2, listed.size(), listed.toString());
    assertTrue(
        listed
                .get(0)
                .get("last_turn_at")
                .asText()
                .compareTo(listed.get(1).get("last_turn_at").asText())
            >= 0,
        "the workspace with the newest turn first: " + listed);
    Map<String, JsonNode> byRoot = new LinkedHashMap<>();
    listed.forEach(entry -> byRoot.put(entry.get("workspace").asText(), entry));
    JsonNode base = byRoot.get(workspace.root().toRealPath().toString());
    JsonNode otherEntry = byRoot.get(other.root().toRealPath().toString());
    assertEquals(
        "{\"workspace\":"
            + json(workspace.root().toRealPath().toString())
            + ",\"sessions\":2,\"turns\":3,\"last_turn_at\":"
            + json(beganAt(third))
            + ",\"tracked\":true}",
        base.toString());
    assertEquals(
        "{\"workspace\":"
            + json(other.root().toRealPath().toString())
            + ",\"sessions\":1,\"turns\":1,\"last_turn_at\":"
            + json(beganAt(fourth))
            + ",\"tracked\":false}",
        otherEntry.toString());

    // each listed root goes back as ?workspace=, and its sessions add up to what was listed
    for (JsonNode entry : listed) {
      JsonNode sessions =
          get("/v1/sessions?workspace=" + encode(entry.get("workspace").asText())).get("sessions");
      assertEquals(entry.get("sessions").asInt(), sessions.size(), sessions.toString());
      int turns = 0;
      String newest = "";
      for (JsonNode session : sessions) {
        turns += session.get("turns").asInt();
        String last = session.get("last_turn_at").asText();
        newest = last.compareTo(newest) > 0 ? last : newest;
      }
      assertEquals(entry.get("turns").asInt(), turns);
      assertEquals(entry.get("last_turn_at").asText(), newest);
    }
    Map<String, String> lastBySession = new LinkedHashMap<>();
    get("/v1/sessions?workspace=" + encode(workspace.root().toString()))
        .get("sessions")
        .forEach(
            session ->
                lastBySession.put(
                    session.get("session").asText(), session.get("last_turn_at").asText()));
    assertEquals(Map.of("s1", beganAt(second), "s2", beganAt(third)), lastBySession);

    // the timeline's page names the workspace it belongs to, as the list does
    assertEquals(
        workspace.root().toRealPath().toString(),
        get("/v1/sessions/s1/turns").get("workspace").asText());

    Map<String, Long> rows = rowsAtRest();
    assertRefused(
        400, "bad_request", "'workspace'", call("GET", "/v1/workspaces?workspace=x", null));
    expect(405, call("POST", "/v1/workspaces", "{}"));
    assertEquals(rows, StoreRows.count(database), "nothing was written");

    // a service restricted to some directories lists only the workspaces it may name
    stop();
    start(WorkspacePolicy.within(List.of(other.base())), BoundaryOptions.defaults());
    JsonNode restricted = get("/v1/workspaces").get("workspaces");
    assertEquals(1, restricted.size(), restricted.toString());
    assertEquals(otherEntry, restricted.get(0));
    other.assertOutsideUnchanged();
    bodies.forEach(body -> other.canary().assertNotIn("an HTTP response", body));
  }

  // ---- the timeline's counts

  /**
   * A turn that records a file inside, one too large, a link out, a hardlink to the outside secret,
   * a FIFO and the outside secret by its absolute path, in a tracked workspace where a "shell
   * command" changes a file and makes one that no tool announced. While open, the listing counts
   * the records so far; once finished, it counts exactly what the finish summary counted, and what
   * the records say by the panel's rule; the records carry every reason.
   */
  @Test
  void theTimelineCountsWhatTheFinishSummaryCountedFromRealCaptures() throws Exception {
    stop();
    start(WorkspacePolicy.anyDirectory(), BoundaryOptions.builder().sizeLimit(1024).build());
    byte[] big = new byte[4096];
    Arrays.fill(big, (byte) 'x');
    workspace
        .file("big.txt", big)
        .file("tracked.txt", "tracked\n")
        .symlink("leak.txt", "../outside/secret.txt")
        .hardlink("hard.txt", workspace.secret())
        .fifo("pipe");
    track(workspace);
    String turn = begin(workspace, "s1");
    snapshot(
        turn, "a.txt", "big.txt", "leak.txt", "hard.txt", "pipe", workspace.secret().toString());

    JsonNode open = listing("s1").get(turn);
    JsonNode openRecords = get("/v1/turns/" + turn).get("files");
    int uncaptured = 0;
    for (JsonNode record : openRecords) {
      uncaptured += record.get("before").get("captured").asBoolean() ? 0 : 1;
    }
    assertEquals(5, uncaptured, openRecords.toString());
    assertEquals("open", open.get("state").asText());
    assertEquals(6, open.get("files").asInt(), open.toString());
    assertEquals(uncaptured, open.get("not_restorable").asInt(), open.toString());
    assertEquals(0, open.get("detected_by_scan").asInt(), open.toString());

    Files.writeString(workspace.resolve("a.txt"), "a by the tool\n");
    Arrays.fill(big, (byte) 'y');
    Files.write(workspace.resolve("big.txt"), big);
    Files.writeString(workspace.resolve("tracked.txt"), "changed by sed\n");
    Files.writeString(workspace.resolve("made-by-shell.txt"), "made by the shell\n");
    JsonNode summary = finish(turn);
    JsonNode listed = listing("s1").get(turn);
    for (String field : List.of("files", "not_restorable", "detected_by_scan")) {
      assertEquals(summary.get(field), listed.get(field), field + ": " + summary + " vs " + listed);
    }
    assertEquals(2, listed.get("detected_by_scan").asInt(), listed.toString());

    JsonNode records = get("/v1/turns/" + turn).get("files");
    // the finish summary has no line counts (its diffs follow it); the listing's are the records'
    assertTrue(summary.get("lines_added").isNull(), summary.toString());
    long added = 0;
    long removed = 0;
    for (JsonNode record : records) {
      added += record.get("added").asLong();
      removed += record.get("removed").asLong();
    }
    assertTrue(added > 0, records.toString());
    assertEquals(added, listed.get("lines_added").asLong(), listed.toString());
    assertEquals(removed, listed.get("lines_removed").asLong(), listed.toString());
    Set<String> byScan = new HashSet<>();
    int notRestorable = 0;
    Set<String> reasons = new HashSet<>();
    for (JsonNode record : records) {
      if (record.get("detected_by").asText().equals("scan")) {
        byScan.add(record.get("path").asText());
      }
      boolean directories =
          record.get("before").get("type").asText().equals("directory")
              && record.get("after").get("type").asText().equals("directory");
      if (!record.get("change").asText().equals("unchanged")
          && !record.get("restorable").asBoolean()
          && !directories) {
        notRestorable++;
      }
      for (String side : List.of("before", "after")) {
        if (!record.get(side).get("reason").isNull()) {
          reasons.add(record.get(side).get("reason").asText());
        }
      }
    }
    assertEquals(Set.of("tracked.txt", "made-by-shell.txt"), byScan);
    assertEquals(notRestorable, listed.get("not_restorable").asInt(), records.toString());
    assertTrue(notRestorable >= uncaptured, notRestorable + " of " + records);
    assertTrue(
        reasons.containsAll(
            Set.of(
                "outside_workspace",
                "escapes_workspace",
                "hardlinked",
                "special_file",
                "too_large")),
        "every reason a state was not captured is on its record: " + reasons);
    assertEquals("[]", listed.get("rewound_by").toString(), "no rewind touched it");
    assertTrue(listed.get("rewinds").isNull(), listed.toString());
  }

  // ---- rewound_by and rewinds

  /**
   * A rewind of one path, then of the whole turn, then the undo of that rewind, and a rewind that
   * met a conflict: each turn names the finished operations that rewound it, oldest first, with
   * their paths and whether they were complete; each rewind turn names what it rewound; the turn
   * object and the history say the same as the listing. A dry run rewinds nothing.
   */
  @Test
  void eachTurnNamesTheRewindsThatRewoundItAndEachRewindTurnWhatItRewound() throws Exception {
    String turn = begin(workspace, "s1");
    snapshot(turn, "a.txt", "b.txt");
    Files.writeString(workspace.resolve("a.txt"), "a by the turn\n");
    Files.writeString(workspace.resolve("b.txt"), "b by the turn\n");
    finish(turn);
    String t = json(turn);

    rewind("{\"turn\":" + t + ",\"paths\":[\"a.txt\"],\"dry_run\":true}");
    assertEquals("[]", listing("s1").get(turn).get("rewound_by").toString(), "a plan is no rewind");

    JsonNode one = rewind("{\"turn\":" + t + ",\"paths\":[\"a.txt\"],\"operation\":\"op-one\"}");
    String first = one.get("rewind_turn").asText();
    assertEquals("a\n", workspace.readText("a.txt"));
    JsonNode whole = rewind("{\"turn\":" + t + ",\"operation\":\"op-whole\"}");
    String second = whole.get("rewind_turn").asText();
    assertTrue(whole.get("complete").asBoolean(), whole.toString());
    JsonNode undo = rewind("{\"turn\":" + json(second) + ",\"operation\":\"op-undo\"}");
    String third = undo.get("rewind_turn").asText();

    Map<String, JsonNode> turns = listing("s1");
    JsonNode rewound = turns.get(turn);
    assertEquals(
        "finished", rewound.get("state").asText(), "its rewind undone: " + rewound.toString());
    String rewoundBy =
        "[{\"operation\":\"op-one\",\"rewind_turn\":"
            + json(first)
            + ",\"paths\":[\"a.txt\"],\"complete\":true,\"undone_by\":null},"
            + "{\"operation\":\"op-whole\",\"rewind_turn\":"
            + json(second)
            + ",\"paths\":null,\"complete\":true,\"undone_by\":"
            + json(third)
            + "}]";
    assertEquals(rewoundBy, rewound.get("rewound_by").toString());
    assertTrue(rewound.get("rewinds").isNull(), rewound.toString());

    JsonNode firstRewind = turns.get(first);
    assertEquals("rewind", firstRewind.get("kind").asText());
    assertEquals(
        "{\"operation\":\"op-one\",\"turns\":[" + t + "],\"paths\":[\"a.txt\"]}",
        firstRewind.get("rewinds").toString());
    assertEquals("[]", firstRewind.get("rewound_by").toString());
    assertEquals(
        "{\"operation\":\"op-whole\",\"turns\":[" + t + "],\"paths\":null}",
        turns.get(second).get("rewinds").toString());
    assertEquals(
        "[{\"operation\":\"op-undo\",\"rewind_turn\":"
            + json(third)
            + ",\"paths\":null,\"complete\":true,\"undone_by\":null}]",
        turns.get(second).get("rewound_by").toString(),
        "the undone rewind names its undo");
    assertEquals(
        "{\"operation\":\"op-undo\",\"turns\":[" + json(second) + "],\"paths\":null}",
        turns.get(third).get("rewinds").toString());

    // the turn object and the history say the same
    JsonNode object = get("/v1/turns/" + turn);
    assertEquals(rewoundBy, object.get("rewound_by").toString());
    assertTrue(object.get("rewinds").isNull());
    assertEquals(
        firstRewind.get("rewinds"), get("/v1/turns/" + first).get("rewinds"), "the rewind turn");
    Map<String, JsonNode> history = new LinkedHashMap<>();
    get("/v1/history?workspace=" + encode(workspace.root().toString()) + "&path=a.txt")
        .forEach(entry -> history.put(entry.get("turn").asText(), entry));
    assertTrue(history.keySet().containsAll(List.of(turn, first)), history.keySet().toString());
    for (String id : history.keySet()) {
      assertEquals(turns.get(id).get("rewound_by"), history.get(id).get("rewound_by"), id);
      assertEquals(turns.get(id).get("rewinds"), history.get(id).get("rewinds"), id);
    }

    // a rewind that met only a conflict put nothing back: it records no turn and is not listed
    String edited = turnWriting(workspace, "s1", "b.txt", "b by a later turn\n");
    Files.writeString(workspace.resolve("b.txt"), "a person rewrote it\n");
    JsonNode conflict = rewind("{\"turn\":" + json(edited) + ",\"operation\":\"op-conflict\"}");
    assertFalse(conflict.get("complete").asBoolean(), conflict.toString());
    assertEquals("conflict", conflict.get("skipped").get(0).get("reason").asText());
    assertTrue(conflict.get("rewind_turn").isNull(), conflict.toString());
    JsonNode stays = listing("s1").get(edited);
    assertEquals("[]", stays.get("rewound_by").toString());
    assertEquals("finished", stays.get("state").asText());
    assertEquals("a person rewrote it\n", workspace.readText("b.txt"), "the conflict was left");
  }

  // ---- a range, file by file

  /**
   * Three turns of one session: a text file changed and changed back (unchanged over the range),
   * one changed twice, a binary file. Each file of {@code GET /v1/range} loads alone from {@code
   * GET /v1/range/file} as that path's section of the range's patch, the binary one summarised.
   */
  @Test
  void aRangeLoadsFileByFileAsTheSectionsOfItsPatch() throws Exception {
    byte[] binary = {0, 1, 2, 3, (byte) 0xFF, 0, 'x'};
    String first = begin(workspace, "s1");
    snapshot(first, "a.txt", "bin.dat");
    Files.writeString(workspace.resolve("a.txt"), "a2\n");
    Files.write(workspace.resolve("bin.dat"), binary);
    finish(first);
    String second = begin(workspace, "s1");
    snapshot(second, "a.txt", "b.txt");
    Files.writeString(workspace.resolve("a.txt"), "a\n");
    Files.writeString(workspace.resolve("b.txt"), "b2\n");
    finish(second);
    String third = turnWriting(workspace, "s1", "b.txt", "b3\n");

    String range = "from=" + first + "&to=" + third;
    JsonNode files = get("/v1/range?" + range).get("files");
    assertEquals(Set.of("a.txt", "b.txt", "bin.dat"), texts(files, "path"));
    String patch = call("GET", "/v1/range/patch?" + range, null).body();
    Map<String, String> diffs = new LinkedHashMap<>();
    for (JsonNode file : files) {
      String path = file.get("path").asText();
      JsonNode answer = get("/v1/range/file?" + range + "&path=" + encode(path));
      assertEquals(first, answer.get("from").asText());
      assertEquals(third, answer.get("to").asText());
      assertEquals(path, answer.get("path").asText());
      diffs.put(path, answer.get("diff").asText());
    }
    assertEquals("", diffs.get("a.txt"), "changed and changed back: nothing over the range");
    assertTrue(diffs.get("b.txt").contains("-b\n+b3\n"), diffs.get("b.txt"));
    assertTrue(patch.contains(diffs.get("b.txt")), "the section of the range's patch: " + patch);
    assertTrue(
        diffs.get("bin.dat").contains("Binary files /dev/null and b/bin.dat differ")
            || diffs.get("bin.dat").contains("Binary files a/bin.dat and b/bin.dat differ"),
        diffs.get("bin.dat"));
    assertTrue(patch.contains("GIT binary patch"), "the range's patch carries the bytes: " + patch);
    assertTrue(
        get("/v1/range/file?from=" + second + "&to=" + second + "&path=a.txt")
            .get("diff")
            .asText()
            .contains("-a2\n+a\n"),
        "a range of one turn");
    assertEquals(
        diffs.get("b.txt"),
        get("/v1/range/file?" + range + "&path=" + encode("./x/../b.txt")).get("diff").asText(),
        "the path is read as a snapshot reads it");
  }

  @Test
  void aBadRangeFileRequestIsRefusedNamingWhatIsWrong() throws Exception {
    String first = turnWriting(workspace, "s1", "a.txt", "a2\n");
    String second = turnWriting(workspace, "s1", "b.txt", "b2\n");
    String elsewhere = turnWriting(workspace, "s2", "a.txt", "a3\n");
    String open = begin(workspace, "s1");
    snapshot(open, "a.txt");
    Map<String, Long> rows = rowsAtRest();
    String range = "/v1/range/file?from=" + first + "&to=" + second;
    assertRefused(400, "bad_input", "'never.txt'", call("GET", range + "&path=never.txt", null));
    assertRefused(400, "bad_input", "'../x'", call("GET", range + "&path=" + encode("../x"), null));
    assertRefused(400, "bad_request", "'path'", call("GET", range, null));
    assertRefused(
        400,
        "bad_request",
        "'from'",
        call("GET", "/v1/range/file?to=" + second + "&path=a.txt", null));
    assertRefused(
        400,
        "bad_request",
        "'to'",
        call("GET", "/v1/range/file?from=" + first + "&path=a.txt", null));
    assertRefused(400, "bad_request", "'line'", call("GET", range + "&path=a.txt&line=3", null));
    assertRefused(
        400,
        "bad_input",
        "comes after",
        call("GET", "/v1/range/file?from=" + second + "&to=" + first + "&path=a.txt", null));
    assertRefused(
        400,
        "bad_input",
        "different sessions",
        call("GET", "/v1/range/file?from=" + first + "&to=" + elsewhere + "&path=a.txt", null));
    assertRefused(
        404,
        "unknown_turn",
        "'nope'",
        call("GET", "/v1/range/file?from=" + first + "&to=nope&path=a.txt", null));
    assertRefused(
        409,
        "wrong_state",
        open,
        call("GET", "/v1/range/file?from=" + first + "&to=" + open + "&path=a.txt", null));
    assertEquals(rows, StoreRows.count(database), "nothing was written");
  }

  /**
   * The store's row counts once the line diffs of the turns finished so far are stored: the service
   * stores them in the background after a finish, and under load they landed after a count taken
   * too early (a blob more, at load 20).
   */
  // ---- a file's diff as a reader asks for it

  private String fileDiff(String turn, String path, String options) throws Exception {
    return get("/v1/turns/" + turn + "/file?path=" + encode(path) + options).get("diff").asText();
  }

  /**
   * {@code whitespace=ignore} and {@code context=N} draw a file's diff from the two states the
   * store holds: a change of whitespace alone is gone (a file changed only so is its header with no
   * hunk), and the whole file is the turn's after-state even once the workspace's file changed
   * since. Bad values are a 400 naming the parameter and the value, and write nothing.
   */
  @Test
  void aFileDiffIsDrawnIgnoringWhitespaceOrWithMoreContextFromTheStoredStates() throws Exception {
    String before = "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nif x:\n  y = 1\nl12\n";
    String after = "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nL9\nif  x :\n\ty = 1\nl12\n";
    Files.writeString(workspace.resolve("a.txt"), before);
    Files.writeString(workspace.resolve("b.txt"), "b = 1\n");
    String turn = begin(workspace, "s1");
    snapshot(turn, "a.txt", "b.txt");
    Files.writeString(workspace.resolve("a.txt"), after);
    Files.writeString(workspace.resolve("b.txt"), "b  =  1   \n");
    finish(turn);
    // the workspace moves on: what the reader is served stays the turn's
    Files.writeString(workspace.resolve("a.txt"), "a person's later edit\n");

    String shown = fileDiff(turn, "a.txt", "");
    assertEquals(shown, fileDiff(turn, "a.txt", "&whitespace=show&context=3"), "the defaults");
    assertTrue(shown.contains("\n-  y = 1\n") && shown.contains("\n+\ty = 1\n"), shown);
    String ignoring = fileDiff(turn, "a.txt", "&whitespace=ignore");
    assertTrue(ignoring.contains("@@ -6,7 +6,7 @@\n l6\n l7\n l8\n-l9\n+L9\n if  x :\n"), ignoring);
    assertFalse(ignoring.contains("-  y = 1"), ignoring);
    String onlyWhitespace = fileDiff(turn, "b.txt", "&whitespace=ignore");
    assertTrue(onlyWhitespace.startsWith("diff --git a/b.txt b/b.txt\nindex "), onlyWhitespace);
    assertFalse(onlyWhitespace.contains("@@"), onlyWhitespace);
    assertTrue(fileDiff(turn, "b.txt", "").contains("@@ -1 +1 @@"));

    assertTrue(fileDiff(turn, "a.txt", "&context=0").contains("@@ -9,3 +9,3 @@\n-l9\n"));
    String whole = fileDiff(turn, "a.txt", "&context=1000000");
    assertTrue(
        whole.endsWith(
            "@@ -1,12 +1,12 @@\n l1\n l2\n l3\n l4\n l5\n l6\n l7\n l8\n"
                + "-l9\n-if x:\n-  y = 1\n+L9\n+if  x :\n+\ty = 1\n l12\n"),
        whole);

    Map<String, Long> rows = rowsAtRest();
    String target = "/v1/turns/" + turn + "/file?path=a.txt";
    assertRefused(
        400, "bad_request", "'whitespace'", call("GET", target + "&whitespace=yes", null));
    assertRefused(400, "bad_request", "'yes'", call("GET", target + "&whitespace=yes", null));
    for (String context : List.of("-1", "abc", "1000001", "3.5", "")) {
      assertRefused(
          400, "bad_request", "'context'", call("GET", target + "&context=" + context, null));
    }
    String range = "/v1/range/file?from=" + turn + "&to=" + turn + "&path=b.txt";
    assertFalse(get(range + "&whitespace=ignore").get("diff").asText().contains("@@"));
    assertTrue(get(range).get("diff").asText().contains("@@ -1 +1 @@"));
    assertRefused(
        400, "bad_request", "'whitespace'", call("GET", range + "&whitespace=IGNORE", null));
    assertRefused(400, "bad_request", "'context'", call("GET", range + "&context=-3", null));
    assertEquals(rows, StoreRows.count(database), "nothing was written");
  }

  private Map<String, Long> rowsAtRest() {
    turndiff.diffs().awaitAskedFor();
    // a read folds the before log (an open turn's snapshot calls, docs/store-layout.md) into the
    // tables counted here, as every reader's first look does: counted after it, a refused request
    // that reads is seen to have written nothing of its own
    turndiff.store().read(tx -> 0);
    return StoreRows.count(database);
  }
}
