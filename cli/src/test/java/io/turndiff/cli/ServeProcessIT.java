package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.turndiff.api.Json;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestWorkspace;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code turndiff serve} process on loopback and a real HTTP client: authentication, Host
 * and Origin checks, a whole turn over HTTP, concurrent clients, errors that write nothing, and a
 * graceful shutdown. Every response body is checked for the canary.
 */
class ServeProcessIT {

  @TempDir static Path shared;

  @TempDir Path temp;

  private static Service service;
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private final List<String> bodies = new ArrayList<>();

  /** A running serve process: its URL, token and store. */
  record Service(Process process, String url, String token, Path database, Path errorLog) {

    static Service start(Path dir, Map<String, String> extraEnvironment, String... options)
        throws Exception {
      Path database = dir.resolve("store/turndiff.db");
      Path errorLog = dir.resolve("serve.err");
      Map<String, String> env = new HashMap<>(extraEnvironment);
      env.put("TURNDIFF_DB", database.toString());
      List<String> args = new ArrayList<>(List.of("serve", "--port", "0"));
      args.addAll(List.of(options));
      Process process =
          CliProcess.builder(env, args.toArray(String[]::new))
              .redirectError(errorLog.toFile())
              .start();
      BufferedReader out =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      String line = out.readLine();
      if (line == null) {
        throw new AssertionError("serve printed nothing: " + Files.readString(errorLog));
      }
      JsonNode started = Json.mapper().readTree(line);
      // the started line's shape (WireServeStarted), which the in-process WireGoldenTest cannot
      // reach
      assertEquals(
          List.of("url", "token_file", "store", "pid"),
          started.properties().stream().map(Map.Entry::getKey).toList(),
          line);
      assertEquals(database.toString(), started.get("store").asText(), line);
      assertTrue(started.get("pid").asLong() > 0, line);
      String token = Files.readString(Path.of(started.get("token_file").asText())).strip();
      assertEquals(
          "rw-------",
          PosixFilePermissions.toString(
              Files.getPosixFilePermissions(Path.of(started.get("token_file").asText()))));
      return new Service(process, started.get("url").asText(), token, database, errorLog);
    }

    int port() {
      return URI.create(url).getPort();
    }
  }

  @BeforeAll
  static void startService() throws Exception {
    service = Service.start(shared, Map.of());
  }

  @AfterAll
  static void stopService() throws Exception {
    service.process().destroy();
    service.process().waitFor(60, TimeUnit.SECONDS);
  }

  private TestWorkspace workspace;

  @AfterEach
  void canary() {
    if (workspace != null) {
      workspace.assertOutsideUnchanged();
      bodies.forEach(body -> workspace.canary().assertNotIn("an HTTP response", body));
    }
  }

  private HttpResponse<String> send(String method, String path, String body, String token)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(service.url() + path))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body))
            .header("Content-Type", "application/json");
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    HttpResponse<String> response =
        HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    synchronized (bodies) {
      bodies.add(response.body());
    }
    return response;
  }

  private JsonNode call(String method, String path, Object body, int expectedStatus)
      throws Exception {
    HttpResponse<String> response =
        send(method, path, body == null ? null : Json.write(body, false), service.token());
    if (response.statusCode() != expectedStatus) {
      assertEquals(
          expectedStatus,
          response.statusCode(),
          method
              + " "
              + path
              + ": "
              + response.body()
              + "\nservice log:\n"
              + Files.readString(service.errorLog()));
    }
    return Json.mapper().readTree(response.body());
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  @Test
  void everyRequestNeedsTheToken() throws Exception {
    for (String token : new String[] {null, "wrong-token-wrong-token"}) {
      HttpResponse<String> response = send("GET", "/v1/health", null, token);
      assertEquals(401, response.statusCode());
      assertEquals("unauthorized", Json.mapper().readTree(response.body()).get("error").asText());
      assertEquals("Bearer", response.headers().firstValue("WWW-Authenticate").orElse(""));
    }
    assertEquals(200, send("GET", "/v1/health", null, service.token()).statusCode());
  }

  @Test
  void aForeignHostIsRefusedEvenWithTheToken() throws Exception {
    try (Socket socket = new Socket("127.0.0.1", service.port())) {
      OutputStream out = socket.getOutputStream();
      out.write(
          ("GET /v1/health HTTP/1.1\r\nHost: attacker.example\r\nAuthorization: Bearer "
                  + service.token()
                  + "\r\nConnection: close\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(response.startsWith("HTTP/1.1 403"), response);
      assertTrue(response.contains("\"error\":\"forbidden_host\""), response);
    }
  }

  @Test
  void aForeignOriginIsRefusedAndThereIsNoCors() throws Exception {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(service.url() + "/v1/health"))
                .header("Authorization", "Bearer " + service.token())
                .header("Origin", "https://attacker.example")
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(403, response.statusCode());
    assertEquals("forbidden_origin", Json.mapper().readTree(response.body()).get("error").asText());
    assertTrue(response.headers().firstValue("Access-Control-Allow-Origin").isEmpty());
  }

  @Test
  void aWholeTurnOverHttp() throws Exception {
    workspace = TestWorkspace.in(temp).file("src/app.py", "print('a')\n").file("old.txt", "old\n");
    workspace.symlink("leak.txt", workspace.secret().toString());
    ObjectNode begin =
        Json.object()
            .put("workspace", workspace.root().toString())
            .put("session", "http-s1")
            .put("turn", "http-t1");
    JsonNode began = call("POST", "/v1/turns", begin, 201);
    assertEquals(1, began.get("seq").asInt());

    ObjectNode snapshot = Json.object().put("tool_call", "edit-1");
    snapshot.putArray("paths").add("src/app.py").add("old.txt").add("new.txt").add("leak.txt");
    JsonNode verdicts = call("POST", "/v1/turns/http-t1/snapshots", snapshot, 200);
    assertEquals(4, verdicts.size());
    assertEquals("escapes_workspace", verdicts.get(3).get("reason").asText());

    Files.writeString(workspace.resolve("src/app.py"), "print('b')\n");
    Files.delete(workspace.resolve("old.txt"));
    workspace.file("new.txt", "new\n");
    JsonNode summary = call("POST", "/v1/turns/http-t1/finish", null, 200);
    assertEquals("finished", summary.get("state").asText());

    JsonNode turn = call("GET", "/v1/turns/http-t1", null, 200);
    assertEquals(4, turn.get("files").size());
    HttpResponse<String> patch = send("GET", "/v1/turns/http-t1/patch", null, service.token());
    assertTrue(patch.headers().firstValue("Content-Type").orElse("").startsWith("text/x-diff"));
    assertTrue(patch.body().contains("-print('a')\n+print('b')\n"), patch.body());
    JsonNode file = call("GET", "/v1/turns/http-t1/file?path=" + encode("src/app.py"), null, 200);
    assertTrue(file.get("diff").asText().contains("+print('b')"));
    JsonNode sessions =
        call("GET", "/v1/sessions?workspace=" + encode(workspace.root().toString()), null, 200);
    assertEquals("http-s1", sessions.get("sessions").get(0).get("session").asText());
    JsonNode turns = call("GET", "/v1/sessions/http-s1/turns?limit=10", null, 200);
    assertEquals(
        4,
        turns.get("turns").get(0).get("changed").asInt(),
        "a link out is never counted unchanged: what the turn did through it was not read");
    JsonNode range = call("GET", "/v1/range?from=http-t1&to=http-t1", null, 200);
    assertEquals(4, range.get("files").size());
    JsonNode history =
        call(
            "GET",
            "/v1/history?workspace="
                + encode(workspace.root().toString())
                + "&path="
                + encode("src/app.py"),
            null,
            200);
    assertEquals("http-t1", history.get(0).get("turn").asText());

    JsonNode plan =
        call("POST", "/v1/rewind", Json.object().put("turn", "http-t1").put("dry_run", true), 200);
    assertTrue(plan.get("dry_run").asBoolean());
    assertEquals("print('b')\n", Files.readString(workspace.resolve("src/app.py")));
    JsonNode rewound =
        call(
            "POST",
            "/v1/rewind",
            Json.object().put("turn", "http-t1").put("operation", "http-op"),
            200);
    assertEquals(3, rewound.get("restored").size(), rewound.toString());
    assertFalse(rewound.get("complete").asBoolean(), rewound.toString());
    assertEquals(
        "escapes_workspace",
        rewound.get("skipped").get(0).get("reason").asText(),
        rewound.toString());
    assertEquals("print('a')\n", Files.readString(workspace.resolve("src/app.py")));
    assertTrue(Files.exists(workspace.resolve("old.txt")));
    assertFalse(Files.exists(workspace.resolve("new.txt")));
  }

  @Test
  void trackingOverHttpSeesTheShellsChanges() throws Exception {
    workspace = TestWorkspace.in(temp).file("a.txt", "a\n").file(".gitignore", "*.log\n");
    workspace.symlink("leak.txt", workspace.secret().toString());
    String root = workspace.root().toString();
    HttpResponse<String> untracked =
        send("GET", "/v1/workspaces/status?workspace=" + encode(root), null, service.token());
    assertEquals(422, untracked.statusCode(), untracked.body());
    assertTrue(untracked.body().contains("not tracked"), untracked.body());
    JsonNode refused =
        Json.mapper()
            .readTree(
                send(
                        "POST",
                        "/v1/workspaces/track",
                        Json.write(Json.object().put("workspace", root).put("max_files", 0), false),
                        service.token())
                    .body());
    assertEquals("bad_request", refused.get("error").asText(), refused.toString());

    JsonNode tracked =
        call("POST", "/v1/workspaces/track", Json.object().put("workspace", root), 200);
    assertEquals(3, tracked.get("files").asInt(), tracked.toString());
    assertFalse(tracked.get("partial").asBoolean());
    Files.writeString(workspace.resolve("a.txt"), "a by the shell\n");
    workspace.file("b.txt", "b\n").file("c.log", "ignored\n");
    JsonNode status = call("GET", "/v1/workspaces/status?workspace=" + encode(root), null, 200);
    assertEquals(3, status.get("changes").size(), status.toString());
    assertEquals("M", status.get("changes").get(0).get("status").asText());
    assertEquals("b.txt", status.get("changes").get(1).get("path").asText());
    // a small file git ignores is indexed in a local store (issue 24 item 2)
    assertEquals("c.log", status.get("changes").get(2).get("path").asText());
    assertEquals("small", status.get("ignored_files").get("kept").asText(), status.toString());

    call("POST", "/v1/turns", Json.object().put("workspace", root).put("turn", "tracked-t1"), 201);
    Files.writeString(workspace.resolve("b.txt"), "b by the shell\n");
    JsonNode summary = call("POST", "/v1/turns/tracked-t1/finish", null, 200);
    assertEquals(1, summary.get("detected_by_scan").asInt(), summary.toString());
    JsonNode file = call("GET", "/v1/turns/tracked-t1/file?path=b.txt", null, 200);
    assertTrue(file.get("diff").asText().contains("-b\n+b by the shell"), file.toString());
    // serve watches by default: the status and the finish after the track looked at the changes
    JsonNode watch = call("GET", "/v1/service/status", null, 200).get("watch");
    assertTrue(watch.get("enabled").asBoolean(), watch.toString());
    assertTrue(watch.get("watched_scans").asLong() >= 2, watch.toString());
    assertEquals(0, watch.get("disagreements").asLong(), watch.toString());
    assertEquals(0, watch.get("failed_checks").asLong(), watch.toString());
    assertTrue(watch.get("last_failed_check").isNull(), watch.toString());
  }

  @Test
  void concurrentClientsOnDifferentTurnsAllLand() throws Exception {
    workspace = TestWorkspace.in(temp);
    int clients = 8;
    int filesEach = 10;
    for (int c = 0; c < clients; c++) {
      for (int f = 0; f < filesEach; f++) {
        workspace.file("c" + c + "/f" + f + ".txt", "client " + c + " file " + f + "\n");
      }
    }
    try (ExecutorService pool = Executors.newFixedThreadPool(clients)) {
      List<Future<String>> turns = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        int client = c;
        turns.add(
            pool.submit(
                () -> {
                  String turn =
                      call(
                              "POST",
                              "/v1/turns",
                              Json.object()
                                  .put("workspace", workspace.root().toString())
                                  .put("session", "concurrent-" + client),
                              201)
                          .get("turn")
                          .asText();
                  List<CompletableFuture<JsonNode>> snapshots = new ArrayList<>();
                  for (int f = 0; f < filesEach; f++) {
                    ObjectNode body = Json.object().put("tool_call", "call-" + f);
                    body.putArray("paths").add("c" + client + "/f" + f + ".txt");
                    snapshots.add(
                        CompletableFuture.supplyAsync(
                            () -> {
                              try {
                                return call("POST", "/v1/turns/" + turn + "/snapshots", body, 200);
                              } catch (Exception e) {
                                throw new IllegalStateException(e);
                              }
                            }));
                  }
                  snapshots.forEach(CompletableFuture::join);
                  for (int f = 0; f < filesEach; f++) {
                    Files.writeString(
                        workspace.resolve("c" + client + "/f" + f + ".txt"),
                        "edited by " + client + "\n");
                  }
                  call("POST", "/v1/turns/" + turn + "/finish", null, 200);
                  return turn;
                }));
      }
      for (int c = 0; c < clients; c++) {
        String turn = turns.get(c).get(120, TimeUnit.SECONDS);
        JsonNode records = call("GET", "/v1/turns/" + turn, null, 200).get("files");
        assertEquals(filesEach, records.size(), "every snapshot of client " + c + " landed");
        for (JsonNode record : records) {
          assertEquals("modified", record.get("change").asText(), record.toString());
          assertEquals(1, record.get("tool_calls").size());
        }
      }
    }
  }

  @Test
  void malformedJsonAndUnknownIdsAreJsonErrorsThatWriteNothing() throws Exception {
    workspace = TestWorkspace.in(temp).file("a.txt", "a\n");
    String turn =
        call("POST", "/v1/turns", Json.object().put("workspace", workspace.root().toString()), 201)
            .get("turn")
            .asText();
    Map<String, Long> rows = StoreRows.countAtRest(service.database());
    HttpResponse<String> malformed =
        send("POST", "/v1/turns/" + turn + "/snapshots", "{\"paths\": [", service.token());
    assertEquals(400, malformed.statusCode());
    assertEquals("bad_request", Json.mapper().readTree(malformed.body()).get("error").asText());
    JsonNode wrongType =
        call("POST", "/v1/turns/" + turn + "/snapshots", Json.object().put("paths", "a.txt"), 400);
    assertTrue(wrongType.get("message").asText().contains("paths"), wrongType.toString());
    JsonNode unknown =
        call(
            "POST",
            "/v1/turns/no-such-turn/snapshots",
            Json.object().set("paths", Json.array().add("a.txt")),
            404);
    assertEquals("unknown_turn", unknown.get("error").asText());
    assertTrue(unknown.get("message").asText().contains("no-such-turn"));
    JsonNode badPath =
        call(
            "POST",
            "/v1/turns/" + turn + "/snapshots",
            Json.object().set("paths", Json.array().add("a.txt").add("bad\u0000name")),
            400);
    assertEquals("bad_input", badPath.get("error").asText());
    assertEquals(
        "unknown_session", call("GET", "/v1/sessions/nope/turns", null, 404).get("error").asText());
    assertEquals("not_found", call("GET", "/v1/nothing-here", null, 404).get("error").asText());
    assertEquals("method_not_allowed", call("GET", "/v1/rewind", null, 405).get("error").asText());
    assertEquals(
        "unknown_turn",
        call("POST", "/v1/rewind", Json.object().put("turn", "nope"), 404).get("error").asText());
    assertEquals(rows, StoreRows.countAtRest(service.database()), "nothing was written");
  }

  /**
   * Over HTTP, a finished turn that rewrote {@code f0.txt} ... (each held "before i", then
   * "after").
   */
  private String turnRewritingFiles(int files) throws Exception {
    for (int i = 0; i < files; i++) {
      workspace.file("f" + i + ".txt", "before " + i + "\n");
    }
    String turn =
        call("POST", "/v1/turns", Json.object().put("workspace", workspace.root().toString()), 201)
            .get("turn")
            .asText();
    ArrayNode paths = Json.array();
    for (int i = 0; i < files; i++) {
      paths.add("f" + i + ".txt");
    }
    call("POST", "/v1/turns/" + turn + "/snapshots", Json.object().set("paths", paths), 200);
    for (int i = 0; i < files; i++) {
      Files.writeString(workspace.resolve("f" + i + ".txt"), "after\n");
    }
    call("POST", "/v1/turns/" + turn + "/finish", null, 200);
    return turn;
  }

  @Test
  void aRewindNamesItsOperationInAHeaderBeforeItsFirstWrite() throws Exception {
    workspace = TestWorkspace.in(temp);
    Service slow = Service.start(temp, Map.of(EnvTestHook.REWIND_PAUSE, "1000"));
    Service previous = service;
    service = slow;
    try {
      String turn = turnRewritingFiles(3);
      CompletableFuture<HttpHeaders> early = new CompletableFuture<>();
      HttpRequest request =
          HttpRequest.newBuilder(URI.create(slow.url() + "/v1/rewind"))
              .POST(
                  HttpRequest.BodyPublishers.ofString(
                      Json.write(Json.object().put("turn", turn), false)))
              .header("Authorization", "Bearer " + slow.token())
              .build();
      CompletableFuture<HttpResponse<String>> response =
          HTTP.sendAsync(
              request,
              info -> {
                early.complete(info.headers());
                return HttpResponse.BodySubscribers.ofString(StandardCharsets.UTF_8);
              });
      String operation =
          early.get(60, TimeUnit.SECONDS).firstValue("Turndiff-Operation").orElseThrow();
      assertFalse(response.isDone(), "the headers came before the report");
      for (int i = 0; i < 3; i++) {
        assertEquals(
            "after\n",
            Files.readString(workspace.resolve("f" + i + ".txt")),
            "no file was put back yet");
      }
      HttpResponse<String> done = response.get(60, TimeUnit.SECONDS);
      bodies.add(done.body());
      assertEquals(200, done.statusCode());
      JsonNode report = Json.mapper().readTree(done.body());
      assertEquals(operation, report.get("operation").asText());
      assertTrue(report.get("complete").asBoolean(), done.body());
      assertEquals("before 0\n", Files.readString(workspace.resolve("f0.txt")));
    } finally {
      service = previous;
      slow.process().destroy();
      slow.process().waitFor(60, TimeUnit.SECONDS);
    }
  }

  @Test
  void sigtermLetsTheRequestInFlightFinishAndClosesTheStore() throws Exception {
    workspace = TestWorkspace.in(temp);
    Service slow = Service.start(temp, Map.of(EnvTestHook.REWIND_PAUSE, "400"));
    Service previous = service;
    service = slow;
    try {
      String turn = turnRewritingFiles(4);
      CompletableFuture<JsonNode> rewind =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return call("POST", "/v1/rewind", Json.object().put("turn", turn), 200);
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      // in flight: its first file is back, the other three wait 400 ms each
      Path first = workspace.resolve("f0.txt");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!Files.readString(first).equals("before 0\n")) {
        assertTrue(System.nanoTime() < deadline && !rewind.isDone(), "the rewind got under way");
        Thread.sleep(20);
      }
      assertFalse(rewind.isDone(), "the rewind is in flight (it pauses 400 ms a file)");
      slow.process().destroy();
      JsonNode report = rewind.get(60, TimeUnit.SECONDS);
      assertTrue(report.get("complete").asBoolean(), report.toString());
      assertEquals(4, report.get("restored").size());
      assertTrue(slow.process().waitFor(60, TimeUnit.SECONDS));
      assertEquals(143, slow.process().exitValue(), "ended by SIGTERM, after its shutdown hook");
      assertFalse(
          Files.exists(slow.database().resolveSibling("turndiff.db-wal")),
          "the store was closed cleanly: its WAL was checkpointed and removed");
      for (int i = 0; i < 4; i++) {
        assertEquals("before " + i + "\n", Files.readString(workspace.resolve("f" + i + ".txt")));
      }
    } finally {
      service = previous;
    }
  }
}
