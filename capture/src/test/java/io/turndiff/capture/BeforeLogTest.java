package io.turndiff.capture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.fixtures.RecordedChanges;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.Sha256;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.DeltaBase;
import io.turndiff.store.Store;
import io.turndiff.store.StoredCallBefore;
import io.turndiff.store.StoredFileChange;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot call appends its before-states to the before log and nothing else; the next other
 * transaction folds them into the turn's records (issue 23 item 1): a query during the turn, a
 * finish, a reader of the store reopened after its process stopped. The rows are counted on the
 * store's own files (a plain connection: no fold), so each test shows where the state is.
 */
class BeforeLogTest {

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Store store;
  private CaptureService capture;

  @BeforeEach
  void open() {
    workspace = TestWorkspace.in(temp);
    store = TestStore.freshIn(temp);
    capture = new CaptureService(store, BoundaryOptions.defaults());
  }

  @AfterEach
  void canary() {
    capture.close();
    workspace.assertOutsideUnchanged();
    workspace.canary().assertNotInStore(store);
    store.close();
    store.localFile().ifPresent(workspace.canary()::assertNotInStoreFiles);
  }

  private long rows(String table) {
    return Long.parseLong(StoreRows.text(store, "SELECT count(*) FROM " + table));
  }

  private String beginTurn() {
    return capture.beginTurn(workspace.root(), Optional.of("session-1"), Optional.empty()).turn();
  }

  private StoredFileChange change(String turn, String path) {
    return RecordedChanges.of(store, turn).stream()
        .filter(change -> change.path().equals(WorkspacePath.of(path)))
        .findFirst()
        .orElseThrow(() -> new AssertionError(path + " is not recorded in " + turn));
  }

  private static Sha256 sha(String text) {
    return Sha256.of(text.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Two agents' turns in one workspace: the first call of a turn begun after the other's calls were
   * logged appends and folds nothing. It asked the store whether its turn was open, and a read that
   * finds the log not empty folds it first: every before-state the other turn had logged, inside
   * that one call (docs/performance.md, "The snapshot call's benchmark without a fold inside a
   * call"). A turn is seen open once its begin commits; the call's transaction checks it again.
   */
  @Test
  void theFirstCallOfATurnFoldsNoOtherTurnsLoggedCalls() {
    workspace.file("a.txt", "a\n").file("b.txt", "b\n");
    String first = beginTurn();
    String second =
        capture.beginTurn(workspace.root(), Optional.of("session-2"), Optional.empty()).turn();
    capture.snapshot(first, Optional.of("one"), List.of("a.txt"));
    long changes = rows("file_change");

    capture.snapshot(second, Optional.of("two"), List.of("b.txt"));

    assertEquals(2, rows("before_log"), "both calls logged, none folded");
    assertEquals(changes, rows("file_change"));
    assertEquals(ChangeKind.MODIFIED, kindAfterEdit(first, "a.txt"));
    assertEquals(ChangeKind.MODIFIED, kindAfterEdit(second, "b.txt"));
  }

  /** The kind of {@code path}'s change in {@code turn} once it is edited and the turn finishes. */
  private ChangeKind kindAfterEdit(String turn, String path) {
    workspace.file(path, "edited\n");
    capture.finishTurn(turn);
    return change(turn, path).change().orElseThrow();
  }

  /**
   * A capture that has seen neither the turn nor its workspace, as in a one-shot command's process,
   * reads both before its first call appends: without folding (a fold writes neither), so the calls
   * logged before it stay logged for the finish.
   */
  @Test
  void aCaptureNewToTheTurnAppendsItsFirstCallWithoutFoldingTheOnesBefore() {
    workspace.file("a.txt", "a\n").file("b.txt", "b\n");
    String turn = beginTurn();
    capture.snapshot(turn, Optional.of("one"), List.of("a.txt"));

    try (CaptureService another = new CaptureService(store, BoundaryOptions.defaults())) {
      another.snapshot(turn, Optional.of("two"), List.of("b.txt"));
    }

    assertEquals(2, rows("before_log"), "the second capture's first call only appended");
    assertEquals(0, rows("tool_call"));
    assertEquals(ChangeKind.MODIFIED, kindAfterEdit(turn, "b.txt"));
    assertEquals(List.of("one"), change(turn, "a.txt").toolCalls(), "the first call's, folded");
  }

  @Test
  void twoCallsOfOnePathAppendTwoRowsAndTheQueryThatFoldsThemKeepsTheFirstState() {
    workspace.file("a.txt", "first\n");
    String turn = beginTurn();
    long changesBefore = rows("file_change");
    long blobsBefore = rows("blob");

    List<SnapshotVerdict> first = capture.snapshot(turn, Optional.of("one"), List.of("a.txt"));
    workspace.file("a.txt", "second\n");
    List<SnapshotVerdict> second = capture.snapshot(turn, Optional.of("two"), List.of("a.txt"));

    assertTrue(first.getFirst().recorded(), "the first call records the path");
    assertFalse(second.getFirst().recorded(), "the second finds the first one's row in the log");
    assertEquals(2, rows("before_log"), "both calls only appended");
    assertEquals(changesBefore, rows("file_change"), "no file change yet");
    assertEquals(blobsBefore, rows("blob"), "no content stored in the blob table yet");
    assertEquals(0, rows("tool_call"), "no tool call row yet");

    // a query during the turn (what the panel and the CLI ask) folds the log first
    StoredFileChange change = change(turn, "a.txt");
    assertEquals(0, rows("before_log"), "the query's fold emptied the log");
    assertEquals(Optional.of(sha("first\n")), change.before().storedContent(), "the first wins");
    assertEquals(List.of("one", "two"), change.toolCalls());
    Map<Long, List<StoredCallBefore>> calls =
        store.read(tx -> tx.fileChanges().callsBefore(List.of(change.id())));
    assertEquals(
        Optional.of(sha("second\n")),
        calls.get(change.id()).getLast().before().flatMap(s -> s.storedContent()),
        "the second call's own state is kept on its link (issue 24)");
    assertArrayEquals(
        "first\n".getBytes(StandardCharsets.UTF_8),
        store.read(tx -> tx.blobs().require(sha("first\n"))));

    // a third call after the fold finds the folded change
    assertFalse(
        capture.snapshot(turn, Optional.of("three"), List.of("a.txt")).getFirst().recorded());
  }

  @Test
  void aCallOfManyPathsAppendsEachOnceInOneCommitAndEveryPathTheTurnHeldKeepsItsFirstState() {
    List<String> paths = new ArrayList<>();
    for (int i = 0; i < 150; i++) {
      workspace.file("src/f" + i + ".txt", "f" + i + " before\n");
      paths.add("src/f" + i + ".txt");
    }
    workspace.file("same-a.txt", "same\n").file("same-b.txt", "same\n");
    paths.add("same-a.txt");
    paths.add("same-b.txt");
    paths.add("src/f5.txt"); // named twice in the call
    String turn = beginTurn();
    capture.snapshot(turn, Optional.of("one"), List.of("src/f0.txt"));
    change(turn, "src/f0.txt"); // folded by the query
    capture.snapshot(turn, Optional.of("two"), List.of("src/f1.txt")); // left in the log
    workspace.file("src/f0.txt", "f0 later\n").file("src/f1.txt", "f1 later\n");
    long blobs = rows("blob");

    List<SnapshotVerdict> verdicts = capture.snapshot(turn, Optional.of("many"), paths);

    assertEquals(paths.size(), verdicts.size());
    List<String> notFirst =
        verdicts.stream()
            .filter(verdict -> !verdict.recorded())
            .map(verdict -> verdict.snapshot().path().toString())
            .toList();
    assertEquals(
        List.of("src/f0.txt", "src/f1.txt", "src/f5.txt"),
        notFirst,
        "a folded path, a logged one and the one named twice are not the turn's first");
    assertEquals(1 + paths.size(), rows("before_log"), "one row a path named, nothing folded");
    assertEquals(
        151,
        rows("before_log WHERE tool_call = 'many' AND content_data IS NOT NULL"),
        "each content new to the store logged once");
    assertEquals(blobs, rows("blob"));

    capture.close();
    store.close();
    store = TestStore.reopen(store);
    capture = new CaptureService(store, BoundaryOptions.defaults());
    List<StoredFileChange> changes = RecordedChanges.of(store, turn);
    assertEquals(152, changes.size(), "every path once");
    assertEquals(0, rows("before_log"));
    assertEquals(
        Optional.of(sha("f0 before\n")), change(turn, "src/f0.txt").before().storedContent());
    assertEquals(
        Optional.of(sha("f1 before\n")), change(turn, "src/f1.txt").before().storedContent());
    assertEquals(List.of("two", "many"), change(turn, "src/f1.txt").toolCalls());
    assertEquals(List.of("many"), change(turn, "src/f149.txt").toolCalls());
    assertArrayEquals(
        "same\n".getBytes(StandardCharsets.UTF_8),
        store.read(tx -> tx.blobs().require(sha("same\n"))));
    assertArrayEquals(
        "f149 before\n".getBytes(StandardCharsets.UTF_8),
        store.read(tx -> tx.blobs().require(sha("f149 before\n"))));
  }

  @Test
  void aFinishFoldsTheLogInItsOwnTransaction() throws Exception {
    workspace.file("a.txt", "a before\n").file("b.txt", "b before\n");
    String turn = beginTurn();
    capture.snapshot(turn, Optional.of("one"), List.of("a.txt", "b.txt", "new.txt"));
    assertEquals(3, rows("before_log"));
    workspace.file("a.txt", "a after\n").file("new.txt", "new\n");
    Files.delete(workspace.resolve("b.txt"));

    capture.finishTurn(turn);

    assertEquals(0, rows("before_log"));
    assertEquals(
        Map.of(
            "a.txt", "modified snapshot [one]",
            "b.txt", "deleted snapshot [one]",
            "new.txt", "added snapshot [one]"),
        RecordedChanges.summary(store, turn));
    assertEquals(ChangeKind.MODIFIED, change(turn, "a.txt").change().orElseThrow());
  }

  /**
   * A call of one path asks the store in one query whether the turn holds the path and whether the
   * store holds its content ({@code BeforeLog.sightOf}): a content the store holds is referred to,
   * not logged again, and a path of another turn is this turn's first.
   */
  @Test
  void aCallOfOnePathWhoseContentTheStoreHoldsLogsOnlyItsHash() {
    String text = "the same bytes in two files\n";
    workspace.file("held.txt", text);
    String earlier = beginTurn();
    capture.snapshot(earlier, Optional.of("one"), List.of("held.txt"));
    capture.finishTurn(earlier); // the content is in the blob table now
    workspace.file("copy.txt", text);
    workspace.file("held.txt", "changed\n");
    String turn = beginTurn();

    SnapshotVerdict copy =
        capture.snapshot(turn, Optional.of("two"), List.of("copy.txt")).getFirst();
    SnapshotVerdict held =
        capture.snapshot(turn, Optional.of("three"), List.of("held.txt")).getFirst();

    assertTrue(copy.recorded(), "the turn's first state of copy.txt");
    assertTrue(held.recorded(), "held.txt was the earlier turn's: this turn's first state");
    assertEquals(2, rows("before_log"));
    assertEquals(
        1,
        rows("before_log WHERE tool_call = 'two' AND content_data IS NULL"),
        "the content the store holds is not logged again");
    assertEquals(
        1,
        rows("before_log WHERE tool_call = 'three' AND content_data IS NOT NULL"),
        "a content new to the store is");
    assertEquals(Optional.of(sha(text)), change(turn, "copy.txt").before().storedContent());
  }

  /**
   * The call does not wait for zstd (issue 23 item 4): it logs the content it read as it is, and
   * the fold (here the next reader of the store reopened, as after a killed process) stores it
   * compressed, the same bytes back.
   */
  @Test
  void aCallLogsItsNewContentRawAndTheFoldStoresItCompressed() {
    String text = "a line the store compresses well\n".repeat(200);
    workspace.file("a.txt", text);
    String turn = beginTurn();
    capture.snapshot(turn, Optional.of("one"), List.of("a.txt"));
    capture.close();
    store.close();
    assertEquals("raw", StoreRows.text(store, "SELECT content_encoding FROM before_log"));
    assertEquals(
        text.length(),
        Long.parseLong(StoreRows.text(store, "SELECT length(content_data) FROM before_log")),
        "the log holds the bytes the call read");

    store = TestStore.reopen(store);
    capture = new CaptureService(store, BoundaryOptions.defaults());
    assertEquals(Optional.of(sha(text)), change(turn, "a.txt").before().storedContent());
    assertEquals(0, rows("before_log"));
    String blob = "FROM blob WHERE size = " + text.length();
    assertEquals("zstd", StoreRows.text(store, "SELECT encoding " + blob));
    assertTrue(
        Long.parseLong(StoreRows.text(store, "SELECT length(data) " + blob)) < text.length() / 4,
        "stored compressed");
    assertArrayEquals(
        text.getBytes(StandardCharsets.UTF_8), store.read(tx -> tx.blobs().require(sha(text))));
  }

  @Test
  void beforeStatesLeftInTheLogWhenItsProcessStoppedAreFoldedByTheNextReaderOfTheStore() {
    workspace.file("a.txt", "a before\n");
    String turn = beginTurn();
    capture.snapshot(turn, Optional.of("one"), List.of("a.txt"));
    capture.close();
    store.close();
    // what is on disk: the call's row in the log, nothing in the turn's records
    assertEquals(1, rows("before_log"));
    assertEquals(0, rows("file_change"));

    store = TestStore.reopen(store);
    capture = new CaptureService(store, BoundaryOptions.defaults());
    StoredFileChange change = change(turn, "a.txt");
    assertEquals(Optional.of(sha("a before\n")), change.before().storedContent());
    assertEquals(0, rows("before_log"));
    workspace.file("a.txt", "a after\n");
    capture.finishTurn(turn);
    assertEquals(Map.of("a.txt", "modified snapshot [one]"), RecordedChanges.summary(store, turn));
  }

  private static String lines(String tag, int count) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < count; i++) {
      text.append(tag).append(" line ").append(i).append(" of a file the turn edits\n");
    }
    return text.toString();
  }

  private String blob(Sha256 sha256, String columns) {
    return StoreRows.text(
        store, "SELECT " + columns + " FROM blob WHERE sha256 = '" + sha256.hex() + "'");
  }

  @Test
  void theFoldHandsTheContentsItStoredToItsCallerAsTheCallsReadThemAndNoOther() {
    String held = lines("held", 50);
    workspace.file("held.txt", held);
    String first = beginTurn();
    capture.snapshot(first, Optional.of("one"), List.of("held.txt"));
    capture.finishTurn(first); // held.txt's content is in the blob table now
    String fresh = lines("fresh", 50);
    workspace.file("a.txt", fresh);
    String turn = beginTurn();
    capture.snapshot(turn, Optional.of("two"), List.of("a.txt", "held.txt"));

    Map<Sha256, DeltaBase> folded = store.fold();

    assertEquals(0, rows("before_log"), "the fold emptied the log");
    assertEquals(
        Set.of(sha(fresh)),
        folded.keySet(),
        "only the content the fold stored; the one the store held keeps the store's depth");
    assertArrayEquals(
        fresh.getBytes(StandardCharsets.UTF_8),
        folded.get(sha(fresh)).content(),
        "the bytes the call read");
    assertEquals(OptionalLong.of(0), folded.get(sha(fresh)).storedDepth());
    assertEquals(
        "zstd|0|",
        blob(sha(fresh), "encoding || '|' || depth || '|' || coalesce(base_sha256, '')"));
    assertEquals(Map.of(), store.fold(), "nothing left to fold");
  }

  @Test
  void aFinishStoresItsAfterStatesAsDeltasOfTheBeforeStatesItsFoldStored() {
    String before = lines("a", 200);
    String after = before + "one line added\n";
    workspace.file("a.txt", before);
    String turn = beginTurn();
    capture.snapshot(turn, Optional.of("one"), List.of("a.txt"));
    assertEquals(1, rows("before_log"));
    workspace.file("a.txt", after);

    capture.finishTurn(turn); // folds the row, then compresses the after-state against it

    assertEquals(0, rows("before_log"));
    assertEquals(
        "zstd|0|",
        blob(sha(before), "encoding || '|' || depth || '|' || coalesce(base_sha256, '')"));
    assertEquals(
        "delta|1|" + sha(before).hex(),
        blob(sha(after), "encoding || '|' || depth || '|' || coalesce(base_sha256, '')"),
        "the after-state is a delta of the before-state, one deep");
    assertArrayEquals(
        after.getBytes(StandardCharsets.UTF_8), store.read(tx -> tx.blobs().require(sha(after))));

    // the next turn's before-state is that delta, held already: read from the store, two deep
    String later = after + "another line\n";
    String next = beginTurn();
    capture.snapshot(next, Optional.of("two"), List.of("a.txt"));
    workspace.file("a.txt", later);
    capture.finishTurn(next);
    assertEquals(
        "delta|2|" + sha(after).hex(),
        blob(sha(later), "encoding || '|' || depth || '|' || coalesce(base_sha256, '')"));
    assertArrayEquals(
        later.getBytes(StandardCharsets.UTF_8), store.read(tx -> tx.blobs().require(sha(later))));
  }
}
