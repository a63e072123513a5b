package io.turndiff.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
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
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP service in this JVM on a real loopback port, spoken to byte by byte over sockets:
 * hostile and broken input (a NUL in a workspace, misspelt and mistyped fields, duplicates,
 * trailing data, numbers out of range, workspaces that may never be roots or lie outside the
 * allowed directories) gets a 400/403/413 that names the input, and nothing is written. Every
 * response is checked for the canary.
 */
class HttpServiceTest {

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
    workspace = TestWorkspace.in(temp.resolve("base")).file("a.txt", "a\n");
    database = TestStore.fileIn(temp);
    start(WorkspacePolicy.anyDirectory());
  }

  private void start(WorkspacePolicy policy) {
    start(policy, Set.of());
  }

  private void start(WorkspacePolicy policy, Set<String> allowedOrigins) {
    turndiff = Turndiff.builder(database).policy(policy).open();
    try {
      service =
          HttpService.start(
              turndiff,
              ServiceOptions.builder(TOKEN)
                  .port(0)
                  .allowedOrigins(allowedOrigins)
                  .shutdownGrace(Duration.ofSeconds(1))
                  .build());
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

  private RawHttp.Response request(String method, String target, String body, String... headers) {
    RawHttp.Response response =
        RawHttp.request(service.port(), method, target, body, ANSWER_WITHIN, headers);
    bodies.add(response.body());
    return response;
  }

  private RawHttp.Response call(String method, String target, String body) {
    return request(method, target, body, "Authorization: Bearer " + TOKEN);
  }

  private JsonNode expect(int status, RawHttp.Response response) throws Exception {
    assertEquals(status, response.status(), response.head() + "\n\n" + response.body());
    return Json.mapper().readTree(response.body());
  }

  /** A 400 whose message names {@code input}. */
  private void assertRefused(String code, String input, RawHttp.Response response)
      throws Exception {
    JsonNode error = expect(400, response);
    assertEquals(code, error.get("error").asText(), error.toString());
    assertTrue(
        error.get("message").asText().contains(input), "the message names " + input + ": " + error);
  }

  private static String json(String text) {
    return Json.write(Json.mapper().getNodeFactory().textNode(text), false);
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  private String openTurn() throws Exception {
    return expect(
            201,
            call(
                "POST",
                "/v1/turns",
                "{\"workspace\":" + json(workspace.root().toString()) + ",\"session\":\"s1\"}"))
        .get("turn")
        .asText();
  }

  /** Begins a turn, snapshots a.txt, changes it, finishes: a turn a rewind would write to. */
  private String finishedTurn() throws Exception {
    String turn = openTurn();
    expect(200, call("POST", "/v1/turns/" + turn + "/snapshots", "{\"paths\":[\"a.txt\"]}"));
    Files.writeString(workspace.resolve("a.txt"), "changed by the turn\n");
    expect(200, call("POST", "/v1/turns/" + turn + "/finish", null));
    return turn;
  }

  // ---- issue 24 item 2: the ignored files, as track takes them
  // ----------------------------------------------------------

  @Test
  void trackTakesWhatToKeepOfIgnoredFilesAndTheirCapAndKeepsThemOnTheNextTrack() throws Exception {
    workspace.file(".gitignore", "*.log\n").file("x.log", "x\n").file("big.log", "0123456789ab\n");
    String root = json(workspace.root().toString());
    Map<String, Long> rows = rowsAtRest();
    assertRefused(
        "bad_request",
        "'ignored_files'",
        call(
            "POST",
            "/v1/workspaces/track",
            "{\"workspace\":" + root + ",\"ignored_files\":\"all\"}"));
    assertRefused(
        "bad_request",
        "'ignored_max_bytes'",
        call(
            "POST",
            "/v1/workspaces/track",
            "{\"workspace\":" + root + ",\"ignored_max_bytes\":-1}"));
    assertEquals(rows, StoreRows.count(database), "nothing was written");

    JsonNode tracked =
        expect(
                200,
                call(
                    "POST",
                    "/v1/workspaces/track",
                    "{\"workspace\":"
                        + root
                        + ",\"ignored_files\":\"metadata\",\"ignored_max_bytes\":10}"))
            .get("ignored_files");
    assertEquals("metadata", tracked.get("kept").asText(), tracked.toString());
    assertEquals(10, tracked.get("max_bytes").asLong(), tracked.toString());
    assertEquals(1, tracked.get("indexed").asInt(), tracked.toString());
    assertEquals("[\"big.log\"]", tracked.get("over_cap").toString());

    // a track that names neither keeps both, and status shows them
    JsonNode again =
        expect(200, call("POST", "/v1/workspaces/track", "{\"workspace\":" + root + "}"))
            .get("ignored_files");
    assertEquals(tracked, again);
    JsonNode status =
        expect(
                200,
                call(
                    "GET",
                    "/v1/workspaces/status?workspace=" + encode(workspace.root().toString()),
                    null))
            .get("ignored_files");
    assertEquals("metadata", status.get("kept").asText(), status.toString());
    assertEquals(10, status.get("max_bytes").asLong(), status.toString());
  }

  // ---- issue 24: rewind to before a tool call
  // ----------------------------------------------------------

  @Test
  void aRewindToBeforeAToolCallPutsBackWhatThatCallFoundAndKeepsTheEarlierCall() throws Exception {
    Files.writeString(workspace.resolve("b.txt"), "b0\n");
    String turn = openTurn();
    String snapshots = "/v1/turns/" + turn + "/snapshots";
    expect(200, call("POST", snapshots, "{\"paths\":[\"a.txt\"],\"tool_call\":\"c-1\"}"));
    Files.writeString(workspace.resolve("a.txt"), "by c-1\n");
    expect(200, call("POST", snapshots, "{\"paths\":[\"a.txt\",\"b.txt\"],\"tool_call\":\"c-2\"}"));
    Files.writeString(workspace.resolve("a.txt"), "by c-2\n");
    Files.writeString(workspace.resolve("b.txt"), "b by c-2\n");
    expect(200, call("POST", "/v1/turns/" + turn + "/finish", null));
    Map<String, Long> rows = rowsAtRest();
    assertRefused(
        "bad_input",
        "'c-9'",
        call("POST", "/v1/rewind", "{\"turn\":\"" + turn + "\",\"before_tool_call\":\"c-9\"}"));
    assertEquals(rows, StoreRows.count(database), "nothing was written");
    JsonNode report =
        expect(
            200,
            call("POST", "/v1/rewind", "{\"turn\":\"" + turn + "\",\"before_tool_call\":\"c-2\"}"));
    assertEquals("c-2", report.get("before_tool_call").asText(), report.toString());
    assertTrue(report.get("complete").asBoolean(), report.toString());
    assertEquals("by c-1\n", workspace.readText("a.txt"), "c-1's edit stays");
    assertEquals("b0\n", workspace.readText("b.txt"));
  }

  @Test
  void aTurnListsItsToolCallsInTheOrderItRecordedThemForThePanelsSteps() throws Exception {
    String turn = openTurn();
    String snapshots = "/v1/turns/" + turn + "/snapshots";
    // ids that do not sort as the calls came
    for (String call : List.of("toolu-z", "toolu-a", "toolu-m")) {
      expect(
          200, call("POST", snapshots, "{\"paths\":[\"a.txt\"],\"tool_call\":\"" + call + "\"}"));
    }
    expect(200, call("POST", "/v1/turns/" + turn + "/finish", null));
    JsonNode shown = expect(200, call("GET", "/v1/turns/" + turn, null));
    List<String> ids = new ArrayList<>();
    shown.get("calls").forEach(call -> ids.add(call.get("id").asText()));
    assertEquals(List.of("toolu-z", "toolu-a", "toolu-m"), ids, shown.toString());
  }

  // ---- issue 22 item 8: one hunk
  // -----------------------------------------------------------------------

  @Test
  void aRewindOfOneHunkReversesItAloneAndABadHunkIsRefusedUnwritten() throws Exception {
    String before = "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\nl11\nl12\nl13\nl14\n";
    String after = before.replace("l2\n", "two\n").replace("l13\n", "thirteen\n");
    Files.writeString(workspace.resolve("a.txt"), before);
    String turn = openTurn();
    expect(200, call("POST", "/v1/turns/" + turn + "/snapshots", "{\"paths\":[\"a.txt\"]}"));
    Files.writeString(workspace.resolve("a.txt"), after);
    expect(200, call("POST", "/v1/turns/" + turn + "/finish", null));
    Map<String, Long> rows = rowsAtRest();
    String body = "{\"turn\":\"" + turn + "\",\"paths\":[\"a.txt\"],\"hunk\":";
    assertRefused("bad_input", "there is no hunk 3", call("POST", "/v1/rewind", body + "3}"));
    assertRefused(
        "bad_input",
        "exactly one path",
        call("POST", "/v1/rewind", "{\"turn\":\"" + turn + "\",\"hunk\":1}"));
    assertEquals(rows, StoreRows.count(database), "nothing was written");
    JsonNode report = expect(200, call("POST", "/v1/rewind", body + "1}"));
    assertEquals(1, report.get("hunk").asInt(), report.toString());
    assertTrue(report.get("complete").asBoolean(), report.toString());
    assertEquals(after.replace("two\n", "l2\n"), workspace.readText("a.txt"), "hunk 2 stays");
  }

  /**
   * A plan's file to merge carries its preview (issue 22 item 3): the patch from the file now to
   * what the run writes, and the run then writes exactly that.
   */
  @Test
  void aPlansFileToMergeCarriesThePatchFromTheFileNowToWhatTheRunWrites() throws Exception {
    String before = "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\nl11\nl12\nl13\nl14\n";
    Files.writeString(workspace.resolve("a.txt"), before);
    String turn = openTurn();
    expect(200, call("POST", "/v1/turns/" + turn + "/snapshots", "{\"paths\":[\"a.txt\"]}"));
    Files.writeString(workspace.resolve("a.txt"), before.replace("l2\n", "two\n"));
    expect(200, call("POST", "/v1/turns/" + turn + "/finish", null));
    String users = before.replace("l2\n", "two\n").replace("l13\n", "the user's 13\n");
    Files.writeString(workspace.resolve("a.txt"), users);

    JsonNode plan =
        expect(200, call("POST", "/v1/rewind", "{\"turn\":" + json(turn) + ",\"dry_run\":true}"));
    assertEquals("[\"a.txt\"]", plan.get("merged").toString(), plan.toString());
    JsonNode preview = plan.get("merge_previews").get("a.txt");
    String patch = preview.get("patch").asText();
    assertTrue(patch.startsWith("diff --git a/a.txt b/a.txt\n"), patch);
    assertTrue(patch.endsWith("@@ -1,5 +1,5 @@\n l1\n-two\n+l2\n l3\n l4\n l5\n"), patch);
    assertEquals(0, preview.get("omitted_lines").asInt(), plan.toString());
    assertEquals(users, workspace.readText("a.txt"), "a plan writes nothing");

    JsonNode done = report(call("POST", "/v1/rewind", "{\"turn\":" + json(turn) + "}"));
    assertEquals("[\"a.txt\"]", done.get("merged").toString(), done.toString());
    assertTrue(done.get("merge_previews").isNull(), done.toString());
    assertEquals(users.replace("two\n", "l2\n"), workspace.readText("a.txt"));
  }

  // ---- issue 24: who wrote each line
  // -------------------------------------------------------------------

  @Test
  void blameGivesEachLineOfTheFileNowToTheTurnThatWroteItOrToNoTurn() throws Exception {
    String turn = finishedTurn();
    Files.writeString(workspace.resolve("a.txt"), "changed by the turn\nand by hand\n");
    Map<String, Long> rows = rowsAtRest();
    String where = "workspace=" + encode(workspace.root().toString());
    JsonNode blame = expect(200, call("GET", "/v1/blame?" + where + "&path=a.txt", null));
    assertEquals("a.txt", blame.get("path").asText());
    assertEquals(2, blame.get("lines").size(), blame.toString());
    assertEquals("turn", blame.get("lines").get(0).get("origin").asText());
    assertEquals(turn, blame.get("lines").get(0).get("turn").asText());
    assertEquals("outside_any_turn", blame.get("lines").get(1).get("origin").asText());
    assertEquals(turn, blame.get("turns").get(0).get("turn").asText());
    assertRefused(
        "bad_input",
        "'b.txt' does not exist now",
        call("GET", "/v1/blame?" + where + "&path=b.txt", null));
    assertRefused("bad_request", "path", call("GET", "/v1/blame?" + where, null));
    assertEquals(rows, StoreRows.count(database), "nothing was written");
  }

  // ---- item 10: a NUL in a workspace
  // -------------------------------------------------------------------

  @Test
  void aWorkspaceWithANulIsBadInputNamingItOnEveryEndpointThatTakesOne() throws Exception {
    finishedTurn();
    Map<String, Long> rows = rowsAtRest();
    String withNul = workspace.root() + "\u0000/etc";
    String encoded = encode(withNul);
    assertRefused(
        "bad_input",
        "workspace",
        call("POST", "/v1/turns", "{\"workspace\":" + json(withNul) + "}"));
    assertRefused(
        "bad_input",
        "workspace",
        call("POST", "/v1/workspaces/track", "{\"workspace\":" + json(withNul) + "}"));
    assertRefused("bad_input", "workspace", call("GET", "/v1/sessions?workspace=" + encoded, null));
    assertRefused(
        "bad_input",
        "workspace",
        call("GET", "/v1/history?workspace=" + encoded + "&path=a.txt", null));
    assertRefused(
        "bad_input", "workspace", call("GET", "/v1/workspaces/status?workspace=" + encoded, null));
    assertTrue(call("GET", "/v1/sessions?workspace=" + encoded, null).body().contains("NUL"));
    assertEquals(rows, StoreRows.count(database), "nothing was written");
  }

  // ---- issue 10: one way in for a path
  // -----------------------------------------------------------------

  /**
   * Each path field is decoded once into its own input: a text beside a base64 path is still a text
   * and held to the U+FFFD rule. (Before, any {@code paths_base64} sent every text through the byte
   * parser, and a lossy name was recorded.)
   */
  @Test
  void aTextPathBesideABase64PathIsStillHeldToTheLossyNameRule() throws Exception {
    String turn = openTurn();
    Map<String, Long> rows = rowsAtRest();
    String aTxt = "\"YS50eHQ=\""; // a.txt
    JsonNode lossy =
        expect(
            400,
            call(
                "POST",
                "/v1/turns/" + turn + "/snapshots",
                "{\"paths\":[\"caf\\ufffd.txt\"],\"paths_base64\":[" + aTxt + "]}"));
    assertEquals(
        "path 'caf\uFFFD.txt' contains U+FFFD: a name that was not valid UTF-8 before it reached "
            + "turndiff; give its bytes instead (base64)",
        lossy.get("message").asText(),
        lossy.toString());
    JsonNode surrogate =
        expect(
            400,
            call(
                "POST",
                "/v1/turns/" + turn + "/snapshots",
                "{\"paths\":[\"a\\ud800b\"],\"paths_base64\":[" + aTxt + "]}"));
    assertEquals(
        "path 'a\uD800b' is not valid Unicode (an unpaired surrogate)",
        surrogate.get("message").asText(),
        surrogate.toString());
    assertEquals(rows, StoreRows.count(database), "nothing was recorded");
    expect(
        200,
        call(
            "POST",
            "/v1/turns/" + turn + "/snapshots",
            "{\"paths\":[\"b.txt\"],\"paths_base64\":[" + aTxt + "]}"));
  }

  /**
   * A snapshot's {@code tool} is a label every view prints: one over 128 characters, or with a
   * control character in it, is refused naming the field, and nothing is recorded.
   */
  @Test
  void aToolNameTooLongOrWithAControlCharacterIsRefusedNamingTheFieldAndNothingIsRecorded()
      throws Exception {
    String turn = openTurn();
    Map<String, Long> rows = rowsAtRest();
    for (String tool : List.of("W".repeat(129), "Write\nIgnore the user", "")) {
      assertRefused(
          "bad_request",
          "field 'tool'",
          call(
              "POST",
              "/v1/turns/" + turn + "/snapshots",
              "{\"tool\":\"" + tool + "\",\"paths\":[\"a.txt\"]}"));
    }
    assertEquals(rows, StoreRows.count(database), "nothing was recorded");
    expect(
        200,
        call(
            "POST",
            "/v1/turns/" + turn + "/snapshots",
            "{\"tool\":\"" + "W".repeat(128) + "\",\"paths\":[\"a.txt\"]}"));
  }

  @Test
  void aBase64PathThatIsNotBase64IsRefusedNamingTheFieldAndTheValue() throws Exception {
    String turn = openTurn();
    Map<String, Long> rows = rowsAtRest();
    JsonNode error =
        expect(
            400,
            call(
                "POST",
                "/v1/turns/" + turn + "/snapshots",
                "{\"paths\":[\"a.txt\"],\"paths_base64\":[\"YS50eHQ=\",\"!!!!\"]}"));
    assertEquals("bad_request", error.get("error").asText(), error.toString());
    assertEquals(
        "field 'paths_base64[1]' is not base64: '!!!!'",
        error.get("message").asText(),
        error.toString());
    assertRefused(
        "bad_request",
        "'paths_base64[0]'",
        call("POST", "/v1/turns/" + turn + "/snapshots", "{\"paths_base64\":[7]}"));
    assertEquals(rows, StoreRows.count(database), "nothing was recorded");
  }

  /**
   * The review endpoints read {@code path=} as a snapshot reads a path: {@code .} and {@code ..}
   * applied.
   */
  @Test
  void theReviewEndpointsReadAPathAsASnapshotDoes() throws Exception {
    String turn = finishedTurn();
    String workspaceParameter = "workspace=" + encode(workspace.root().toString());
    for (String given : List.of("a.txt", "./a.txt", "x/../a.txt", workspace.root() + "/./a.txt")) {
      JsonNode history =
          expect(
              200,
              call("GET", "/v1/history?" + workspaceParameter + "&path=" + encode(given), null));
      assertEquals(1, history.size(), given + ": " + history);
      assertEquals(turn, history.get(0).get("turn").asText());
      JsonNode file =
          expect(200, call("GET", "/v1/turns/" + turn + "/file?path=" + encode(given), null));
      assertTrue(file.get("diff").asText().contains("+changed by the turn\n"), given + ": " + file);
    }
    assertRefused(
        "bad_input",
        "U+FFFD",
        call(
            "GET", "/v1/history?" + workspaceParameter + "&path=" + encode("caf\uFFFD.txt"), null));
  }

  // ---- item 11: bodies and queries are read strictly
  // ---------------------------------------------------

  @Test
  void aMisspeltDryRunFlagIsRefusedAndNothingIsRewound() throws Exception {
    String turn = finishedTurn();
    Map<String, Long> rows = rowsAtRest();
    assertRefused(
        "bad_request",
        "'dryrun'",
        call("POST", "/v1/rewind", "{\"turn\":\"" + turn + "\",\"dryrun\":true}"));
    assertEquals("changed by the turn\n", workspace.readText("a.txt"), "no real rewind happened");
    assertEquals(rows, StoreRows.count(database), "nothing was written");
    JsonNode plan =
        expect(200, call("POST", "/v1/rewind", "{\"turn\":\"" + turn + "\",\"dry_run\":true}"));
    assertTrue(plan.get("dry_run").asBoolean(), "the documented flag still works: " + plan);
    assertEquals("changed by the turn\n", workspace.readText("a.txt"));
  }

  @Test
  void fieldsOfTheWrongTypeAreRefusedNamingTheField() throws Exception {
    String turn = finishedTurn();
    Map<String, Long> rows = rowsAtRest();
    String root = json(workspace.root().toString());
    assertRefused(
        "bad_request",
        "'max_files'",
        call(
            "POST", "/v1/workspaces/track", "{\"workspace\":" + root + ",\"max_files\":\"lots\"}"));
    assertRefused(
        "bad_request",
        "'max_files'",
        call("POST", "/v1/workspaces/track", "{\"workspace\":" + root + ",\"max_files\":1.5e300}"));
    assertRefused(
        "bad_request",
        "'max_bytes'",
        call(
            "POST",
            "/v1/workspaces/track",
            "{\"workspace\":" + root + ",\"max_bytes\":18446744073709551716}"));
    assertRefused(
        "bad_request",
        "'max_files'",
        call("POST", "/v1/workspaces/track", "{\"workspace\":" + root + ",\"max_files\":0}"));
    assertRefused(
        "bad_request",
        "'dry_run'",
        call("POST", "/v1/rewind", "{\"turn\":\"" + turn + "\",\"dry_run\":\"true\"}"));
    assertRefused(
        "bad_request",
        "'force'",
        call("POST", "/v1/rewind", "{\"turn\":\"" + turn + "\",\"force\":1}"));
    assertRefused("bad_request", "'turn'", call("POST", "/v1/rewind", "{\"turn\":7}"));
    assertRefused("bad_request", "'turn'", call("POST", "/v1/rewind", "{\"dry_run\":true}"));
    assertRefused("bad_request", "'workspace'", call("POST", "/v1/turns", "{\"workspace\":5}"));
    assertRefused("bad_request", "'workspace'", call("POST", "/v1/turns", "{\"workspace\":null}"));
    assertRefused(
        "bad_request",
        "'paths'",
        call("POST", "/v1/turns/" + turn + "/snapshots", "{\"paths\":\"a.txt\"}"));
    assertRefused(
        "bad_request",
        "'paths[1]'",
        call("POST", "/v1/turns/" + turn + "/snapshots", "{\"paths\":[\"a.txt\",5]}"));
    assertRefused(
        "bad_request", "'extra'", call("POST", "/v1/turns/" + turn + "/finish", "{\"extra\":1}"));
    assertRefused("bad_request", "JSON object", call("POST", "/v1/turns", "[]"));
    assertRefused("bad_request", "JSON object", call("POST", "/v1/turns", "null"));
    assertEquals(rows, StoreRows.count(database), "nothing was written");
    assertEquals(
        422,
        call("GET", "/v1/workspaces/status?workspace=" + encode(workspace.root().toString()), null)
            .status(),
        "no refused track started tracking");
    assertEquals("changed by the turn\n", workspace.readText("a.txt"));
  }

  @Test
  void aNullFlagOrNumberIsRefusedNamingTheFieldAndNothingIsRewound() throws Exception {
    String turn = finishedTurn();
    Map<String, Long> rows = rowsAtRest();
    for (String flag : List.of("dry_run", "force", "to")) {
      assertRefused(
          "bad_request",
          "'" + flag + "'",
          call("POST", "/v1/rewind", "{\"turn\":\"" + turn + "\",\"" + flag + "\":null}"));
    }
    String root = json(workspace.root().toString());
    for (String number : List.of("max_files", "max_bytes")) {
      assertRefused(
          "bad_request",
          "'" + number + "'",
          call(
              "POST",
              "/v1/workspaces/track",
              "{\"workspace\":" + root + ",\"" + number + "\":null}"));
    }
    assertEquals(
        "changed by the turn\n",
        workspace.readText("a.txt"),
        "\"dry_run\":null made no real rewind");
    assertEquals(rows, StoreRows.count(database), "nothing was written");
  }

  @Test
  void anAllowedOriginMayReadBothEarlyHeadersOfARewind() throws Exception {
    stop();
    start(WorkspacePolicy.anyDirectory(), Set.of("https://app.example"));
    String turn = finishedTurn();
    RawHttp.Response response =
        request(
            "POST",
            "/v1/rewind",
            "{\"turn\":\"" + turn + "\"}",
            "Authorization: Bearer " + TOKEN,
            "Origin: https://app.example");
    assertEquals(200, response.status(), response.head() + "\n" + response.body());
    List<String> head = response.head().toLowerCase(Locale.ROOT).lines().toList();
    assertTrue(head.contains("turndiff-resumed: false"), response.head());
    String exposed =
        head.stream()
            .filter(line -> line.startsWith("access-control-expose-headers:"))
            .findFirst()
            .orElseThrow(() -> new AssertionError(response.head()));
    assertTrue(
        exposed.contains("turndiff-operation") && exposed.contains("turndiff-resumed"),
        "a browser script may read both headers the rewind sends before its first write: "
            + exposed);
  }

  @Test
  void duplicateFieldsAndTrailingDataAreRefused() throws Exception {
    String turn = finishedTurn();
    Map<String, Long> rows = rowsAtRest();
    assertRefused(
        "bad_request",
        "'dry_run'",
        call(
            "POST",
            "/v1/rewind",
            "{\"turn\":\"" + turn + "\",\"dry_run\":true,\"dry_run\":false}"));
    String root = json(workspace.root().toString());
    assertRefused(
        "bad_request",
        "after its JSON object",
        call("POST", "/v1/turns", "{\"workspace\":" + root + "} {\"workspace\":\"/\"}"));
    assertRefused(
        "bad_request",
        "not valid JSON",
        call("POST", "/v1/turns", "{\"workspace\":" + root + "}x"));
    assertRefused("bad_request", "not valid JSON", call("POST", "/v1/turns", "{\"workspace\":"));
    assertEquals(rows, StoreRows.count(database), "nothing was written");
    assertEquals("changed by the turn\n", workspace.readText("a.txt"));
  }

  @Test
  void everyEndpointWithABodyRefusesUnknownFieldsWrongTypesDuplicatesAndTrailingDataNamingTheField()
      throws Exception {
    String turn = finishedTurn();
    String open =
        expect(
                201,
                call(
                    "POST",
                    "/v1/turns",
                    "{\"workspace\":" + json(workspace.root().toString()) + ",\"session\":\"s1\"}"))
            .get("turn")
            .asText();
    Map<String, Long> rows = rowsAtRest();
    String root = json(workspace.root().toString());
    String t = json(turn);
    // per endpoint: a valid body, one with a field of the wrong type, one with a field given twice
    // (none for
    // finish, which takes no fields); every body that would be wrongly accepted is harmless or
    // shows in the store
    record Endpoint(
        String target,
        String valid,
        String wrongField,
        String wrongType,
        String twiceField,
        String twice) {}
    List<Endpoint> endpoints =
        List.of(
            new Endpoint(
                "/v1/turns",
                "{\"workspace\":" + root + "}",
                "session",
                "{\"workspace\":" + root + ",\"session\":[\"s1\"]}",
                "workspace",
                "{\"workspace\":" + root + ",\"workspace\":" + root + "}"),
            new Endpoint(
                "/v1/turns/" + open + "/snapshots",
                "{\"paths\":[\"a.txt\"]}",
                "tool_call",
                "{\"paths\":[\"a.txt\"],\"tool_call\":7}",
                "paths",
                "{\"paths\":[\"a.txt\"],\"paths\":[\"b.txt\"]}"),
            new Endpoint("/v1/turns/" + open + "/finish", "{}", null, null, null, null),
            new Endpoint(
                "/v1/rewind",
                "{\"turn\":" + t + ",\"dry_run\":true}",
                "operation",
                "{\"turn\":" + t + ",\"dry_run\":true,\"operation\":{}}",
                "turn",
                "{\"turn\":" + t + ",\"turn\":" + t + ",\"dry_run\":true}"),
            new Endpoint(
                "/v1/workspaces/track",
                "{\"workspace\":" + root + "}",
                "max_files",
                "{\"workspace\":" + root + ",\"max_files\":\"10\"}",
                "max_bytes",
                "{\"workspace\":" + root + ",\"max_bytes\":5,\"max_bytes\":5}"));
    for (Endpoint endpoint : endpoints) {
      String target = endpoint.target();
      String valid = endpoint.valid();
      String unknown =
          valid.equals("{}")
              ? "{\"colour\":1}"
              : valid.substring(0, valid.length() - 1) + ",\"colour\":1}";
      assertRefused("bad_request", "'colour'", call("POST", target, unknown));
      if (endpoint.wrongField() != null) {
        assertRefused(
            "bad_request",
            "'" + endpoint.wrongField() + "'",
            call("POST", target, endpoint.wrongType()));
        JsonNode twice = expect(400, call("POST", target, endpoint.twice()));
        assertEquals(
            "field '" + endpoint.twiceField() + "' is given more than once",
            twice.get("message").asText());
      }
      assertRefused("bad_request", "after its JSON object", call("POST", target, valid + " {}"));
      assertRefused("bad_request", "after its JSON object", call("POST", target, valid + " 1"));
    }
    assertEquals(rows, StoreRows.count(database), "nothing was written");
    assertEquals(
        422,
        call("GET", "/v1/workspaces/status?workspace=" + encode(workspace.root().toString()), null)
            .status(),
        "no refused track started tracking");
    assertEquals("changed by the turn\n", workspace.readText("a.txt"), "no refused rewind wrote");
    expect(200, call("POST", "/v1/turns/" + open + "/finish", "{}"));
  }

  @Test
  void queryParametersAreReadStrictly() throws Exception {
    finishedTurn();
    String turns = "/v1/sessions/s1/turns";
    assertRefused("bad_request", "'limit'", call("GET", turns + "?limit=4294967396", null));
    assertRefused("bad_request", "'limit'", call("GET", turns + "?limit=1.5", null));
    assertRefused("bad_request", "'limit'", call("GET", turns + "?limit=0", null));
    assertRefused("bad_request", "'limit'", call("GET", turns + "?limit=1&limit=2", null));
    assertRefused("bad_request", "'after'", call("GET", turns + "?after=-1", null));
    assertRefused(
        "bad_request", "'after'", call("GET", turns + "?after=99999999999999999999", null));
    assertRefused("bad_request", "'limt'", call("GET", turns + "?limt=5", null));
    assertEquals(1, expect(200, call("GET", turns + "?limit=1&after=0", null)).get("turns").size());
  }

  @Test
  void theBearerSchemeIsReadInAnyCase() throws Exception {
    for (String scheme : new String[] {"bearer", "BEARER", "Bearer", "bEaReR"}) {
      assertEquals(
          200,
          request("GET", "/v1/health", null, "Authorization: " + scheme + " " + TOKEN).status(),
          scheme);
    }
    assertEquals(401, request("GET", "/v1/health", null, "Authorization: Basic " + TOKEN).status());
    assertEquals(401, request("GET", "/v1/health", null, "Authorization: bearer").status());
  }

  @Test
  void aHeaderThatMayBeGivenOnceIsRefusedWhenGivenTwice() throws Exception {
    String host = "Host: 127.0.0.1:" + service.port();
    assertRefused(
        "bad_request",
        "Host",
        request("GET", "/v1/health", null, host, "Authorization: Bearer " + TOKEN));
    assertRefused(
        "bad_request",
        "Authorization",
        request(
            "GET",
            "/v1/health",
            null,
            "Authorization: Bearer " + TOKEN,
            "Authorization: Bearer wrong-token-wrong-token"));
  }

  // ---- item 9: the body is refused before it is read
  // ---------------------------------------------------

  @Test
  void aBodyDeclaredOverTheLimitIsRefusedBeforeAByteOfItIsRead() throws Exception {
    String head =
        "POST /v1/turns HTTP/1.1\r\nHost: 127.0.0.1:"
            + service.port()
            + "\r\n"
            + "Content-Length: "
            + (9 << 20)
            + "\r\n";
    // the client sends no byte of the 9 MiB: an answer can only come before the body is read
    RawHttp.Response authenticated =
        RawHttp.exchange(
            service.port(),
            (head + "Authorization: Bearer " + TOKEN + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII),
            new byte[0],
            Duration.ofSeconds(20));
    JsonNode tooLarge = expect(413, authenticated);
    assertEquals("too_large", tooLarge.get("error").asText());
    RawHttp.Response anonymous =
        RawHttp.exchange(
            service.port(),
            (head + "\r\n").getBytes(StandardCharsets.US_ASCII),
            new byte[0],
            Duration.ofSeconds(20));
    assertEquals(401, anonymous.status(), "the token is checked before the body: " + anonymous);
  }

  @Test
  void theHttpServersOwnRefusalsComeInTheServicesErrorShapeAndTouchNothing() throws Exception {
    Map<String, Long> rows = rowsAtRest();
    String host = "Host: 127.0.0.1:" + service.port() + "\r\n";
    String big = "X-Big: " + "b".repeat(20 << 10) + "\r\n";
    RawHttp.Response tooBig =
        RawHttp.exchange(
            service.port(),
            ("POST /v1/turns HTTP/1.1\r\n"
                    + host
                    + big
                    + "Authorization: Bearer "
                    + TOKEN
                    + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII),
            new byte[0],
            Duration.ofSeconds(20));
    assertEquals("headers_too_large", expect(431, tooBig).get("error").asText());
    assertEquals(
        "application/json; charset=utf-8",
        tooBig
            .head()
            .lines()
            .filter(line -> line.startsWith("Content-Type:"))
            .findFirst()
            .orElseThrow()
            .substring(14));
    RawHttp.Response garbled =
        RawHttp.exchange(
            service.port(),
            ("GET  /v1/health HTTP/9.9 extra\r\n" + host + "\r\n")
                .getBytes(StandardCharsets.US_ASCII),
            new byte[0],
            Duration.ofSeconds(20));
    JsonNode refused = expect(garbled.status(), garbled);
    assertTrue(garbled.status() == 400 || garbled.status() == 505, garbled.head());
    assertTrue(refused.get("message").asText().startsWith("HTTP "), refused.toString());
    assertFalse(garbled.body().contains("<html"), garbled.body());
    assertEquals(rows, rowsAtRest(), "nothing was written");
  }

  // ---- item 12: roots that may never be workspaces, and the allow-list
  // ---------------------------------

  @Test
  void theFileSystemRootPseudoFileSystemsAndTheEmptyNameAreNeverWorkspaces() throws Exception {
    Map<String, Long> rows = rowsAtRest();
    for (String root : new String[] {"/", "/proc/self", "/proc/self/root", "/sys", "/dev", ""}) {
      if (!root.isEmpty() && !Files.isDirectory(Path.of(root))) {
        continue;
      }
      assertRefused(
          "bad_input",
          "workspace",
          call("POST", "/v1/turns", "{\"workspace\":" + json(root) + "}"));
      assertRefused(
          "bad_input",
          "workspace",
          call("POST", "/v1/workspaces/track", "{\"workspace\":" + json(root) + "}"));
    }
    assertRefused("bad_input", "workspace", call("GET", "/v1/sessions?workspace=", null));
    assertEquals(rows, StoreRows.count(database), "nothing was written, not even a workspace row");
  }

  @Test
  void anAllowListRefusesRootsOutsideItByTheirRealPath() throws Exception {
    String outsideTurn = finishedTurn(); // begun before the service was restricted
    Path allowed = Files.createDirectories(temp.resolve("allowed"));
    Path project = Files.createDirectories(allowed.resolve("project"));
    Files.writeString(project.resolve("b.txt"), "b\n");
    Files.createSymbolicLink(allowed.resolve("link-out"), workspace.root());
    stop();
    start(WorkspacePolicy.within(List.of(allowed)));
    Map<String, Long> rows = rowsAtRest();
    String outside = workspace.root().toString();
    for (String refused :
        new String[] {
          outside,
          allowed.resolve("link-out").toString(),
          allowed.resolve("../base/workspace").toString()
        }) {
      JsonNode error =
          expect(403, call("POST", "/v1/turns", "{\"workspace\":" + json(refused) + "}"));
      assertEquals("forbidden_workspace", error.get("error").asText(), error.toString());
      assertTrue(error.get("message").asText().contains(refused), error.toString());
      expect(403, call("POST", "/v1/workspaces/track", "{\"workspace\":" + json(refused) + "}"));
    }
    expect(403, call("GET", "/v1/sessions?workspace=" + encode(outside), null));
    expect(403, call("GET", "/v1/history?workspace=" + encode(outside) + "&path=a.txt", null));
    expect(403, call("GET", "/v1/workspaces/status?workspace=" + encode(outside), null));
    expect(403, call("POST", "/v1/rewind", "{\"turn\":\"" + outsideTurn + "\"}"));
    assertEquals(rows, StoreRows.count(database), "nothing was written");
    assertEquals(
        "changed by the turn\n", workspace.readText("a.txt"), "the outside turn was not rewound");

    String turn =
        expect(201, call("POST", "/v1/turns", "{\"workspace\":" + json(project.toString()) + "}"))
            .get("turn")
            .asText();
    expect(200, call("POST", "/v1/turns/" + turn + "/snapshots", "{\"paths\":[\"b.txt\"]}"));
    expect(200, call("POST", "/v1/turns/" + turn + "/finish", ""));
    assertEquals(
        Optional.of(1),
        Optional.of(expect(200, call("GET", "/v1/turns/" + turn, null)).get("files").size()));
  }

  // ---- a rewind of some paths (issue 12)
  // -----------------------------------------------------------------

  /** A finished turn that changed a.txt and b.txt. */
  private String twoFileTurn() throws Exception {
    workspace.file("b.txt", "b\n");
    String turn = openTurn();
    expect(
        200, call("POST", "/v1/turns/" + turn + "/snapshots", "{\"paths\":[\"a.txt\",\"b.txt\"]}"));
    Files.writeString(workspace.resolve("a.txt"), "a changed by the turn\n");
    Files.writeString(workspace.resolve("b.txt"), "b changed by the turn\n");
    expect(200, call("POST", "/v1/turns/" + turn + "/finish", null));
    return turn;
  }

  /** A rewind's report: its body comes in chunks after the early headers. */
  private static JsonNode report(RawHttp.Response response) throws Exception {
    assertEquals(200, response.status(), response.head() + "\n\n" + response.body());
    String body = response.body();
    return Json.mapper().readTree(body.substring(body.indexOf('{'), body.lastIndexOf('}') + 1));
  }

  @Test
  void aRewindOfOnePathPlansAndPutsBackOnlyThatPath() throws Exception {
    String turn = twoFileTurn();
    String b64 = Base64.getEncoder().encodeToString("b.txt".getBytes(StandardCharsets.UTF_8));
    JsonNode plan =
        expect(
            200,
            call(
                "POST",
                "/v1/rewind",
                "{\"turn\":" + json(turn) + ",\"paths\":[\"a.txt\"],\"dry_run\":true}"));
    assertEquals("[\"a.txt\"]", plan.get("restored").toString(), plan.toString());
    assertEquals("[\"a.txt\"]", plan.get("paths").toString(), plan.toString());
    JsonNode done =
        report(
            call(
                "POST",
                "/v1/rewind",
                "{\"turn\":" + json(turn) + ",\"paths_base64\":[" + json(b64) + "]}"));
    assertEquals("[\"b.txt\"]", done.get("restored").toString(), done.toString());
    assertEquals("b\n", workspace.readText("b.txt"));
    assertEquals("a changed by the turn\n", workspace.readText("a.txt"));
    JsonNode undo =
        report(
            call(
                "POST", "/v1/rewind", "{\"turn\":" + json(done.get("rewind_turn").asText()) + "}"));
    assertEquals("[\"b.txt\"]", undo.get("restored").toString(), undo.toString());
    assertEquals("b changed by the turn\n", workspace.readText("b.txt"));
  }

  /**
   * A path the turn did not change, one outside the workspace, and an empty or null list are each
   * refused naming them, before anything is written: a null list read as absent would make a rewind
   * of some paths a rewind of every path.
   */
  @Test
  void aBadPathInARewindIsA400NamingItAndNothingIsWritten() throws Exception {
    String turn = twoFileTurn();
    workspace.file("untouched.txt", "same\n");
    Map<String, Long> rows = rowsAtRest();
    String t = json(turn);
    assertRefused(
        "bad_input",
        "'untouched.txt'",
        call("POST", "/v1/rewind", "{\"turn\":" + t + ",\"paths\":[\"a.txt\",\"untouched.txt\"]}"));
    String secret = workspace.secret().toString();
    assertRefused(
        "bad_input",
        secret,
        call("POST", "/v1/rewind", "{\"turn\":" + t + ",\"paths\":[" + json(secret) + "]}"));
    assertRefused(
        "bad_input",
        "'../x'",
        call("POST", "/v1/rewind", "{\"turn\":" + t + ",\"paths\":[\"../x\"]}"));
    assertRefused(
        "bad_request", "'paths'", call("POST", "/v1/rewind", "{\"turn\":" + t + ",\"paths\":[]}"));
    assertRefused(
        "bad_request",
        "'paths[0]'",
        call("POST", "/v1/rewind", "{\"turn\":" + t + ",\"paths\":[null]}"));
    assertRefused(
        "bad_request",
        "'paths'",
        call("POST", "/v1/rewind", "{\"turn\":" + t + ",\"paths\":null}"));
    assertRefused(
        "bad_request",
        "'paths_base64[1]'",
        call("POST", "/v1/rewind", "{\"turn\":" + t + ",\"paths_base64\":[\"YQ==\",\"*!\"]}"));
    assertEquals(rows, StoreRows.count(database), "nothing was written");
    assertEquals("a changed by the turn\n", workspace.readText("a.txt"));
    assertEquals("b changed by the turn\n", workspace.readText("b.txt"));
  }

  /** The store's row counts once the line diffs of the turns finished so far are stored. */
  private Map<String, Long> rowsAtRest() {
    turndiff.diffs().awaitAskedFor();
    return StoreRows.count(database);
  }
}
