package io.turndiff.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.Sha256;
import io.turndiff.model.TurnKind;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;
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
      assertFalse(unchangedAfter(store, () -> store.write(setting("1000"))));
      assertFalse(
          unchangedAfter(store, () -> store.writeDurably(setting("2000"))),
          "a durable write is one too");
      assertFalse(
          unchangedAfter(store, () -> store.writeInGroup(setting("3000"))), "and a group's");
      // a collection's step: VACUUM and incremental_vacuum run outside any transaction
      assertFalse(
          unchangedAfter(
              store,
              () -> store.outsideTransaction(dsl -> dsl.execute("PRAGMA incremental_vacuum"))),
          "and work outside a transaction");
    }
  }

  @Test
  void theFinishedTurnsLineDiffsAreNoChange() {
    try (Store store = Store.open(temp.resolve("turndiff.db"))) {
      assertTrue(
          unchangedAfter(store, () -> store.writeWithoutFolding(tx -> null)),
          "writeWithoutFolding touches no row a plan reads");
    }
  }

  /**
   * A snapshot call logs its before-state ({@link BeforeLog}); the next read folds the log into the
   * tables a plan reads, in a write of its own. Taken between the two, the mark must say changed:
   * the plan's read saw the turn's before-states only once that fold had run.
   */
  @Test
  void theFoldOfTheBeforeLogByAReadIsAChange() {
    try (Store store = Store.open(temp.resolve("turndiff.db"))) {
      long turn =
          store.write(
              tx -> {
                StoredWorkspace workspace = tx.workspaces().register("/w", "/w", 1, 2);
                StoredSession session = tx.sessions().create("s", workspace.id());
                return tx.turns().begin("t", session, TurnKind.AGENT).id();
              });
      byte[] content = "before\n".getBytes(StandardCharsets.UTF_8);
      BeforeLog.Entry logged =
          new BeforeLog.Entry(
              turn,
              "call-1",
              Optional.of("Edit"),
              CapturedFiles.TAKEN_AT.toEpochMilli(),
              CapturedFiles.file("a.txt", content),
              Optional.empty(),
              Optional.of(BlobEncoder.encode(Sha256.of(content), content)));
      store.writeInGroup(
          tx -> {
            tx.beforeLog().append(logged);
            return null;
          });
      Store.ChangeMark mark = store.changeMark().orElseThrow();
      assertEquals(1, store.read(tx -> tx.fileChanges().ofTurn(turn)).size(), "folded by the read");
      assertFalse(unchanged(store, mark), "the read's fold is a write");
      boolean emptied = store.read(tx -> tx.beforeLog().isEmpty());
      assertTrue(emptied, "and emptied the log");
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

  /** Whether the store is unchanged since a mark taken just before {@code write}. */
  private static boolean unchangedAfter(Store store, Runnable write) {
    Store.ChangeMark mark = store.changeMark().orElseThrow();
    write.run();
    return unchanged(store, mark);
  }

  private static void put(Store store, String value) {
    store.write(setting(value));
  }

  private static Function<StoreTransaction, Void> setting(String value) {
    return tx -> {
      tx.settings().put("max_size", value);
      return null;
    };
  }
}
