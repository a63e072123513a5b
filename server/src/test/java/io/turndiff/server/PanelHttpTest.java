package io.turndiff.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.boundary.WorkspacePolicy;
import io.turndiff.fixtures.RawHttp;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestPostgres;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.store.PostgresDatabase;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The review panel's side of the service (docs/review-panel.md) over raw HTTP, in this JVM on a
 * real loopback port with a real store: the static files and their headers, the one-time login
 * code, the cookie and the anti-CSRF header (refused requests change no row), and the event stream
 * that shows another client's snapshot.
 */
class PanelHttpTest {

  private static final String TOKEN = "test-token-0123456789abcdef";
  private static final Duration ANSWER_WITHIN = Duration.ofSeconds(30);

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Path database;
  private Turndiff turndiff;
  private HttpService service;
  private final List<String> bodies = new ArrayList<>();

  /** A logged-in page: its cookie header and CSRF value. */
  private record Page(String cookie, String csrf) {}

  @BeforeEach
  void setUp() throws Exception {
    workspace = TestWorkspace.in(temp.resolve("base")).file("a.txt", "a\n");
    database = TestStore.fileIn(temp);
    turndiff = Turndiff.builder(database).policy(WorkspacePolicy.anyDirectory()).open();
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
    bodies.forEach(body -> workspace.canary().assertNotIn("an HTTP response", body));
  }

  private String own() {
    return "http://127.0.0.1:" + service.port();
  }

  private RawHttp.Response request(String method, String target, String body, String... headers) {
    RawHttp.Response response =
        RawHttp.request(service.port(), method, target, body, ANSWER_WITHIN, headers);
    bodies.add(response.body());
    return response;
  }

  private RawHttp.Response bearer(String method, String target, String body) {
    return request(method, target, body, "Authorization: Bearer " + TOKEN);
  }

  private RawHttp.Response page(Page page, String method, String target, String body) {
    return request(
        method,
        target,
        body,
        "Cookie: " + page.cookie(),
        "X-Turndiff-CSRF: " + page.csrf(),
        "Origin: " + own(),
        "Content-Type: application/json");
  }

  private static JsonNode expect(int status, RawHttp.Response response) throws Exception {
    assertEquals(status, response.status(), response.head() + "\n\n" + response.body());
    return response.body().isEmpty() ? Json.object() : Json.mapper().readTree(response.body());
  }

  private static Optional<String> header(RawHttp.Response response, String name) {
    Matcher matcher =
        Pattern.compile("(?im)^" + Pattern.quote(name) + ":[ \\t]*(.*?)\\r?$")
            .matcher(response.head());
    return matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
  }

  private String mintCode() throws Exception {
    JsonNode minted = expect(201, bearer("POST", "/v1/login-codes", "{}"));
    String code = minted.get("code").asText();
    assertEquals(own() + "/#login=" + code, minted.get("url").asText());
    return code;
  }

  private RawHttp.Response login(String code) {
    return request(
        "POST",
        "/v1/login",
        "{\"code\":\"" + code + "\"}",
        "Origin: " + own(),
        "Content-Type: application/json");
  }

  private Page loggedIn() throws Exception {
    RawHttp.Response response = login(mintCode());
    JsonNode answer = expect(200, response);
    String setCookie = header(response, "Set-Cookie").orElseThrow();
    assertTrue(
        setCookie.endsWith("; HttpOnly; SameSite=Strict; Path=/"),
        "the session cookie: " + setCookie);
    assertTrue(setCookie.startsWith("turndiff_session_" + service.port() + "="), setCookie);
    assertEquals("X-Turndiff-CSRF", answer.get("csrf_header").asText());
    return new Page(setCookie.split(";", 2)[0], answer.get("csrf").asText());
  }

  private String openTurn() throws Exception {
    return expect(
            201,
            bearer(
                "POST",
                "/v1/turns",
                "{\"workspace\":"
                    + Json.write(
                        Json.mapper().getNodeFactory().textNode(workspace.root().toString()), false)
                    + ",\"session\":\"s1\"}"))
        .get("turn")
        .asText();
  }

  private String sessionsQuery() {
    return "/v1/sessions?workspace="
        + URLEncoder.encode(workspace.root().toString(), StandardCharsets.UTF_8);
  }

  // ---- login

  @Test
  void aLoginCodeWorksOnceAndTheSessionReadsWithItsCsrfHeader() throws Exception {
    openTurn();
    String code = mintCode();
    RawHttp.Response first = login(code);
    JsonNode answer = expect(200, first);
    Page page =
        new Page(
            header(first, "Set-Cookie").orElseThrow().split(";", 2)[0],
            answer.get("csrf").asText());
    JsonNode again = expect(401, login(code));
    assertEquals("unauthorized", again.get("error").asText());
    assertTrue(header(login(code), "Set-Cookie").isEmpty(), "no cookie for a used code");

    JsonNode sessions = expect(200, page(page, "GET", sessionsQuery(), null));
    assertTrue(sessions.toString().contains("\"s1\""), sessions.toString());
    // a cookie session cannot mint codes: only the token holder can
    assertEquals(
        "forbidden",
        expect(403, page(page, "POST", "/v1/login-codes", "{}")).get("error").asText());
  }

  @Test
  void aLoginFromAnotherOriginOrAsAFormIsRefusedAndTheCodeStaysUnused() throws Exception {
    String code = mintCode();
    RawHttp.Response foreign =
        request(
            "POST",
            "/v1/login",
            "{\"code\":\"" + code + "\"}",
            "Origin: https://attacker.example",
            "Content-Type: application/json");
    assertEquals("forbidden_origin", expect(403, foreign).get("error").asText());
    RawHttp.Response form =
        request(
            "POST",
            "/v1/login",
            "code=" + code,
            "Origin: " + own(),
            "Content-Type: application/x-www-form-urlencoded");
    assertEquals(415, form.status(), form.body());
    assertTrue(header(form, "Set-Cookie").isEmpty());
    expect(200, login(code));
  }

  @Test
  void withoutACookieThePanelGets401AndNoData() throws Exception {
    String turn = openTurn();
    for (String target : List.of(sessionsQuery(), "/v1/turns/" + turn, "/v1/events")) {
      RawHttp.Response response = request("GET", target, null, "Origin: " + own());
      JsonNode error = expect(401, response);
      assertEquals("unauthorized", error.get("error").asText());
      assertFalse(response.body().contains(turn), response.body());
      assertFalse(response.body().contains("s1"), response.body());
      RawHttp.Response unknown =
          request(
              "GET",
              target,
              null,
              "Cookie: turndiff_session_" + service.port() + "=not-a-session",
              "X-Turndiff-CSRF: anything");
      expect(401, unknown);
      assertFalse(unknown.body().contains(turn), unknown.body());
    }
  }

  @Test
  void aCrossOriginPostOrAMissingCsrfHeaderIsRefusedAndChangesNothing() throws Exception {
    Page page = loggedIn();
    String begin =
        "{\"workspace\":"
            + Json.write(
                Json.mapper().getNodeFactory().textNode(workspace.root().toString()), false)
            + "}";
    Map<String, Long> rows = StoreRows.countAtRest(database);

    String cookie = "Cookie: " + page.cookie();
    String header = "X-Turndiff-CSRF: " + page.csrf();
    String json = "Content-Type: application/json";
    assertRefused(
        "forbidden_origin", begin, cookie, header, "Origin: https://attacker.example", json);
    assertRefused("forbidden_origin", begin, cookie, header, "Sec-Fetch-Site: same-site", json);
    assertRefused("csrf", begin, cookie, "Origin: " + own(), json);
    assertRefused("csrf", begin, cookie, header + "x", json);
    assertEquals(rows, StoreRows.countAtRest(database), "nothing was written");

    // the same request with the header does write: the refusals above were the checks
    expect(201, page(page, "POST", "/v1/turns", begin));
    assertFalse(
        rows.equals(StoreRows.countAtRest(database)), "the page's own request wrote its turn");
  }

  /** {@code POST /v1/turns} with {@code headers} gets {@code 403 code}. */
  private void assertRefused(String code, String body, String... headers) throws Exception {
    assertEquals(
        code, expect(403, request("POST", "/v1/turns", body, headers)).get("error").asText());
  }

  @Test
  void afterLogoutTheCookieOpensNothing() throws Exception {
    Page page = loggedIn();
    RawHttp.Response out = page(page, "POST", "/v1/logout", null);
    assertEquals(204, out.status(), out.body());
    assertTrue(header(out, "Set-Cookie").orElseThrow().contains("Max-Age=0"));
    expect(401, page(page, "GET", sessionsQuery(), null));
  }

  // ---- the static files and the headers

  @Test
  void thePanelIsServedAtTheRootWithItsTypesAndEveryResponseCarriesTheSecurityHeaders()
      throws Exception {
    RawHttp.Response index = request("GET", "/", null);
    assertEquals(200, index.status(), index.head());
    assertEquals("text/html; charset=utf-8", header(index, "Content-Type").orElseThrow());
    assertTrue(index.body().contains("src=\"assets/js/main.js\" type=\"module\""), index.body());
    assertEquals("no-cache", header(index, "Cache-Control").orElseThrow());

    JsonNode manifest;
    try (InputStream in =
        PanelHttpTest.class
            .getClassLoader()
            .getResourceAsStream("io/turndiff/panel/panel-files.json")) {
      assertNotNull(in, "the panel module's files are on the class path");
      manifest = Json.mapper().readTree(in);
    }
    String module = "/assets/js/main.js";
    boolean listed = false;
    for (JsonNode file : manifest.get("files")) {
      listed |= file.get("path").asText().equals(module);
    }
    assertTrue(listed, "main.js is in the list");
    RawHttp.Response js = request("GET", module, null);
    assertEquals(200, js.status(), js.head());
    assertEquals("text/javascript; charset=utf-8", header(js, "Content-Type").orElseThrow());
    String etag = header(js, "ETag").orElseThrow();
    assertEquals(304, request("GET", module, null, "If-None-Match: " + etag).status());

    RawHttp.Response api = request("GET", sessionsQuery(), null);
    RawHttp.Response bearerApi = bearer("GET", "/v1/health", null);
    RawHttp.Response missing = request("GET", "/assets/", null);
    for (RawHttp.Response response : List.of(index, js, api, bearerApi, missing)) {
      assertEquals(
          SecurityHeaders.CONTENT_SECURITY_POLICY,
          header(response, "Content-Security-Policy").orElseThrow(),
          response.head());
      assertEquals("nosniff", header(response, "X-Content-Type-Options").orElseThrow());
      assertEquals("no-referrer", header(response, "Referrer-Policy").orElseThrow());
      assertEquals("DENY", header(response, "X-Frame-Options").orElseThrow());
    }
    String csp = SecurityHeaders.CONTENT_SECURITY_POLICY;
    assertTrue(csp.contains("script-src 'self';") && csp.contains("frame-ancestors 'none'"));
    assertFalse(csp.contains("unsafe-inline") || csp.contains("unsafe-eval"), csp);
    assertEquals(200, bearerApi.status(), "the bearer API works as before");
  }

  @Test
  void onlyListedFilesAreServedAndNeverADirectoryOrAPathOutsideTheList() throws Exception {
    for (String target :
        List.of(
            "/index.html",
            "/assets/",
            "/assets/js/",
            "/panel-files.json/../index.html",
            "/assets/js/..%2fmain.js",
            "/io/turndiff/server/HttpService.class",
            "/META-INF/MANIFEST.MF")) {
      RawHttp.Response response = request("GET", target, null);
      assertEquals(404, response.status(), target + ": " + response.head());
      assertEquals("not_found", Json.mapper().readTree(response.body()).get("error").asText());
    }
    // a path that climbs above the root is refused by the HTTP server itself, before any gate, in
    // the service's error shape
    RawHttp.Response above = request("GET", "/%2e%2e/pom.xml", null);
    assertEquals(400, above.status(), above.head());
    assertEquals("bad_request", Json.mapper().readTree(above.body()).get("error").asText());
    assertEquals(405, request("POST", "/", "x").status());
    RawHttp.Response head = request("HEAD", "/", null);
    assertEquals(200, head.status(), head.head());
    RawHttp.Response badHost =
        RawHttp.send(
            service.port(), "GET / HTTP/1.1\r\nHost: attacker.example\r\n", null, ANSWER_WITHIN);
    assertEquals(403, badHost.status(), "DNS rebinding reaches no file either");
  }

  // ---- the event stream

  @Test
  void aSnapshotByAnotherClientArrivesOnTheEventStream() throws Exception {
    String turn = openTurn();
    Page page = loggedIn();
    assertEquals("forbidden", expect(403, bearer("GET", "/v1/events", null)).get("error").asText());

    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    HttpResponse<Stream<String>> response = events(page, "?session=s1");
    assertEquals(200, response.statusCode());
    assertEquals(
        "text/event-stream; charset=utf-8",
        response.headers().firstValue("Content-Type").orElseThrow());
    assertEquals(
        SecurityHeaders.CONTENT_SECURITY_POLICY,
        response.headers().firstValue("Content-Security-Policy").orElseThrow());
    Thread reader = Thread.ofVirtual().start(() -> response.body().forEach(lines::add));
    try {
      awaitLine(lines, "event: hello");

      expect(200, bearer("POST", "/v1/turns/" + turn + "/snapshots", "{\"paths\":[\"a.txt\"]}"));
      awaitLine(lines, "event: file_snapshotted");
      String data = awaitLine(lines, "data: ");
      JsonNode event = Json.mapper().readTree(data.substring("data: ".length()));
      assertEquals(turn, event.get("turn").asText());
      assertEquals("s1", event.get("session").asText());
      assertEquals("a.txt", event.get("files").get(0).get("path").asText(), data);

      Files.writeString(workspace.resolve("a.txt"), "changed by the turn\n");
      expect(200, bearer("POST", "/v1/turns/" + turn + "/finish", null));
      awaitLine(lines, "event: turn_finished");
      JsonNode finished =
          Json.mapper().readTree(awaitLine(lines, "data: ").substring("data: ".length()));
      assertEquals(turn, finished.get("turn").asText());
      assertEquals("finished", finished.get("state").asText());

      // a rewind of one path says which (before, every rewind_done said "paths": null)
      expect(
          200, bearer("POST", "/v1/rewind", "{\"turn\":\"" + turn + "\",\"paths\":[\"a.txt\"]}"));
      awaitLine(lines, "event: rewind_done");
      JsonNode rewound =
          Json.mapper().readTree(awaitLine(lines, "data: ").substring("data: ".length()));
      assertEquals(turn, rewound.get("turns").get(0).asText(), rewound.toString());
      assertEquals("s1", rewound.get("session").asText());
      assertEquals("[\"a.txt\"]", rewound.get("paths").toString(), rewound.toString());

      String rewindTurn = rewound.get("rewind_turn").asText();
      expect(200, bearer("POST", "/v1/rewind", "{\"turn\":\"" + rewindTurn + "\"}"));
      awaitLine(lines, "event: rewind_done");
      JsonNode undone =
          Json.mapper().readTree(awaitLine(lines, "data: ").substring("data: ".length()));
      assertEquals(rewindTurn, undone.get("turns").get(0).asText(), undone.toString());
      assertTrue(undone.get("paths").isNull(), "a rewind of whole turns: " + undone);
    } finally {
      // a stop ends the stream at once (the grace period is not spent on it)
      service.stop();
      reader.join(Duration.ofSeconds(30));
      assertFalse(reader.isAlive(), "the stream ended with the service");
    }
  }

  /** The page's event stream, {@code GET /v1/events QUERY}, its lines read as they come. */
  private HttpResponse<Stream<String>> events(Page page, String query) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(own() + "/v1/events" + query))
            .header("Cookie", page.cookie())
            .header("X-Turndiff-CSRF", page.csrf())
            .header("Accept", "text/event-stream")
            .build();
    return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofLines());
  }

  @Test
  void anotherProcessesCommitWakesEveryStreamAndTheServicesOwnDoNot() throws Exception {
    // another process's connection to the same file, as a CLI `turn begin` opens it
    assertAnotherProcessesCommitWakesEveryStream(
        () -> Turndiff.builder(database).policy(WorkspacePolicy.anyDirectory()).open());
  }

  /**
   * The same on a PostgreSQL store: there the other process's commit reaches the service through
   * LISTEN/NOTIFY (docs/service.md, "One service per store"), not SQLite's data version.
   */
  @Test
  void onPostgresqlAnotherProcessesCommitWakesEveryStreamAndTheServicesOwnDoNot() throws Exception {
    service.stop();
    turndiff.close();
    PostgresDatabase postgres = TestPostgres.freshStore();
    turndiff = Turndiff.builder(postgres).policy(WorkspacePolicy.anyDirectory()).open();
    service =
        HttpService.start(
            turndiff,
            ServiceOptions.builder(TOKEN).port(0).shutdownGrace(Duration.ofSeconds(1)).build());
    assertAnotherProcessesCommitWakesEveryStream(
        () -> Turndiff.builder(postgres).policy(WorkspacePolicy.anyDirectory()).open());
  }

  private void assertAnotherProcessesCommitWakesEveryStream(Supplier<Turndiff> anotherProcess)
      throws Exception {
    String turn = openTurn();
    Page page = loggedIn();
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    // scoped to another session: the other process's turn is in no scope the service knows
    HttpResponse<Stream<String>> response = events(page, "?session=s1");
    assertEquals(200, response.statusCode());
    Thread reader = Thread.ofVirtual().start(() -> response.body().forEach(lines::add));
    try {
      awaitLine(lines, "event: hello");
      expect(200, bearer("POST", "/v1/turns/" + turn + "/snapshots", "{\"paths\":[\"a.txt\"]}"));
      awaitLine(lines, "event: file_snapshotted");
      awaitLine(lines, "data: ");
      // four looks of the service: its own commit is announced once, as file_snapshotted only
      Thread.sleep(4 * ForeignCommits.LOOK_EVERY_MS);
      assertTrue(
          lines.stream().noneMatch(line -> line.startsWith("event: " + ForeignCommits.EVENT)),
          "its own commit is not another's: " + lines);

      try (Turndiff other = anotherProcess.get()) {
        other.capture().beginTurn(workspace.root(), Optional.of("s2"), Optional.of("t-other"));
      }
      awaitLine(lines, "event: " + ForeignCommits.EVENT);
      assertEquals(
          "{\"by\":\"another process\"}", awaitLine(lines, "data: ").substring("data: ".length()));
    } finally {
      service.stop();
      reader.join(Duration.ofSeconds(30));
    }
  }

  private static String awaitLine(BlockingQueue<String> lines, String prefix) throws Exception {
    while (true) {
      String line = lines.poll(30, TimeUnit.SECONDS);
      assertNotNull(line, "no line starting with '" + prefix + "' within 30 s");
      if (line.startsWith(prefix)) {
        return line;
      }
    }
  }
}
