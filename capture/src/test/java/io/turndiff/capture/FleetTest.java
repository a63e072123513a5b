package io.turndiff.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.fixtures.RecordedChanges;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestPostgres;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.RequestException;
import io.turndiff.model.Sha256;
import io.turndiff.model.TurnState;
import io.turndiff.store.PostgresDatabase;
import io.turndiff.store.Store;
import io.turndiff.store.StoredFileChange;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fleet on one PostgreSQL database: several capture services, each with its own store (its own
 * connections, as a process on another machine has) and its own workspace, record turns at the same
 * time. No turn is lost, every turn and session id is unique, content the services share is stored
 * once, and a turn two services finish at once is finished once. Runs in the PostgreSQL run of the
 * suite; prints the turns per second it reached.
 */
@EnabledIfSystemProperty(named = TestStore.DIALECT_PROPERTY, matches = "postgres")
class FleetTest {

  private static final int SERVICES = 4;
  private static final int TURNS_PER_SERVICE = 30;
  private static final List<String> FILES = List.of("a.txt", "b.txt", "shared.txt");
  private static final String SHARED = "the same content on every machine\n";
  private static final long LIVENESS_SECONDS = 600;

  @TempDir Path temp;

  private final ExecutorService threads = Executors.newCachedThreadPool();

  @AfterEach
  void stop() {
    threads.shutdownNow();
  }

  /** One service of the fleet: its own store connections, capture service and workspace. */
  private record Service(TestWorkspace workspace, Store store, CaptureService capture)
      implements AutoCloseable {
    static Service on(PostgresDatabase database, Path base) {
      Store store = Store.open(database);
      return new Service(
          TestWorkspace.in(base), store, new CaptureService(store, BoundaryOptions.defaults()));
    }

    @Override
    public void close() {
      capture.close();
      store.close();
    }
  }

  @Test
  void servicesWritingOneDatabaseAtOnceLoseNoTurnAndStoreSharedContentOnce() throws Exception {
    PostgresDatabase database = TestPostgres.freshStore();
    List<Service> services = new ArrayList<>();
    for (int i = 0; i < SERVICES; i++) {
      services.add(Service.on(database, temp.resolve("machine-" + i)));
    }
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<List<String>>> runs = new ArrayList<>();
      for (int i = 0; i < SERVICES; i++) {
        Service service = services.get(i);
        String session = "fleet-session-" + i;
        runs.add(threads.submit(() -> recordTurns(service, session, start)));
      }
      long began = System.nanoTime();
      start.countDown();
      List<String> finished = new ArrayList<>();
      for (Future<List<String>> run : runs) {
        finished.addAll(run.get(LIVENESS_SECONDS, TimeUnit.SECONDS));
      }
      double seconds = (System.nanoTime() - began) / 1e9;

      int expected = SERVICES * TURNS_PER_SERVICE;
      assertEquals(expected, new HashSet<>(finished).size(), "every turn id is unique");
      Map<String, Long> rows = StoreRows.count(services.getFirst().store());
      assertEquals(
          (long) expected, rows.get("turn"), "turns lost: " + (expected - rows.get("turn")));
      assertEquals((long) SERVICES, rows.get("session"));
      assertEquals((long) SERVICES, rows.get("workspace"));
      assertEquals((long) expected * FILES.size(), rows.get("file_change"));
      Store reader = services.getLast().store();
      for (String turn : finished) {
        assertEquals(TurnState.FINISHED, RecordedChanges.turn(reader, turn).state(), turn);
        List<StoredFileChange> changes = RecordedChanges.of(reader, turn);
        assertEquals(FILES.size(), changes.size(), turn);
        assertTrue(
            changes.stream()
                .allMatch(
                    change ->
                        change.change().isPresent() && change.change().get() != ChangeKind.UNKNOWN),
            "every change captured: " + changes);
      }
      Sha256 shared = Sha256.of(SHARED.getBytes(StandardCharsets.UTF_8));
      boolean stored = reader.read(tx -> tx.blobs().contains(shared));
      assertTrue(stored);
      for (Service service : services) {
        service.workspace().assertOutsideUnchanged();
        service.workspace().canary().assertNotInStore(service.store());
      }
      System.out.printf(
          "fleet: %d services, %d turns of %d files in %.1f s: %.1f turns/s, 0 lost%n",
          SERVICES, expected, FILES.size(), seconds, expected / seconds);
    } finally {
      services.forEach(Service::close);
    }
  }

  private static List<String> recordTurns(Service service, String session, CountDownLatch start)
      throws Exception {
    start.await();
    List<String> turns = new ArrayList<>();
    for (int t = 0; t < TURNS_PER_SERVICE; t++) {
      String turn =
          service
              .capture()
              .beginTurn(service.workspace().root(), Optional.of(session), Optional.empty())
              .turn();
      service.capture().snapshot(turn, Optional.of("edit-" + t), FILES);
      Path root = service.workspace().root();
      Files.writeString(root.resolve("a.txt"), session + " turn " + t + "\n");
      Files.writeString(root.resolve("b.txt"), "line\n".repeat(t + 1));
      Files.writeString(root.resolve("shared.txt"), t % 2 == 0 ? SHARED : "");
      TurnSummary summary = service.capture().finishTurn(turn);
      assertEquals(FILES.size(), summary.files());
      turns.add(turn);
    }
    return turns;
  }

  @Test
  void aTurnTwoServicesFinishAtOnceIsFinishedOnce() throws Exception {
    PostgresDatabase database = TestPostgres.freshStore();
    try (Service first = Service.on(database, temp.resolve("machine"));
        Store secondStore = Store.open(database);
        CaptureService second = new CaptureService(secondStore, BoundaryOptions.defaults())) {
      first.workspace().file("a.txt", "before\n");
      String turn =
          first
              .capture()
              .beginTurn(first.workspace().root(), Optional.of("raced"), Optional.empty())
              .turn();
      first.capture().snapshot(turn, Optional.empty(), List.of("a.txt"));
      first.workspace().file("a.txt", "after\n");

      CountDownLatch start = new CountDownLatch(1);
      List<Future<Object>> racers = new ArrayList<>();
      for (CaptureService service : List.of(first.capture(), second)) {
        racers.add(
            threads.submit(
                () -> {
                  start.await();
                  try {
                    return service.finishTurn(turn);
                  } catch (RequestException refused) {
                    return refused;
                  }
                }));
      }
      start.countDown();
      List<Object> outcomes = new ArrayList<>();
      for (Future<Object> racer : racers) {
        outcomes.add(racer.get(LIVENESS_SECONDS, TimeUnit.SECONDS));
      }
      Set<Class<?>> kinds = new HashSet<>();
      outcomes.forEach(outcome -> kinds.add(outcome.getClass()));
      assertEquals(
          Set.of(TurnSummary.class, RequestException.class), kinds, "one finished it: " + outcomes);
      RequestException refused =
          assertInstanceOf(
              RequestException.class,
              outcomes.stream().filter(RequestException.class::isInstance).findFirst().get());
      assertEquals(RequestException.Problem.WRONG_STATE, refused.problem(), refused.getMessage());
      assertEquals(TurnState.FINISHED, RecordedChanges.turn(secondStore, turn).state());
      assertEquals(1L, StoreRows.count(secondStore).get("file_change"));
      assertEquals(2L, StoreRows.count(secondStore).get("snapshot"), "one before, one after");
    }
  }
}
