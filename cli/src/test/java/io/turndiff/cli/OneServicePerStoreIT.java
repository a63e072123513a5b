package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestWorkspace;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One service per store, found by the store's identity, as real processes (docs/service.md, "One
 * service per store"): {@code open} after {@code service start} uses the per-user service instead
 * of starting a second {@code serve} (also when told the service's port), a second {@code serve} is
 * refused naming the running one, a turn begun by a separate CLI process arrives on the service's
 * event stream, two stores in one folder keep two tokens and two services, and a {@code serve} that
 * {@code open} started stops when idle and when its store is deleted.
 */
class OneServicePerStoreIT {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir Path temp;

  private Map<String, String> env;
  private Path database;
  private final List<Long> started = new ArrayList<>();

  @BeforeEach
  void setUp() {
    database = temp.resolve("data/turndiff.db");
    env =
        Map.of(
            "TURNDIFF_DB", database.toString(),
            "XDG_RUNTIME_DIR", temp.resolve("run").toString(),
            "HOME", temp.toString());
  }

  @AfterEach
  void tearDown() throws Exception {
    ServiceCleanUp.stopServices(env);
    for (long pid : started) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private JsonNode ok(CommandRun run) throws IOException {
    assertEquals(0, run.exitCode(), run.out() + run.err());
    JsonNode line = Json.mapper().readTree(run.out());
    if (line.hasNonNull("pid")) {
      started.add(line.get("pid").asLong());
    }
    return line;
  }

  /** The live processes whose command line is a {@code serve} of {@code store}. */
  private static List<Long> servesOf(Path store) {
    return ProcessHandle.allProcesses()
        .filter(
            process -> {
              try {
                String command =
                    Files.readString(Path.of("/proc/" + process.pid() + "/cmdline"))
                        .replace('\0', ' ');
                return command.contains(" serve") && command.contains(store.toString());
              } catch (IOException | RuntimeException gone) {
                return false;
              }
            })
        .map(ProcessHandle::pid)
        .toList();
  }

  /** Logs in with the code of {@code url}: the cookie header's value and the CSRF value. */
  private static String[] login(String url) throws Exception {
    URI uri = URI.create(url);
    String origin = "http://127.0.0.1:" + uri.getPort();
    String code = url.substring(url.indexOf("#login=") + "#login=".length()).split("&")[0];
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(origin + "/v1/login"))
                .header("Content-Type", "application/json")
                .header("Origin", origin)
                .POST(HttpRequest.BodyPublishers.ofString("{\"code\":\"" + code + "\"}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode(), response.body());
    String cookie = response.headers().firstValue("Set-Cookie").orElseThrow().split(";")[0];
    JsonNode body = Json.mapper().readTree(response.body());
    return new String[] {cookie, body.get("csrf").asText(), body.get("csrf_header").asText()};
  }

  @Test
  void openUsesThePerUserServiceAndAnotherProcessesTurnWakesItsPanel() throws Exception {
    JsonNode service = ok(CliProcess.run(env, "service", "start"));
    int servicePort = service.get("port").asInt();

    JsonNode opened = ok(CliProcess.run(env, "open"));
    assertFalse(opened.get("started").asBoolean(), "no second serve: " + opened);
    assertEquals("http://127.0.0.1:" + servicePort, opened.get("service").asText(), "" + opened);
    assertTrue(
        opened.get("url").asText().startsWith("http://127.0.0.1:" + servicePort + "/#login="),
        opened.toString());
    // its port named explicitly works as well: the token is the service's, not a folder's file
    JsonNode byPort = ok(CliProcess.run(env, "open", "--port", Integer.toString(servicePort)));
    assertFalse(byPort.get("started").asBoolean(), byPort.toString());
    assertEquals(
        List.of(service.get("pid").asLong()), servesOf(database), "one serve of the store");

    // a second serve of the store is refused, naming the running one
    CommandRun second = CliProcess.run(env, "serve", "--port", "0");
    assertEquals(1, second.exitCode(), second.err());
    assertTrue(
        second.err().contains("pid " + service.get("pid").asLong())
            && second.err().contains("http://127.0.0.1:" + servicePort),
        second.err());
    assertEquals(List.of(service.get("pid").asLong()), servesOf(database));

    // a panel's event stream, and a turn begun by a separate CLI process on the same store
    String[] page = login(opened.get("url").asText());
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    HttpResponse<Stream<String>> stream =
        HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + servicePort + "/v1/events"))
                .header("Cookie", page[0])
                .header(page[2], page[1])
                .header("Accept", "text/event-stream")
                .build(),
            HttpResponse.BodyHandlers.ofLines());
    assertEquals(200, stream.statusCode());
    Thread reader = Thread.ofVirtual().start(() -> stream.body().forEach(lines::add));
    try {
      awaitLine(lines, "event: hello", Duration.ofSeconds(30));
      TestWorkspace workspace = TestWorkspace.in(temp.resolve("ws")).file("a.txt", "a\n");
      CommandRun begun =
          CliProcess.run(
              env, "turn", "begin", "--workspace", workspace.root().toString(), "--session", "s9");
      assertEquals(0, begun.exitCode(), begun.err());
      Instant committed = Instant.now();
      awaitLine(lines, "event: store_changed", Duration.ofSeconds(10));
      assertTrue(
          Duration.between(committed, Instant.now()).compareTo(Duration.ofSeconds(5)) < 0,
          "within a few looks of 250 ms");
      workspace.assertOutsideUnchanged();
    } finally {
      reader.interrupt();
    }
  }

  @Test
  void twoStoresInOneFolderKeepTwoTokensAndTwoServices() throws Exception {
    Path a = temp.resolve("data/a.db");
    Path b = temp.resolve("data/b.db");
    int portA = freePort();
    JsonNode openedA =
        ok(CliProcess.run(Map.of("TURNDIFF_DB", a.toString()), "open", "--port", "" + portA));
    assertTrue(openedA.get("started").asBoolean(), openedA.toString());
    // told a's port, b's open does not take a's service for its own: it starts b's
    int portB = freePort();
    JsonNode openedB =
        ok(CliProcess.run(Map.of("TURNDIFF_DB", b.toString()), "open", "--port", "" + portB));
    assertTrue(openedB.get("started").asBoolean(), openedB.toString());
    assertNotEquals(openedA.get("service").asText(), openedB.get("service").asText());

    Path tokenA = temp.resolve("data/a.db.token");
    Path tokenB = temp.resolve("data/b.db.token");
    assertNotEquals(Files.readString(tokenA), Files.readString(tokenB));
    assertFalse(Files.exists(temp.resolve("data/turndiff.token")), "no shared token file");
    login(openedA.get("url").asText());
    login(openedB.get("url").asText());

    // the store's own service is found through any name of the store
    Path alias = temp.resolve("alias");
    Files.createSymbolicLink(alias, temp.resolve("data"));
    JsonNode again =
        ok(CliProcess.run(Map.of("TURNDIFF_DB", alias.resolve("a.db").toString()), "open"));
    assertFalse(again.get("started").asBoolean(), again.toString());
    assertEquals(openedA.get("service").asText(), again.get("service").asText());
  }

  /**
   * A {@code serve} of the store (here the one {@code open} starts) is not the per-user service,
   * but it serves the store: {@code service status} names it, from the store's record, instead of
   * saying only "not running" (exit 1 still: the hooks' service does not run).
   */
  @Test
  void serviceStatusNamesAServeOfTheStoreThatIsNotThePerUserService() throws Exception {
    JsonNode opened = ok(CliProcess.run(env, "open", "--port", "" + freePort()));
    assertTrue(opened.get("started").asBoolean(), opened.toString());
    long pid = opened.get("pid").asLong();

    CommandRun text = CliProcess.run(env, "service", "status");
    assertEquals(1, text.exitCode(), text.out() + text.err());
    assertTrue(text.out().startsWith("turndiff service: not running\n"), text.out());
    assertTrue(
        text.out()
            .contains(
                "served by:   a turndiff serve, not the per-user service (pid "
                    + pid
                    + ", "
                    + opened.get("service").asText()
                    + ", since "),
        text.out());
    assertTrue(text.out().contains("its log " + database + ".serve.log)"), text.out());

    CommandRun json = CliProcess.run(env, "service", "status", "--json");
    assertEquals(1, json.exitCode(), json.out() + json.err());
    JsonNode state = Json.mapper().readTree(json.out());
    assertFalse(state.get("running").asBoolean(), state.toString());
    JsonNode servedBy = state.get("served_by");
    assertEquals(pid, servedBy.get("pid").asLong(), state.toString());
    assertEquals(opened.get("service").asText(), servedBy.get("url").asText());
    assertTrue(servedBy.get("problem").isNull(), state.toString());

    // once the per-user service runs (it replaces the serve), it is the store's one service
    ok(CliProcess.run(env, "service", "start"));
    JsonNode running =
        Json.mapper().readTree(CliProcess.run(env, "service", "status", "--json").out());
    assertTrue(running.get("running").asBoolean(), running.toString());
    assertTrue(running.get("served_by").isNull(), running.toString());
  }

  @Test
  void aServeThatOpenStartedStopsWhenIdleAndWhenItsStoreIsDeleted() throws Exception {
    // idle from the moment the serve is published (open's own login request counts as use): 8 s
    // of wait rather than 20, and the serve may have gone by the time open's output is read here
    JsonNode idle =
        ok(CliProcess.run(env, "open", "--port", "" + freePort(), "--exit-when-idle", "8s"));
    assertTrue(idle.get("started").asBoolean(), idle.toString());
    Optional<ProcessHandle> idleServe = ProcessHandle.of(idle.get("pid").asLong());
    if (idleServe.isPresent()) {
      idleServe.get().onExit().get(60, TimeUnit.SECONDS);
    }
    Path log = Path.of(idle.get("log").asText());
    assertEquals(Path.of(database + ".serve.log").toString(), log.toString());
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(log)));
    assertTrue(
        Files.readString(log).contains("no request and no panel open for"), Files.readString(log));
    assertFalse(Files.exists(Path.of(database + ".service.json")), "its record withdrawn");
    assertFalse(Files.exists(Path.of(database + ".token")), "its token removed");

    JsonNode kept = ok(CliProcess.run(env, "open", "--port", "" + freePort()));
    assertTrue(kept.get("started").asBoolean(), kept.toString());
    ProcessHandle keptServe = ProcessHandle.of(kept.get("pid").asLong()).orElseThrow();
    Files.delete(database);
    keptServe.onExit().get(60, TimeUnit.SECONDS);
    assertTrue(
        Files.readString(log).contains("the store " + database + " was deleted"),
        Files.readString(log));
  }

  private static String awaitLine(BlockingQueue<String> lines, String prefix, Duration within)
      throws InterruptedException {
    List<String> seen = new ArrayList<>();
    Instant deadline = Instant.now().plus(within);
    while (Instant.now().isBefore(deadline)) {
      String line = lines.poll(100, TimeUnit.MILLISECONDS);
      if (line != null) {
        seen.add(line);
        if (line.startsWith(prefix)) {
          return line;
        }
      }
    }
    throw new AssertionError("no line starting " + prefix + " within " + within + "; saw " + seen);
  }
}
