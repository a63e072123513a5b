package io.turndiff.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.Sha256;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transactions on a real store with real threads and a second real connection: a write that failed
 * (on a busy lock or in its body) leaves the store usable, and reads are read transactions of their
 * own that neither wait for a write in progress nor see it.
 */
class StoreLockingTest {

  /**
   * How long a test waits for something that must happen at once; only reached when it does not.
   */
  private static final long LIVENESS_SECONDS = 30;

  @TempDir Path temp;

  private Path file;
  private Store store;
  private final ExecutorService threads = Executors.newCachedThreadPool();

  @BeforeEach
  void open() {
    file = temp.resolve("turndiff.db");
    store =
        Store.open(file, InstantSource.system(), Duration.ofMillis(300), IntegrityCheck.TIME_CAP);
  }

  @AfterEach
  void close() {
    threads.shutdownNow();
    store.close();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private long blobCount() {
    return store.read(
        tx -> {
          long[] count = {0};
          tx.blobs().forEach((sha, content) -> count[0]++);
          return count[0];
        });
  }

  @Test
  void aWriteThatGaveUpOnAnotherConnectionsLockLeavesTheStoreUsable() throws Exception {
    store.write(tx -> tx.blobs().put(bytes("before")));
    try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement holder = other.createStatement()) {
      holder.execute("BEGIN IMMEDIATE");
      StoreException busy =
          assertThrows(
              StoreException.class, () -> store.write(tx -> tx.blobs().put(bytes("while locked"))));
      assertEquals(StoreException.Problem.BUSY, busy.problem(), busy.getMessage());
      assertTrue(
          busy.getMessage().contains(file.toString()) && busy.getMessage().contains("busy"),
          busy.getMessage());
      holder.execute("ROLLBACK");

      Sha256 after = store.write(tx -> tx.blobs().put(bytes("after")));
      assertTrue(holds(after));
      assertFalse(holds(Sha256.of(bytes("while locked"))));
      // committed for everyone, not left in a transaction only this connection sees
      try (ResultSet row =
          holder.executeQuery("SELECT count(*) FROM blob WHERE sha256 = '" + after.hex() + "'")) {
        assertTrue(row.next());
        assertEquals(1, row.getInt(1));
      }
      // and the lock is free again for the other connection
      holder.execute("BEGIN IMMEDIATE");
      holder.execute("ROLLBACK");
    }
  }

  @Test
  void aWriteThatFailedInItsBodyLeavesTheStoreUsable() {
    assertThrows(
        IllegalStateException.class,
        () ->
            store.write(
                tx -> {
                  tx.blobs().put(bytes("partial"));
                  throw new IllegalStateException("boom");
                }));
    Sha256 next = store.write(tx -> tx.blobs().put(bytes("next")));
    assertTrue(holds(next));
    assertFalse(holds(Sha256.of(bytes("partial"))));
  }

  @Test
  void aReadCompletesWhileAnotherThreadHoldsAWriteTransactionOpen() throws Exception {
    Sha256 committed = store.write(tx -> tx.blobs().put(bytes("committed")));
    Sha256 uncommitted = Sha256.of(bytes("uncommitted"));
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Future<Sha256> writer =
        threads.submit(
            () ->
                store.write(
                    tx -> {
                      Sha256 sha = tx.blobs().put(bytes("uncommitted"));
                      inside.countDown();
                      try {
                        release.await();
                      } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                      }
                      return sha;
                    }));
    assertTrue(inside.await(LIVENESS_SECONDS, TimeUnit.SECONDS));
    try {
      Future<List<Boolean>> read =
          threads.submit(
              () ->
                  store.read(
                      tx ->
                          List.of(
                              tx.blobs().contains(committed), tx.blobs().contains(uncommitted))));
      assertEquals(
          List.of(true, false),
          read.get(LIVENESS_SECONDS, TimeUnit.SECONDS),
          "the read sees what was committed, and not the write in progress");
    } finally {
      release.countDown();
    }
    assertEquals(uncommitted, writer.get(LIVENESS_SECONDS, TimeUnit.SECONDS));
    assertTrue(holds(uncommitted));
  }

  @Test
  void aReadSeesOneSnapshotWhileAnotherThreadCommits() throws Exception {
    store.write(tx -> tx.blobs().put(bytes("first")));
    List<Long> counts =
        store.read(
            tx -> {
              long before = blobCount(); // a read nested in a read: the same transaction
              try {
                threads
                    .submit(() -> store.write(t -> t.blobs().put(bytes("second"))))
                    .get(LIVENESS_SECONDS, TimeUnit.SECONDS);
              } catch (Exception e) {
                throw new AssertionError("a write waited for a read", e);
              }
              return List.of(before, blobCount());
            });
    assertEquals(List.of(1L, 1L), counts, "the read saw a commit made while it ran");
    assertEquals(2, blobCount());
  }

  @Test
  void aReadInsideAWriteSeesTheWritesRows() {
    store.write(
        tx -> {
          Sha256 sha = tx.blobs().put(bytes("mine"));
          assertTrue(holds(sha), "a read inside a write is part of it");
          return sha;
        });
  }

  @Test
  void aReadCannotWrite() {
    assertThrows(
        RuntimeException.class, () -> store.read(tx -> tx.blobs().put(bytes("sneaked in"))));
    assertThrows(
        RuntimeException.class, () -> store.read(tx -> tx.workspaces().register("/w", "/w", 1, 2)));
    assertFalse(holds(Sha256.of(bytes("sneaked in"))));
    assertTrue(store.read(tx -> tx.workspaces().byRealRoot("/w")).isEmpty());
  }

  private boolean holds(Sha256 sha) {
    return store.read(tx -> tx.blobs().contains(sha));
  }
}
