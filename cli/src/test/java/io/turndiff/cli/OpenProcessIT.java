package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestWorkspace;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code turndiff open} as a real process: with no service it starts {@code serve} for the store,
 * prints a login URL whose one-time code logs a browser in once; a second {@code open} finds the
 * running service and starts nothing. The serve it starts comes from the start-up cache and native
 * library the command started from, as {@code service start}'s daemon does.
 */
class OpenProcessIT {

  @TempDir Path temp;

  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private long servePid;

  @AfterEach
  void stopService() throws Exception {
    if (servePid > 0) {
      ProcessHandle handle = ProcessHandle.of(servePid).orElse(null);
      if (handle != null) {
        handle.destroy();
        handle.onExit().get(60, TimeUnit.SECONDS);
      }
    }
  }

  private static int freePort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private HttpResponse<String> login(int port, String code) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/login"))
            .header("Content-Type", "application/json")
            .header("Origin", "http://127.0.0.1:" + port)
            .POST(HttpRequest.BodyPublishers.ofString("{\"code\":\"" + code + "\"}"))
            .timeout(Duration.ofSeconds(30))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void openStartsTheServiceAndPrintsALoginUrlWhoseCodeWorksOnce() throws Exception {
    TestWorkspace workspace = TestWorkspace.in(temp.resolve("my project")).file("a.txt", "a\n");
    Path database = temp.resolve("store/turndiff.db");
    Map<String, String> env = new HashMap<>();
    env.put("TURNDIFF_DB", database.toString());
    int port = freePort();

    CommandRun first =
        CliProcess.run(
            env,
            "open",
            "--port",
            Integer.toString(port),
            "--workspace",
            workspace.root().toString());
    assertEquals(0, first.exitCode(), first.err());
    JsonNode opened = Json.mapper().readTree(first.out());
    assertTrue(opened.get("started").asBoolean(), first.out());
    servePid = opened.get("pid").asLong();
    List<String> serveOptions =
        Arrays.asList(Files.readString(Path.of("/proc/" + servePid + "/cmdline")).split("\0"));
    Path jar = CliProcess.jar();
    assertTrue(
        StartupCache.serviceStartOptions(jar).stream().anyMatch(serveOptions::contains),
        "the serve starts from the command's cache, or the service's beside it: " + serveOptions);
    assertTrue(
        serveOptions.contains(
            "-Dturndiff.sqlite.library=" + jar.resolveSibling("turndiff.native").toAbsolutePath()),
        "and loads the command's copy of sqlite-jdbc's library: " + serveOptions);
    assertFalse(
        serveOptions.contains("-XX:TieredStopAtLevel=1"),
        "but keeps the full JIT of a long-lived process: " + serveOptions);
    String url = opened.get("url").asText();
    String prefix = "http://127.0.0.1:" + port + "/#login=";
    assertTrue(url.startsWith(prefix), url);
    String root = workspace.root().toString();
    String next =
        URLEncoder.encode(
                "/w/" + URLEncoder.encode(root, StandardCharsets.UTF_8).replace("+", "%20"),
                StandardCharsets.UTF_8)
            .replace("+", "%20");
    assertTrue(url.endsWith("&next=" + next), url);
    assertTrue(url.contains("%2520project"), "a space as %20, encoded twice: " + url);
    String code = url.substring(prefix.length(), url.indexOf('&'));

    HttpResponse<String> page =
        HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(200, page.statusCode());
    assertTrue(page.body().contains("assets/js/main.js"), "the panel is served");

    HttpResponse<String> loggedIn = login(port, code);
    assertEquals(200, loggedIn.statusCode(), loggedIn.body());
    assertTrue(
        loggedIn.headers().firstValue("Set-Cookie").orElseThrow().contains("HttpOnly"),
        loggedIn.headers().toString());
    assertEquals(401, login(port, code).statusCode(), "the code works once");

    CommandRun second = CliProcess.run(env, "open", "--port", Integer.toString(port));
    assertEquals(0, second.exitCode(), second.err());
    JsonNode again = Json.mapper().readTree(second.out());
    assertFalse(again.get("started").asBoolean(), "the running service is used: " + second.out());
    String secondUrl = again.get("url").asText();
    assertEquals(200, login(port, secondUrl.substring(prefix.length())).statusCode());
  }
}
