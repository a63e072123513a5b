package io.turndiff.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.Sha256;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store's write-ahead log moved into its database file beside the writer ({@link
 * WalCheckpointer}), on a real SQLite file: a full log reaches the database file a pause after the
 * commit that filled it without the writer checkpointing it, a log not yet full is left to grow,
 * the store's own checkpoint still empties the log while the checkpointer copies, closing leaves
 * neither the log nor the thread, and a store whose file was removed is not created again.
 */
class WalCheckpointerTest {

  @TempDir Path temp;

  @Test
  void aFullLogReachesTheDatabaseFileAPauseLaterWithoutTheWriterCheckpointing() throws Exception {
    Path file = temp.resolve("reaches.db");
    try (Store store = Store.open(file)) {
      Sha256 marked = store.writeInGroup(tx -> tx.blobs().put(text("moved beside the writer")));
      // the writer's own checkpoint waits for twice as many pages, and closing would move it too:
      // only the checkpointer, a pause after the commit that filled the log, can put the row into
      // the database file now
      fillTheLog(store, new Random(5));
      assertEquals(Optional.of(true), seenAlone(file, marked, Duration.ofSeconds(20)));
    }
  }

  @Test
  void aLogNotYetFullIsLeftToGrow() throws Exception {
    Path file = temp.resolve("grows.db");
    try (Store store = Store.open(file)) {
      // moved, the log would be started again from its beginning by the next commit, which syncs
      // it in that commit: a hook's, after every quiet second
      Sha256 marked = store.writeInGroup(tx -> tx.blobs().put(text("left in the log")));
      Thread.sleep(WalCheckpointer.PAUSE.toMillis() + 1000);
      // not even the schema is there (the migrations' pages are in the log too): no table to ask
      assertNotEquals(
          Optional.of(true),
          seenAlone(file, marked, Duration.ZERO),
          "the database file alone holds what was committed, so the log was moved");
    }
  }

  @Test
  void theStoresCheckpointEmptiesTheLogWhileTheCheckpointerCopies() throws Exception {
    Path file = temp.resolve("truncates.db");
    Random random = new Random(23);
    try (Store store = Store.open(file)) {
      // each round fills the log in one commit, then asks for the store's checkpoint at a moment
      // across the window in which the checkpointer copies it (a pause after the commit, for the
      // time its copy and two syncs take here): SQLite refuses a second checkpoint while one runs,
      // busy, and says so only in a row, so without waiting for the copy the log would be left full
      for (int round = 0; round < 4; round++) {
        fillTheLog(store, random);
        long committed = System.nanoTime();
        long at =
            committed
                + WalCheckpointer.PAUSE.toNanos()
                + Duration.ofMillis(2 + 6L * round).toNanos();
        Thread.sleep(Duration.ofNanos(Math.max(0, at - System.nanoTime())));
        store.checkpoint();
        assertEquals(
            0,
            Files.size(wal(file)),
            "round " + round + ": the log moved and truncated when the checkpoint returned");
      }
    }
  }

  /** Commits, in one transaction, contents enough for a full log (the checkpointer's 40 MB). */
  private static void fillTheLog(Store store, Random random) {
    byte[][] contents = new byte[44][1 << 20];
    for (byte[] content : contents) {
      random.nextBytes(content);
    }
    store.write(
        tx -> {
          for (byte[] content : contents) {
            tx.blobs().put(content);
          }
          return null;
        });
  }

  /**
   * Whether the database file alone holds the blob, asked until it does or {@code within} passed
   * (once when zero); empty when no copy of it could be read.
   */
  private Optional<Boolean> seenAlone(Path file, Sha256 blob, Duration within) throws Exception {
    Optional<Boolean> seen = holdsBlobAlone(file, blob);
    long deadline = System.nanoTime() + within.toNanos();
    while (System.nanoTime() < deadline && !seen.orElse(false)) {
      Thread.sleep(200);
      seen = holdsBlobAlone(file, blob);
    }
    return seen;
  }

  @Test
  void closingStopsTheCheckpointerAndRemovesTheLog() throws Exception {
    Path file = temp.resolve("closes-" + Long.toHexString(new Random().nextLong()) + ".db");
    String thread = "turndiff-checkpoint-" + file.getFileName();
    Store store = Store.open(file);
    try {
      store.writeInGroup(tx -> tx.blobs().put(text("before the checkpoint")));
      Thread.sleep(WalCheckpointer.PAUSE.toMillis() + 500);
      assertTrue(running(thread), "a commit started the checkpointer's thread");
      // a commit whose checkpoint is still due when the store closes
      store.writeInGroup(tx -> tx.blobs().put(text("after it")));
    } finally {
      store.close();
    }
    // the thread ends just after its executor is shut down: give it a moment
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (running(thread) && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertFalse(running(thread), "closing stopped the thread");
    assertFalse(Files.exists(wal(file)), "the last connection closed moved the log and removed it");
  }

  @Test
  void aStoreWhoseFileWasRemovedIsNotCreatedAgainByTheCheckpoint() throws Exception {
    Path file = temp.resolve("removed.db");
    try (Store store = Store.open(file)) {
      fillTheLog(store, new Random(7));
      // the database file removed before the checkpoint a pause after the commit opens its
      // connection; the log left, full, so that the checkpoint is due (a connection that may create
      // the file would make a new store and find the old one's log beside it)
      Files.delete(file);
      Thread.sleep(WalCheckpointer.PAUSE.toMillis() + 500);
      assertFalse(Files.exists(file), "the checkpoint created an empty store where there was none");
    }
  }

  private static boolean running(String name) {
    return Thread.getAllStackTraces().keySet().stream()
        .anyMatch(thread -> thread.getName().equals(name) && thread.isAlive());
  }

  /**
   * Whether a copy of the database file, without its log, holds the blob; empty when the copy
   * cannot be read (taken while a checkpoint wrote it).
   */
  private Optional<Boolean> holdsBlobAlone(Path file, Sha256 blob) throws IOException {
    Path copy = Files.createTempDirectory(temp, "alone").resolve("copy.db");
    Files.copy(file, copy);
    try (Connection alone = DriverManager.getConnection("jdbc:sqlite:" + copy);
        Statement statement = alone.createStatement();
        ResultSet count =
            statement.executeQuery(
                "SELECT count(*) FROM blob WHERE sha256 = '" + blob.hex() + "'")) {
      return Optional.of(count.next() && count.getLong(1) == 1);
    } catch (SQLException unreadable) {
      return Optional.empty();
    }
  }

  private static Path wal(Path file) {
    return file.resolveSibling(file.getFileName() + "-wal");
  }

  private static byte[] text(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
