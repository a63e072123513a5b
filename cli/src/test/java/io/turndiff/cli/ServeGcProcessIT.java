package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestWorkspace;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve} collecting garbage on its own, as a real process: when the store passes the {@code
 * max-size} kept with it while a runtime captures turns through it, on its schedule, and stopped
 * between two steps by a SIGTERM. No gc command is run. The outcome is polled for with a generous
 * bound, never timed.
 */
class ServeGcProcessIT {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private static final String LOG_LINE = "turndiff serve: gc ";

  /** How long a test waits for an outcome that comes within seconds on a quiet machine. */
  private static final long BOUND_SECONDS = 180;

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Path database;

  /**
   * {@code count} finished turns of session {@code session} through the commands, each rewriting
   * one of three files with {@code lines} lines of random hex (content that compresses little).
   */
  private void turns(String session, int count, int lines) {
    Random random = new Random(count * 31L + lines);
    for (int i = 0; i < count; i++) {
      String turn = session + "-t" + i;
      String file = "f" + (i % 3) + ".txt";
      StoreCommands.beginTurn(database, workspace, session, turn).expect(0);
      StoreCommands.run(database, "snapshot", "--turn", turn, file).expect(0);
      StringBuilder text = new StringBuilder();
      for (int line = 0; line < lines; line++) {
        text.append(Long.toHexString(random.nextLong())).append('\n');
      }
      workspace.file(file, text.toString());
      StoreCommands.run(database, "turn", "finish", "--turn", turn).expect(0);
    }
  }

  private long turnsOf(String session) {
    return StoreRows.value(
        database,
        "SELECT count(*) FROM turn JOIN session ON session.id = turn.session_id"
            + " WHERE session.external_id = '"
            + session
            + "'");
  }

  /**
   * No dangling reference, a sound file, and every one of {@code turns} that is left still gives
   * its patch.
   */
  private void assertWhole(List<String> turns) {
    assertEquals(
        0, StoreRows.value(database, "SELECT count(*) FROM pragma_foreign_key_check"), "dangling");
    assertEquals(
        1,
        StoreRows.value(
            database, "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check = 'ok'"));
    for (String turn : turns) {
      if (StoreRows.value(database, "SELECT count(*) FROM turn WHERE external_id = '" + turn + "'")
          == 1) {
        assertTrue(
            StoreCommands.run(database, "diff", "--turn", turn).expect(0).out().contains("+++ b/"),
            turn);
      }
    }
  }

  private static List<String> ids(String session, int count) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ids.add(session + "-t" + i);
    }
    return ids;
  }

  private static JsonNode http(
      ServeProcessIT.Service service, String method, String path, String body, int status)
      throws Exception {
    HttpResponse<String> response =
        HTTP.send(
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
    assertEquals(
        status,
        response.statusCode(),
        method + " " + path + ": " + response.body() + "\n" + Files.readString(service.errorLog()));
    return Json.mapper().readTree(response.body());
  }

  /** The service's own account of its collections. */
  private static JsonNode gc(ServeProcessIT.Service service) throws Exception {
    return http(service, "GET", "/v1/service/status", null, 200).get("gc");
  }

  /** The collections the service's log reports, in order. */
  private static List<JsonNode> collections(ServeProcessIT.Service service) throws Exception {
    List<JsonNode> runs = new ArrayList<>();
    for (String line : Files.readAllLines(service.errorLog())) {
      if (line.startsWith(LOG_LINE)) {
        runs.add(Json.mapper().readTree(line.substring(LOG_LINE.length())));
      }
    }
    return runs;
  }

  /** Polls the service's log until it reports a collection that satisfies {@code done}. */
  private static JsonNode awaitCollection(ServeProcessIT.Service service, Predicate<JsonNode> done)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
    while (true) {
      for (JsonNode run : collections(service)) {
        if (done.test(run)) {
          return run;
        }
      }
      assertTrue(
          System.nanoTime() < deadline && service.process().isAlive(),
          "no such collection yet: " + Files.readString(service.errorLog()));
      Thread.sleep(100);
    }
  }

  private static void stop(ServeProcessIT.Service service) throws Exception {
    service.process().destroy();
    assertTrue(service.process().waitFor(BOUND_SECONDS, TimeUnit.SECONDS));
  }

  @Test
  void aStoreOverItsMaxSizeIsCollectedByTheServiceWhileARuntimeCapturesThroughIt()
      throws Exception {
    workspace = TestWorkspace.in(temp.resolve("ws"));
    database = temp.resolve("store/turndiff.db");
    workspace.file("f0.txt", "0\n").file("f1.txt", "1\n").file("f2.txt", "2\n");
    turns("s1", 24, 3000);
    // an old store: its content was stored days ago, past the grace that protects fresh blobs
    StoreRows.execute(database, "UPDATE blob SET stored_at = 0");
    long inUse =
        StoreRows.value(
            database,
            "SELECT (page_count - freelist_count) * page_size"
                + " FROM pragma_page_count(), pragma_freelist_count(), pragma_page_size()");
    long maxSize = inUse * 6 / 10;
    // the store's own size alone (a new store's default also keeps each session's newest 10)
    StoreCommands.run(
            database,
            "config",
            "--unset",
            "older-than",
            "--unset",
            "keep-turns",
            "--max-size",
            Long.toString(maxSize))
        .expect(0);

    ServeProcessIT.Service service =
        ServeProcessIT.Service.start(
            temp,
            // each step of the collection waits a little, so that the captures meet it under way
            Map.of(EnvTestHook.GC_PAUSE, "100"),
            "--gc-every",
            "0s",
            "--gc-size-check",
            "1s");
    List<String> captured = new CopyOnWriteArrayList<>();
    try {
      AtomicBoolean collected = new AtomicBoolean();
      CompletableFuture<Void> runtime =
          CompletableFuture.runAsync(
              () -> {
                try {
                  // turns until the collection is over
                  for (int i = 0; i < 2000 && !collected.get(); i++) {
                    String turn = "s2-t" + i;
                    http(
                        service,
                        "POST",
                        "/v1/turns",
                        Json.write(
                            Json.object()
                                .put("workspace", workspace.root().toString())
                                .put("session", "s2")
                                .put("turn", turn),
                            false),
                        201);
                    http(
                        service,
                        "POST",
                        "/v1/turns/" + turn + "/snapshots",
                        "{\"paths\":[\"g.txt\"]}",
                        200);
                    workspace.file("g.txt", "capture " + i + "\n");
                    http(service, "POST", "/v1/turns/" + turn + "/finish", null, 200);
                    captured.add(turn);
                    Thread.sleep(20);
                  }
                } catch (Exception e) {
                  throw new AssertionError(e);
                }
              });
      JsonNode last = awaitCollection(service, run -> run.get("outcome").asText().equals("done"));
      collected.set(true);
      runtime.get(BOUND_SECONDS, TimeUnit.SECONDS);

      assertEquals("size", last.get("trigger").asText(), last.toString());
      assertTrue(last.get("turns_removed").asInt() > 0, last.toString());
      assertTrue(last.get("blob_bytes_freed").asLong() > 0, last.toString());
      assertTrue(last.get("bytes_in_use").asLong() <= maxSize, last.toString());
      assertTrue(
          last.get("file_bytes_after").asLong() < last.get("file_bytes_before").asLong(),
          "the space went back to the file system: " + last);
      JsonNode status = gc(service);
      assertEquals("size", status.get("last").get("trigger").asText(), status.toString());
      assertEquals(0, status.get("every_s").asLong());
      assertEquals(1, status.get("size_check_s").asLong());
      assertTrue(status.get("next_at").isNull(), "no collection on a schedule");

      long left = turnsOf("s1");
      assertTrue(left > 0 && left < 24, "the oldest turns went, the newest stayed: " + left);
      assertEquals(captured.size(), turnsOf("s2"), "every turn the runtime captured is there");
      assertTrue(
          StoreRows.value(
                  database,
                  "SELECT count(*) FROM turn WHERE external_id LIKE 's2-%' AND finished_at BETWEEN "
                      + Instant.parse(last.get("started_at").asText()).toEpochMilli()
                      + " AND "
                      + Instant.parse(last.get("finished_at").asText()).toEpochMilli())
              > 0,
          "the runtime finished turns while the collection was under way");
    } finally {
      stop(service);
    }
    List<String> all = ids("s1", 24);
    all.addAll(captured);
    assertWhole(all);
    workspace.assertOutsideUnchanged();
  }

  @Test
  void theScheduleIsAnOptionAndTheServiceNeverHoldsAnOldStoreToConvertIt() throws Exception {
    workspace = TestWorkspace.in(temp.resolve("ws"));
    database = temp.resolve("store/turndiff.db");
    workspace.file("f0.txt", "0\n").file("f1.txt", "1\n").file("f2.txt", "2\n");
    turns("s1", 3, 100);
    StoreCommands.run(
            database, "config", "--unset", "older-than", "--unset", "max-size", "--keep-turns", "1")
        .expect(0);
    // as every store made before incremental vacuum: converting it takes a full VACUUM
    StoreRows.execute(database, "PRAGMA auto_vacuum = NONE", "VACUUM");
    assertEquals(0, StoreRows.value(database, "PRAGMA auto_vacuum"));

    ServeProcessIT.Service service =
        ServeProcessIT.Service.start(temp, Map.of(), "--gc-every", "1s", "--gc-size-check", "0s");
    try {
      JsonNode run = awaitCollection(service, logged -> logged.get("turns_removed").asInt() > 0);
      assertEquals("schedule", run.get("trigger").asText(), run.toString());
      assertEquals("done", run.get("outcome").asText(), run.toString());
      assertEquals(2, run.get("turns_removed").asInt(), run.toString());
      assertTrue(
          run.get("note").asText().contains("`turndiff gc` converts it once"), run.toString());
      JsonNode status = gc(service);
      assertEquals(1, status.get("every_s").asLong());
      assertFalse(status.get("next_at").isNull());
      assertEquals("schedule", status.get("last").get("trigger").asText(), status.toString());
      assertEquals(1, turnsOf("s1"));
      assertEquals(
          0, StoreRows.value(database, "PRAGMA auto_vacuum"), "the service did not convert it");
    } finally {
      stop(service);
    }
    assertWhole(ids("s1", 3));
  }

  @Test
  void aCollectionUnderWayEndsAfterItsStepWhenTheServiceStops() throws Exception {
    workspace = TestWorkspace.in(temp.resolve("ws"));
    database = temp.resolve("store/turndiff.db");
    workspace.file("f0.txt", "0\n").file("f1.txt", "1\n").file("f2.txt", "2\n");
    turns("s1", 24, 100);
    StoreCommands.run(
            database, "config", "--unset", "older-than", "--unset", "max-size", "--keep-turns", "1")
        .expect(0);

    ServeProcessIT.Service service =
        ServeProcessIT.Service.start(
            temp,
            // long steps: the SIGTERM lands while the collection is under way
            Map.of(EnvTestHook.GC_PAUSE, "1000"),
            "--gc-every",
            "1s",
            "--gc-size-check",
            "0s");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
    while (turnsOf("s1") == 24) {
      assertTrue(
          System.nanoTime() < deadline && service.process().isAlive(),
          Files.readString(service.errorLog()));
      Thread.sleep(50);
    }
    stop(service);

    assertTrue(
        collections(service).stream()
            .anyMatch(run -> run.get("outcome").asText().equals("stopped")),
        Files.readString(service.errorLog()));
    assertTrue(turnsOf("s1") > 1, "stopped before it was done");
    assertFalse(
        Files.exists(Path.of(database + "-wal")),
        "the store was closed after the collection ended, and nothing wrote to it after");
    assertWhole(ids("s1", 24));
  }
}
