package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestPostgres;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.store.PostgresDatabase;
import io.turndiff.store.Store;
import io.turndiff.store.StoreLocation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged jar on a PostgreSQL store named by {@code TURNDIFF_DB} (its Flyway database support
 * and driver shaded in): several "machines" — each its own workspace and its own turndiff processes
 * — record turns into one database at once, and no turn is lost.
 */
class PostgresProcessIT {

  private static final int MACHINES = 3;
  private static final int TURNS = 3;

  @TempDir Path temp;

  private final ExecutorService threads = Executors.newCachedThreadPool();

  @AfterEach
  void stop() {
    threads.shutdownNow();
  }

  @Test
  void processesOfSeveralMachinesRecordTurnsIntoOneDatabase() throws Exception {
    String url = TestPostgres.freshStoreUrl();
    // a password in the environment's URL is allowed (the server trusts local connections)
    Map<String, String> environment =
        Map.of("TURNDIFF_DB", url + "&password=not-on-a-command-line");
    List<TestWorkspace> workspaces = new ArrayList<>();
    List<Future<List<String>>> machines = new ArrayList<>();
    for (int m = 0; m < MACHINES; m++) {
      TestWorkspace workspace = TestWorkspace.in(temp.resolve("machine-" + m));
      workspaces.add(workspace);
      String session = "machine-" + m;
      machines.add(threads.submit(() -> recordTurns(workspace, session, environment)));
    }
    List<String> turns = new ArrayList<>();
    for (Future<List<String>> machine : machines) {
      turns.addAll(machine.get(10, TimeUnit.MINUTES));
    }
    assertEquals(MACHINES * TURNS, turns.stream().distinct().count());
    PostgresDatabase database =
        (PostgresDatabase) StoreLocation.address(Optional.of(url), Optional.empty(), Map.of());
    try (Store store = Store.open(database)) {
      Map<String, Long> rows = StoreRows.count(store);
      assertEquals((long) MACHINES * TURNS, rows.get("turn"), "no turn lost");
      assertEquals((long) MACHINES * TURNS, rows.get("file_change"));
      for (TestWorkspace workspace : workspaces) {
        workspace.assertOutsideUnchanged();
        workspace.canary().assertNotInStore(store);
      }
    }
  }

  private static List<String> recordTurns(
      TestWorkspace workspace, String session, Map<String, String> environment) throws Exception {
    List<String> turns = new ArrayList<>();
    for (int t = 0; t < TURNS; t++) {
      String turn =
          CliProcess.run(
                  environment,
                  "turn",
                  "begin",
                  "--workspace",
                  workspace.root().toString(),
                  "--session",
                  session)
              .expect(0)
              .json()
              .get("turn")
              .asText();
      CliProcess.run(environment, "snapshot", "--turn", turn, "notes.txt").expect(0);
      Files.writeString(workspace.resolve("notes.txt"), session + " turn " + t + "\n");
      String finished =
          CliProcess.run(environment, "turn", "finish", "--turn", turn).expect(0).out();
      assertTrue(finished.contains(turn), finished);
      turns.add(turn);
    }
    return turns;
  }
}
