package io.turndiff.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.fixtures.RawHttp;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service's Unix domain socket, driven by the real {@code curl --unix-socket} the hook script
 * uses: its file is 0600, this user's calls need no token there (while TCP still does), the status
 * names it, and a peer of another user is closed before a byte of its request is read, counted,
 * with nothing written.
 */
class SocketServiceTest {

  private static final String TOKEN = "test-token-0123456789abcdef";

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Path database;
  private Path socket;
  private Turndiff turndiff;
  private HttpService service;

  @BeforeEach
  void setUp() throws IOException {
    workspace = TestWorkspace.in(temp.resolve("base")).file("a.txt", "a\n");
    database = TestStore.fileIn(temp);
    Path run = Files.createDirectories(temp.resolve("run"));
    Files.setPosixFilePermissions(run, PosixFilePermissions.fromString("rwx------"));
    socket = run.resolve("0123456789abcdef.sock");
    turndiff = Turndiff.builder(database).open();
    service =
        HttpService.start(
            turndiff,
            ServiceOptions.builder(TOKEN)
                .port(0)
                .socket(socket)
                .shutdownGrace(Duration.ofSeconds(1))
                .build());
  }

  @AfterEach
  void tearDown() {
    service.stop();
    turndiff.close();
    workspace.assertOutsideUnchanged();
  }

  /** What curl ran as {@code prefix} got over the socket: its exit, the status and the body. */
  private record Curled(int exit, int status, String body) {}

  private Curled curl(List<String> prefix, String method, String target, String body)
      throws Exception {
    List<String> command = new ArrayList<>(prefix);
    command.addAll(
        List.of(
            "curl",
            "-q",
            "-sS",
            "--max-time",
            "20",
            "--unix-socket",
            socket.toString(),
            "-X",
            method,
            "-w",
            "\n%{http_code}"));
    if (body != null) {
      command.addAll(List.of("-H", "Content-Type: application/json", "--data-binary", body));
    }
    command.add("http://localhost" + target);
    Process curl = new ProcessBuilder(command).redirectErrorStream(false).start();
    String out = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    curl.waitFor(30, TimeUnit.SECONDS);
    int newline = out.lastIndexOf('\n');
    return new Curled(
        curl.exitValue(),
        Integer.parseInt(out.substring(newline + 1).strip()),
        newline < 0 ? "" : out.substring(0, newline));
  }

  private JsonNode status() throws Exception {
    Curled status = curl(List.of(), "GET", "/v1/service/status", null);
    assertEquals(200, status.status(), status.body());
    return Json.mapper().readTree(status.body());
  }

  @Test
  void thisUsersCallsOnTheSocketNeedNoTokenAndItsFileIsOwnerOnly() throws Exception {
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)));
    assertEquals(200, curl(List.of(), "GET", "/v1/health", null).status());
    Curled began =
        curl(List.of(), "POST", "/v1/turns", "{\"workspace\":\"" + workspace.root() + "\"}");
    assertEquals(201, began.status(), began.body());
    String turn = Json.mapper().readTree(began.body()).get("turn").asText();
    Curled snapshot =
        curl(List.of(), "POST", "/v1/turns/" + turn + "/snapshots", "{\"paths\":[\"a.txt\"]}");
    assertEquals(200, snapshot.status(), snapshot.body());
    // a snapshot call appends its before-state to the before log; the first reader folds it
    assertTrue(
        StoreRows.value(database, "SELECT COUNT(*) FROM before_log")
                + StoreRows.countAtRest(database).get("snapshot")
            >= 1,
        "the snapshot landed");
    // the TCP port still asks for the token
    RawHttp.Response tcp =
        RawHttp.request(service.port(), "GET", "/v1/health", null, Duration.ofSeconds(20));
    assertEquals(401, tcp.status(), tcp.toString());
    JsonNode connections = status().get("connections");
    assertEquals(socket.toString(), connections.get("socket").asText());
    assertEquals(0, connections.get("peer_refused").asLong());
  }

  @Test
  void anotherUsersPeerIsClosedBeforeItsRequestIsReadAndCounted() throws Exception {
    assumeTrue(
        "root".equals(System.getProperty("user.name"))
            && Files.isExecutable(Path.of("/usr/bin/setpriv")),
        "switching to another user needs root and setpriv");
    // the modes that keep other users out, opened behind the service's back: the peer check alone
    // stands
    for (Path dir = socket.getParent(); dir.startsWith(temp); dir = dir.getParent()) {
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
    }
    Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-rw-rw-"));
    Map<String, Long> rows = StoreRows.countAtRest(database);
    Curled refused =
        curl(
            List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"),
            "POST",
            "/v1/turns",
            "{\"workspace\":\"" + workspace.root() + "\"}");
    assertNotEquals(0, refused.exit(), "curl as nobody got no answer: " + refused);
    assertEquals(0, refused.status(), refused.toString());
    assertEquals(rows, StoreRows.countAtRest(database), "nothing was written");
    assertEquals(1, status().get("connections").get("peer_refused").asLong());
  }
}
