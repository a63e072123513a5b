package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestWorkspace;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Store problems met by real processes: another process holding the write lock past the busy
 * timeout, and damaged stores under the command line and the service. Each failure is one clear
 * line or one JSON error, never a stack trace, and a failure leaves the service able to serve the
 * next request.
 */
class StoreProblemsProcessIT {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir Path temp;

  private static HttpResponse<String> call(
      ServeProcessIT.Service service, String method, String path, String body) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(service.url() + path))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body))
            .header("Content-Type", "application/json")
            .header("Authorization", "Bearer " + service.token())
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String beginTurn(TestWorkspace workspace, String turn) {
    return Json.write(
        Json.object()
            .put("workspace", workspace.root().toString())
            .put("session", "s1")
            .put("turn", turn),
        false);
  }

  private static String stop(ServeProcessIT.Service service) throws Exception {
    service.process().destroy();
    assertTrue(service.process().waitFor(60, TimeUnit.SECONDS));
    return Files.readString(service.errorLog());
  }

  @Test
  void processesOpeningANewStoreAtOnceMigrateItOnce() throws Exception {
    // a migration that cannot run in a transaction is guarded by the migration lock, not by
    // SQLite's
    Path store = temp.resolve("shared/turndiff.db");
    TestWorkspace workspace = TestWorkspace.in(temp.resolve("w")).file("a.txt", "a\n");
    List<Process> processes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      processes.add(
          CliProcess.builder(
                  Map.of(),
                  "turn",
                  "begin",
                  "--db",
                  store.toString(),
                  "--workspace",
                  workspace.root().toString())
              .redirectErrorStream(true)
              .start());
    }
    for (Process process : processes) {
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(process.waitFor(2, TimeUnit.MINUTES));
      assertEquals(0, process.exitValue(), output);
    }
  }

  @Test
  void theRequestAfterABusyTimeoutSucceedsOnceTheLockIsFree() throws Exception {
    TestWorkspace workspace = TestWorkspace.in(temp.resolve("w")).file("a.txt", "a\n");
    ServeProcessIT.Service service =
        ServeProcessIT.Service.start(
            Files.createDirectories(temp.resolve("busy")),
            Map.of("TURNDIFF_BUSY_TIMEOUT_MS", "500"));
    try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + service.database());
        Statement holder = other.createStatement()) {
      holder.execute("BEGIN IMMEDIATE");
      HttpResponse<String> busy = call(service, "POST", "/v1/turns", beginTurn(workspace, "t1"));
      assertEquals(500, busy.statusCode(), busy.body());
      JsonNode error = Json.mapper().readTree(busy.body());
      assertEquals("store", error.get("error").asText());
      assertTrue(
          error.get("message").asText().contains(service.database() + " is busy"), busy.body());
      holder.execute("ROLLBACK");

      HttpResponse<String> after = call(service, "POST", "/v1/turns", beginTurn(workspace, "t1"));
      assertEquals(201, after.statusCode(), after.body());
      HttpResponse<String> snapshot =
          call(
              service,
              "POST",
              "/v1/turns/t1/snapshots",
              Json.write(
                  Json.object().set("paths", Json.mapper().createArrayNode().add("a.txt")), false));
      assertEquals(200, snapshot.statusCode(), snapshot.body());
      assertEquals(200, call(service, "POST", "/v1/turns/t1/finish", "{}").statusCode());
      // committed for every connection, not only inside the service
      try (var rows = holder.executeQuery("SELECT state FROM turn WHERE external_id = 't1'")) {
        assertTrue(rows.next());
        assertEquals("finished", rows.getString(1));
      }
    } finally {
      StoreCommands.assertNoStackTrace(stop(service));
    }
  }

  @Test
  void aCommandThatGaveUpOnTheLockSaysSoInOneLine() throws Exception {
    TestWorkspace workspace = TestWorkspace.in(temp.resolve("w"));
    Path database = temp.resolve("store/turndiff.db");
    run(
            database,
            Map.of(),
            "turn",
            "begin",
            "--workspace",
            workspace.root().toString(),
            "--session",
            "s0")
        .expect(0);
    try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + database);
        Statement holder = other.createStatement()) {
      holder.execute("BEGIN IMMEDIATE");
      CommandRun busy =
          run(
                  database,
                  Map.of("TURNDIFF_BUSY_TIMEOUT_MS", "300"),
                  "turn",
                  "begin",
                  "--workspace",
                  workspace.root().toString(),
                  "--session",
                  "s1")
              .expect(ExitCode.ERROR.code());
      StoreCommands.assertNoStackTrace(busy);
      assertTrue(busy.err().startsWith("turndiff: the store " + database + " is busy"), busy.err());
      holder.execute("ROLLBACK");
    }
    run(
            database,
            Map.of(),
            "turn",
            "begin",
            "--workspace",
            workspace.root().toString(),
            "--session",
            "s1")
        .expect(0);
  }

  private static CommandRun run(Path database, Map<String, String> environment, String... args)
      throws Exception {
    return CliProcess.run(environment, StoreCommands.arguments(database, args));
  }

  @Test
  void commandsOnDamagedStoresPrintOneLineAndWriteNothing() throws Exception {
    TestWorkspace workspace = TestWorkspace.in(temp.resolve("w"));
    Path good = temp.resolve("good/turndiff.db");
    StoreCommands.recordTurns(good, workspace, 30);
    for (StoreDamage damage :
        new StoreDamage[] {StoreDamage.EMPTY, StoreDamage.GARBAGE_PAGE, StoreDamage.NOT_SQLITE}) {
      Path database = damage.copy(good, temp.resolve(damage.name()));
      byte[] before = Files.readAllBytes(database);
      CommandRun turns = run(database, Map.of(), "turns", "--session", "s1");
      StoreCommands.assertNoStackTrace(turns);
      if (damage.refusedAtOpen()) {
        StoreCommands.assertStoreRefused(turns, "turndiff: the store " + database + " is damaged");
      } else {
        assertEquals(2, turns.expect(0).json().get("turns").size(), damage + ": " + turns.err());
      }
      CommandRun begin =
          run(
              database,
              Map.of(),
              "turn",
              "begin",
              "--workspace",
              workspace.root().toString(),
              "--session",
              "s1");
      StoreCommands.assertStoreRefused(begin, "turndiff: the store " + database + " is damaged");
      assertArrayEquals(
          before, Files.readAllBytes(database), damage + ": the damaged store was written to");
    }
  }

  @Test
  void theServiceOnADamagedStoreAnswersReadsAndRefusesWritesAsJson() throws Exception {
    TestWorkspace workspace = TestWorkspace.in(temp.resolve("w"));
    Path good = temp.resolve("good/turndiff.db");
    StoreCommands.recordTurns(good, workspace, 30);
    Path database = StoreDamage.GARBAGE_PAGE.copy(good, temp.resolve("served/store"));
    byte[] before = Files.readAllBytes(database);
    ServeProcessIT.Service service = ServeProcessIT.Service.start(temp.resolve("served"), Map.of());
    try {
      assertEquals(database, service.database());
      HttpResponse<String> turns = call(service, "GET", "/v1/sessions/s1/turns", null);
      assertEquals(200, turns.statusCode(), turns.body());
      HttpResponse<String> refused = call(service, "POST", "/v1/turns", beginTurn(workspace, "t3"));
      assertEquals(500, refused.statusCode(), refused.body());
      JsonNode error = Json.mapper().readTree(refused.body());
      assertEquals("store", error.get("error").asText());
      assertTrue(
          error.get("message").asText().startsWith("the store " + database + " is damaged"),
          refused.body());
      StoreCommands.assertNoStackTrace(refused.body());
    } finally {
      String log = stop(service);
      StoreCommands.assertNoStackTrace(log);
      assertTrue(log.contains("warning: the store " + database + " is damaged"), log);
    }
    assertArrayEquals(before, Files.readAllBytes(database), "the damaged store was written to");
  }
}
