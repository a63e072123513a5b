package io.turndiff.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Store#changeMark()} and {@link Store#unchangedSince} on a real SQLite file opened twice,
 * as two processes open it: a write of this store's (but the finished turns' line diffs) or a
 * commit of the other's since the mark says changed; nothing written, or only line diffs, says
 * unchanged. A rewind uses its dry run's plan in the transaction that stores it only when unchanged
 * ({@code RewindService}).
 */
class ChangeMarkTest {

  @TempDir Path temp;

  @Test
  void nothingWrittenSinceTheMarkIsUnchanged() {
    try (Store store = Store.open(temp.resolve("turndiff.db"))) {
      Store.ChangeMark mark = store.changeMark().orElseThrow();
      store.read(tx -> tx.settings().get("max_size"));
      assertTrue(unchanged(store, mark), "a read writes nothing");
      assertFalse(unchanged(store, mark), "the write that asked is one since the next mark");
    }
  }

  @Test
  void aWriteOfThisStoreSinceTheMarkIsAChange() {
    try (Store store = Store.open(temp.resolve("turndiff.db"))) {
      Store.ChangeMark mark = store.changeMark().orElseThrow();
      put(store, "1000");
      assertFalse(unchanged(store, mark));
      Store.ChangeMark durably = store.changeMark().orElseThrow();
      store.writeDurably(
          tx -> {
            tx.settings().put("max_size", "2000");
            return null;
          });
      assertFalse(unchanged(store, durably), "a durable write is one too");
      Store.ChangeMark grouped = store.changeMark().orElseThrow();
      store.writeInGroup(
          tx -> {
            tx.settings().put("max_size", "3000");
            return null;
          });
      assertFalse(unchanged(store, grouped), "and a group's");
    }
  }

  @Test
  void theFinishedTurnsLineDiffsAreNoChange() {
    try (Store store = Store.open(temp.resolve("turndiff.db"))) {
      Store.ChangeMark mark = store.changeMark().orElseThrow();
      store.writeFinished(tx -> null);
      assertTrue(unchanged(store, mark), "writeFinished touches no row a plan reads");
    }
  }

  @Test
  void anotherProcesssCommitSinceTheMarkIsAChange() {
    Path file = temp.resolve("turndiff.db");
    try (Store store = Store.open(file);
        Store other = Store.open(file)) {
      put(store, "500");
      Store.ChangeMark mark = store.changeMark().orElseThrow();
      put(other, "1000");
      assertFalse(unchanged(store, mark));
      assertEquals("1000", store.read(tx -> tx.settings().get("max_size")).orElseThrow());
    }
  }

  @Test
  void noMarkInsideAWriteAndNoAnswerOutsideOne() {
    try (Store store = Store.open(temp.resolve("turndiff.db"))) {
      assertEquals(
          Optional.empty(),
          store.write(tx -> store.changeMark()),
          "a write in progress may commit after the read the mark is for began");
      Store.ChangeMark mark = store.changeMark().orElseThrow();
      assertThrows(IllegalStateException.class, () -> store.unchangedSince(mark));
    }
  }

  private static boolean unchanged(Store store, Store.ChangeMark mark) {
    return store.write(tx -> store.unchangedSince(mark));
  }

  private static void put(Store store, String value) {
    store.write(
        tx -> {
          tx.settings().put("max_size", value);
          return null;
        });
  }
}
