package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.fixtures.CommandRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shell hook client {@code bin/turndiff-hook} against the real service: it reads the discovery
 * file the Java side writes, proves the daemon's identity with its own shell HMAC (the marker it
 * leaves names the instance), and with no service running starts one through {@code service start}.
 * Whatever happens it prints nothing and exits 0.
 */
class HookScriptIT {

  @TempDir Path temp;

  private Map<String, String> env;
  private Path database;
  private Path runDirectory;
  private String key;

  @BeforeEach
  void setUp() {
    database = temp.resolve("data/turndiff.db");
    runDirectory = temp.resolve("xdg-run/turndiff");
    key = ServiceFiles.key(database.toString());
    env = new HashMap<>();
    env.put("TURNDIFF_DB", database.toString());
    env.put("XDG_RUNTIME_DIR", temp.resolve("xdg-run").toString());
    env.put("HOME", temp.toString());
  }

  @AfterEach
  void tearDown() throws Exception {
    CliProcess.run(env, "service", "stop", "--force", "--wait", "10");
  }

  private static Path script() {
    return CliProcess.jar()
        .toAbsolutePath()
        .getParent()
        .getParent()
        .getParent()
        .resolve("bin/turndiff-hook");
  }

  private CommandRun hook(String runtime, Path payload) throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder("dash", script().toString(), runtime).redirectInput(payload.toFile());
    builder.environment().remove("TURNDIFF_DB");
    builder.environment().putAll(env);
    return CommandRun.ofProcess(builder);
  }

  private Path payload() throws Exception {
    Path payload = temp.resolve("payload.json");
    Files.writeString(
        payload,
        "{\"session_id\":\"s-1\",\"turn_id\":\"t-1\",\"cwd\":\""
            + temp
            + "\","
            + "\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"hi\"}");
    return payload;
  }

  private String marker() throws Exception {
    Path marker = runDirectory.resolve(key + ".verified");
    return Files.exists(marker) ? Files.readString(marker, StandardCharsets.UTF_8).strip() : "";
  }

  private String expectedMarker() throws Exception {
    Discovery discovery = Discovery.read(runDirectory.resolve(key + ".json")).orElseThrow();
    return discovery.instance()
        + " "
        + discovery.pid()
        + " "
        + discovery.procStartTicks().getAsLong()
        + " "
        + discovery.port();
  }

  @Test
  void theScriptProvesTheRunningServiceAndSendsItThePayload() throws Exception {
    CommandRun start = CliProcess.run(env, "service", "start");
    assertEquals(0, start.exitCode(), start.err());
    CommandRun run = hook("codex", payload());
    assertEquals(new CommandRun(0, "", ""), run);
    assertEquals(expectedMarker(), marker(), "the script proved the Java service's identity");
    String log = hookLog();
    assertFalse(log.contains("did not prove"), log);
  }

  @Test
  void withNoServiceRunningTheScriptStartsOneThroughServiceStart() throws Exception {
    // TURNDIFF_HOME names a launcher: here one that runs the packaged jar
    Path home = CliProcess.launcherHome(temp.resolve("turndiff-home"));
    env.put("TURNDIFF_HOME", home.toString());
    env.put("TURNDIFF_HOOK_START_WAIT", "90");

    CommandRun run = hook("codex", payload());
    assertEquals(new CommandRun(0, "", ""), run);
    assertEquals(expectedMarker(), marker(), hookLog());
    CommandRun status = CliProcess.run(env, "service", "status", "--json");
    assertEquals(0, status.exitCode(), status.out() + status.err());
    JsonNode answer = Json.mapper().readTree(status.out());
    assertEquals(database.toString(), answer.get("service").get("store").asText());
    assertTrue(hookLog().contains("started one"), hookLog());
    // status shows the hook clients' log
    assertTrue(answer.path("hook_failures").toString().contains("started one"), status.out());
  }

  private String hookLog() throws Exception {
    Path log = runDirectory.resolve(key + ".hook.log");
    return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
  }
}
