package io.turndiff.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.fixtures.RecordedChanges;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestStore;
import io.turndiff.model.RequestException;
import io.turndiff.model.TestHook;
import io.turndiff.store.GarbageCollector;
import io.turndiff.store.RetentionPolicy;
import io.turndiff.store.Store;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A turn this service saw open that another process (another service over the same store) finished,
 * or finished and collected, meanwhile: a request naming it is refused by what the store holds now,
 * never by what this service remembers, and never recorded into another turn.
 */
class TurnEndedElsewhereTest {

  /** Every finished turn goes, the newest too: no store is small enough. */
  private static final RetentionPolicy COLLECT_EVERYTHING =
      new RetentionPolicy(Optional.empty(), OptionalInt.of(0), OptionalLong.of(0), Duration.ZERO);

  @TempDir Path temp;

  private WorkspaceCapture here;
  private Store otherStore;
  private CaptureService elsewhere;

  @BeforeEach
  void open() {
    here = WorkspaceCapture.open(temp, false);
    otherStore = TestStore.reopen(here.store);
    elsewhere = new CaptureService(otherStore, BoundaryOptions.defaults());
    here.workspace.file("a.txt", "a\n");
  }

  @AfterEach
  void close() {
    elsewhere.close();
    otherStore.close();
    here.close();
  }

  private String beginHere(String turn) {
    return here.capture
        .beginTurn(here.workspace.root(), Optional.of("s"), Optional.of(turn))
        .turn();
  }

  @Test
  void aCallOnATurnFinishedElsewhereIsRefusedAsNotOpen() {
    String turn = beginHere("t1");
    here.capture.snapshot(turn, Optional.empty(), List.of("a.txt"));
    elsewhere.finishTurn(turn);

    RequestException refused =
        assertThrows(
            RequestException.class,
            () -> here.capture.snapshot(turn, Optional.empty(), List.of("b.txt")));
    assertEquals(RequestException.Problem.WRONG_STATE, refused.problem(), refused.getMessage());
    RequestException finished =
        assertThrows(RequestException.class, () -> here.capture.finishTurn(turn));
    assertEquals(RequestException.Problem.WRONG_STATE, finished.problem(), finished.getMessage());
    assertEquals(1, RecordedChanges.of(here.store, turn).size(), "a.txt only");
  }

  /**
   * A hook's generated turn ids count a session's turns, so once a session's turns are collected
   * the next turn may take an id again (here another turn was begun before it, so it is another
   * row). A request naming that id is served on the turn the store holds under it now, not refused
   * for the one this service saw; before, the call was refused as unknown, its before-state lost.
   */
  @Test
  void aTurnCollectedAndBegunAgainUnderItsIdElsewhereIsServedAsTheNewTurn() {
    String turn = beginHere("s:1");
    long firstId = RecordedChanges.turn(here.store, turn).id();
    elsewhere.finishTurn(turn);
    new GarbageCollector(otherStore, TestHook.NONE).collect(COLLECT_EVERYTHING, false);
    elsewhere.beginTurn(here.workspace.root(), Optional.of("r"), Optional.of("r:1"));
    elsewhere.beginTurn(here.workspace.root(), Optional.of("s"), Optional.of(turn));
    assertNotEquals(firstId, RecordedChanges.turn(otherStore, turn).id(), "another row");
    here.workspace.file("b.txt", "b\n");

    here.capture.snapshot(turn, Optional.empty(), List.of("b.txt"));
    here.workspace.file("b.txt", "changed\n");
    TurnSummary summary = here.capture.finishTurn(turn);

    assertEquals(1, summary.files());
    assertEquals(
        List.of("b.txt"),
        RecordedChanges.of(here.store, turn).stream()
            .map(change -> change.path().toString())
            .toList());
  }

  /**
   * The turn finished and collected elsewhere, and a new turn begun there: on SQLite the new turn
   * takes the collected one's id (its largest rowid is free again). A call naming the old turn is
   * refused as unknown, and the new turn records nothing of it. Before, the state was read by the
   * remembered id alone: the call found the new turn open and recorded b.txt into it; and with no
   * new turn, the missing row failed as a NoSuchElementException instead of a refusal.
   */
  @Test
  void aCallOnATurnCollectedElsewhereIsRefusedAsUnknownAndRecordsIntoNoOtherTurn() {
    String old = beginHere("old");
    elsewhere.finishTurn(old);
    new GarbageCollector(otherStore, TestHook.NONE).collect(COLLECT_EVERYTHING, false);
    assertEquals(0L, StoreRows.count(otherStore).get("turn"), "collected");

    RequestException gone =
        assertThrows(
            RequestException.class,
            () -> here.capture.snapshot(old, Optional.empty(), List.of("b.txt")));
    assertEquals(RequestException.Problem.UNKNOWN_TURN, gone.problem(), gone.getMessage());

    beginHere("old-again"); // remembered again, then collected again
    long againId = RecordedChanges.turn(here.store, "old-again").id();
    elsewhere.finishTurn("old-again");
    new GarbageCollector(otherStore, TestHook.NONE).collect(COLLECT_EVERYTHING, false);
    String fresh =
        elsewhere.beginTurn(here.workspace.root(), Optional.of("s2"), Optional.of("fresh")).turn();
    if (!TestStore.onPostgres()) {
      assertEquals(
          againId, RecordedChanges.turn(otherStore, fresh).id(), "SQLite gave its id again");
    }

    RequestException unknown =
        assertThrows(
            RequestException.class,
            () -> here.capture.snapshot("old-again", Optional.empty(), List.of("b.txt")));
    assertEquals(RequestException.Problem.UNKNOWN_TURN, unknown.problem(), unknown.getMessage());
    elsewhere.snapshot(fresh, Optional.empty(), List.of("a.txt"));
    assertEquals(
        List.of("a.txt"),
        RecordedChanges.of(otherStore, fresh).stream()
            .map(change -> change.path().toString())
            .toList(),
        "the fresh turn's own call only");
  }

  /**
   * On SQLite the turn begun again under the id takes the collected one's row id too: only its
   * start tells it from the turn this service saw. Its call records the directories above its path
   * itself, rather than taking them as recorded by the turn seen before (which would leave the new
   * turn with no before-state of d, so that a rewind could not put d back).
   */
  @Test
  void aTurnBegunAgainUnderItsIdAndRowIdElsewhereRecordsItsOwnDirectories() {
    assumeFalse(TestStore.onPostgres(), "PostgreSQL never gives a row id again");
    here.workspace.file("d/a.txt", "a\n");
    here.workspace.file("d/b.txt", "b\n");
    String turn = beginHere("s:1");
    long firstId = RecordedChanges.turn(here.store, turn).id();
    here.capture.snapshot(turn, Optional.empty(), List.of("d/a.txt"));
    elsewhere.finishTurn(turn);
    new GarbageCollector(otherStore, TestHook.NONE).collect(COLLECT_EVERYTHING, false);
    elsewhere.beginTurn(here.workspace.root(), Optional.of("s"), Optional.of(turn));
    assertEquals(firstId, RecordedChanges.turn(otherStore, turn).id(), "the same row id");

    here.capture.snapshot(turn, Optional.empty(), List.of("d/b.txt"));

    List<String> directories =
        otherStore.read(tx -> tx.directoryChanges().ofTurn(firstId)).stream()
            .map(change -> change.path().toString())
            .toList();
    assertTrue(directories.contains("d"), "the new turn's own record of d: " + directories);
  }
}
