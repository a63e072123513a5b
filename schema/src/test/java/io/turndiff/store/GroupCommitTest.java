package io.turndiff.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.Sha256;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link Store#writeInGroup} with real threads on a real store, SQLite and PostgreSQL: callers that
 * arrive while a write is under way share the next transaction, each returns only once its rows are
 * committed (a store opened afresh on the same database sees them), and a unit that fails undoes
 * only its own rows and fails only its caller.
 */
class GroupCommitTest {

  /** How long a test waits for something that must happen; only reached when it does not. */
  private static final long LIVENESS_SECONDS = 60;

  private static final int CALLERS = 8;

  enum Database {
    SQLITE,
    POSTGRES
  }

  @TempDir Path temp;

  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final List<Store> opened = new ArrayList<>();

  @AfterEach
  void close() {
    threads.shutdownNow();
    opened.forEach(Store::close);
  }

  private Store open(Database database) {
    Store store =
        switch (database) {
          case SQLITE -> Store.open(temp.resolve("turndiff.db"));
          case POSTGRES -> Store.open(PostgresServer.emptyDatabase());
        };
    opened.add(store);
    return store;
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** Whether a store opened afresh on the same database (as another process would) holds it. */
  private static boolean committed(Store store, Sha256 sha256) {
    try (Store fresh = Store.open(store.address())) {
      return fresh.read(tx -> tx.blobs().contains(sha256));
    }
  }

  /**
   * Starts a write that holds the store until released, then {@code CALLERS - 1} group writes
   * behind it (the one numbered {@code failing} throws after writing its blob), and waits until
   * they all wait for the next group. Each caller, once it returns, asks a fresh store for its
   * blob.
   */
  private record Lineup(CountDownLatch release, List<Future<Boolean>> callers) {}

  private Lineup lineUp(Store store, int failing) throws Exception {
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    List<Future<Boolean>> callers = new ArrayList<>();
    callers.add(
        threads.submit(
            () -> {
              Sha256 sha =
                  store.writeInGroup(
                      tx -> {
                        Sha256 put = tx.blobs().put(bytes("unit 0"));
                        inside.countDown();
                        try {
                          release.await();
                        } catch (InterruptedException e) {
                          throw new IllegalStateException(e);
                        }
                        return put;
                      });
              return committed(store, sha);
            }));
    assertTrue(inside.await(LIVENESS_SECONDS, TimeUnit.SECONDS), "the first write began");
    for (int i = 1; i < CALLERS; i++) {
      int number = i;
      callers.add(
          threads.submit(
              () -> {
                Sha256 sha =
                    store.writeInGroup(
                        tx -> {
                          Sha256 put = tx.blobs().put(bytes("unit " + number));
                          if (number == failing) {
                            throw new IllegalStateException("unit " + number + " fails");
                          }
                          return put;
                        });
                return committed(store, sha);
              }));
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(LIVENESS_SECONDS);
    while (store.groups().waiting() < CALLERS - 1) {
      assertTrue(System.nanoTime() < deadline, "the callers did not all queue");
      Thread.sleep(5);
    }
    return new Lineup(release, callers);
  }

  @ParameterizedTest
  @EnumSource(Database.class)
  void callersArrivingDuringAWriteShareTheNextCommitAndEachReturnsOnlyOnceItsRowIsCommitted(
      Database database) throws Exception {
    Store store = open(database);
    Lineup lineup = lineUp(store, -1);
    long groupsBefore = store.groups().groupsRun();
    lineup.release().countDown();
    for (Future<Boolean> caller : lineup.callers()) {
      assertTrue(
          caller.get(LIVENESS_SECONDS, TimeUnit.SECONDS),
          "a caller returned before a fresh store could read its row");
    }
    assertEquals(
        1,
        store.groups().groupsRun() - groupsBefore,
        "the callers queued behind the first write ran as one group");
    for (int i = 0; i < CALLERS; i++) {
      assertTrue(committed(store, Sha256.of(bytes("unit " + i))), "unit " + i);
    }
  }

  @ParameterizedTest
  @EnumSource(Database.class)
  void aUnitThatFailsUndoesOnlyItsOwnRowsAndFailsOnlyItsCaller(Database database) throws Exception {
    Store store = open(database);
    int failing = 3;
    Lineup lineup = lineUp(store, failing);
    lineup.release().countDown();
    for (int i = 0; i < CALLERS; i++) {
      Future<Boolean> caller = lineup.callers().get(i);
      if (i == failing) {
        ExecutionException failed =
            assertThrows(
                ExecutionException.class, () -> caller.get(LIVENESS_SECONDS, TimeUnit.SECONDS));
        assertInstanceOf(IllegalStateException.class, failed.getCause());
        assertEquals("unit 3 fails", failed.getCause().getMessage());
      } else {
        assertTrue(caller.get(LIVENESS_SECONDS, TimeUnit.SECONDS), "unit " + i);
      }
    }
    assertFalse(committed(store, Sha256.of(bytes("unit 3"))), "the failed unit's blob is undone");
    for (int i = 0; i < CALLERS; i++) {
      if (i != failing) {
        assertTrue(committed(store, Sha256.of(bytes("unit " + i))), "unit " + i);
      }
    }
    // the store goes on: the savepoint left nothing open
    Sha256 after = store.writeInGroup(tx -> tx.blobs().put(bytes("after")));
    assertTrue(committed(store, after));
  }
}
