package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.service.ServiceFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code turndiff doctor}'s socket check against a real per-user service (issue 21, item 0): the
 * socket the service made is found sound and answers; opened to 0644 behind the service's back it
 * is named and doctor exits 1; removed, doctor says the hooks fall back to TCP and how to get the
 * socket back, and a restart does.
 */
class DoctorSocketIT {

  @TempDir Path temp;

  private HookTestStore store;
  private Map<String, String> env;
  private Path workspace;
  private Path socket;

  @BeforeEach
  void setUp() throws Exception {
    store = HookTestStore.in(temp);
    env = store.env();
    workspace = Files.createDirectories(temp.resolve("ws"));
    socket = ServiceFiles.of(store.database(), env).socket();
  }

  @AfterEach
  void tearDown() throws Exception {
    store.stopService();
  }

  private record Doctor(int exitCode, JsonNode socket, String text) {}

  private Doctor doctor() throws Exception {
    CommandRun json = CliProcess.run(env, "doctor", "--workspace", workspace.toString(), "--json");
    JsonNode checks = Json.mapper().readTree(json.out()).get("checks");
    CommandRun text = CliProcess.run(env, "doctor", "--workspace", workspace.toString());
    assertEquals(json.exitCode(), text.exitCode(), text.out() + text.err());
    return new Doctor(json.exitCode(), DoctorVerdicts.named(checks, "socket"), text.out());
  }

  @Test
  void theSocketIsCheckedAnsweringThenOpenedThenGone() throws Exception {
    CommandRun start = CliProcess.run(env, "service", "start");
    assertEquals(0, start.exitCode(), start.err());

    Doctor sound = doctor();
    assertEquals("ok", sound.socket().get("verdict").asText(), sound.socket().toString());
    assertTrue(
        sound.socket().get("found").asText().contains("answered a health request"),
        sound.socket().toString());

    Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-r--r--"));
    Doctor opened = doctor();
    assertEquals(1, opened.exitCode(), opened.text());
    assertEquals("fail", opened.socket().get("verdict").asText(), opened.socket().toString());
    assertTrue(
        opened.socket().get("found").asText().contains(socket + " is mode rw-r--r--"),
        opened.socket().toString());
    assertTrue(opened.text().contains("fail  socket"), opened.text());
    assertTrue(
        opened.text().contains("-> remove it, then restart the service: turndiff service stop"),
        opened.text());

    Files.delete(socket);
    Doctor gone = doctor();
    assertEquals("warn", gone.socket().get("verdict").asText(), gone.socket().toString());
    assertTrue(
        gone.socket().get("found").asText().contains("the hook script falls back to TCP"),
        gone.socket().toString());
    assertTrue(
        gone.text().contains("turndiff service stop && turndiff service start"), gone.text());

    assertEquals(0, CliProcess.run(env, "service", "stop").exitCode());
    assertEquals(0, CliProcess.run(env, "service", "start").exitCode());
    Doctor again = doctor();
    assertEquals("ok", again.socket().get("verdict").asText(), again.socket().toString());
  }
}
