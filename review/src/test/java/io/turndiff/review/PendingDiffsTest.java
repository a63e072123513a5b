package io.turndiff.review;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.capture.CaptureService;
import io.turndiff.capture.record.ChangeRecorder;
import io.turndiff.capture.workspace.WorkspaceHandles;
import io.turndiff.diff.FilePatch;
import io.turndiff.fixtures.RecordedChanges;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.PathInput;
import io.turndiff.model.Sha256;
import io.turndiff.model.TestHook;
import io.turndiff.store.Store;
import io.turndiff.store.StoredFileChange;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The line diffs a finish leaves pending: what a query answers before the background computed them
 * is exactly what the finish computed synchronously before diffs were deferred ({@link
 * ChangeRecorder#complete}, which rewinds still use), and exactly what the background then stores;
 * a query racing the background gets the same; a store left with pending diffs gets them computed
 * when a service catches up. SQLite and (the postgres run) PostgreSQL.
 */
class PendingDiffsTest {

  private static final long LIVENESS_SECONDS = 60;

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Store store;
  private WorkspaceHandles handles;
  private CaptureService capture;
  private ReviewQueries queries;
  private String turn;
  private long turnRow;

  /** What the finish computed before diffs were deferred, per path. */
  private final Map<String, FilePatch> synchronous = new LinkedHashMap<>();

  private final ExecutorService threads = Executors.newCachedThreadPool();

  private static final List<String> PATHS =
      List.of("edited.txt", "created.txt", "deleted.txt", "image.bin", "same.txt");

  @BeforeEach
  void aFinishedTurnWithItsDiffsPending() throws Exception {
    StringBuilder many = new StringBuilder();
    for (int i = 0; i < 200; i++) {
      many.append("line ").append(i).append('\n');
    }
    workspace =
        TestWorkspace.in(temp)
            .file("edited.txt", many.toString())
            .file("deleted.txt", "gone\nsoon\n")
            .file("image.bin", new byte[] {0, 1, 2, 3})
            .file("same.txt", "same\n");
    store = TestStore.freshIn(temp);
    handles = new WorkspaceHandles(store, BoundaryOptions.defaults());
    capture = new CaptureService(store, handles);
    queries = new ReviewQueries(store, new PendingDiffs());
    turn = capture.beginTurn(workspace.root(), Optional.of("s"), Optional.empty()).turn();
    capture.snapshot(turn, Optional.empty(), PATHS);
    Files.writeString(
        workspace.resolve("edited.txt"),
        many.toString().replace("line 7\n", "line seven\n").replace("line 150\n", "") + "end\n");
    Files.writeString(workspace.resolve("created.txt"), "new\nfile\n");
    Files.delete(workspace.resolve("deleted.txt"));
    workspace.file("image.bin", new byte[] {0, 1, 2, 4});
    capture.finishTurn(turn);
    turnRow = RecordedChanges.turn(store, turn).id();
    // the old finish: the same stored before-states, the after-states as the workspace holds them
    List<StoredFileChange> changes = RecordedChanges.of(store, turn);
    Map<Sha256, byte[]> before =
        store.read(
            tx -> tx.blobs().contentsOf(changes.stream().map(StoredFileChange::before).toList()));
    ChangeRecorder recorder = new ChangeRecorder();
    try (WorkspaceHandles.Lease lease =
        handles.borrow(RecordedChanges.turn(store, turn).workspaceId())) {
      for (StoredFileChange change : changes) {
        synchronous.put(
            change.path().display(),
            recorder
                .complete(change, lease.boundary().observeExact(change.path()), before)
                .patch());
      }
    }
  }

  @AfterEach
  void close() {
    threads.shutdownNow();
    capture.close();
    handles.close();
    workspace.assertOutsideUnchanged();
    workspace.canary().assertNotInStore(store);
    store.close();
  }

  private Map<String, StoredFileChange> records() {
    Map<String, StoredFileChange> byPath = new LinkedHashMap<>();
    queries.records(turn).changes().forEach(change -> byPath.put(change.path().display(), change));
    return byPath;
  }

  /** Every answer the queries give about the turn's diffs equals the synchronous finish's. */
  private void assertQueriesGiveTheSynchronousDiffs() {
    Map<String, StoredFileChange> records = records();
    long added = 0;
    long removed = 0;
    for (String path : PATHS) {
      FilePatch expected = synchronous.get(path);
      StoredFileChange record = records.get(path);
      assertFalse(record.diffPending(), path);
      assertEquals(expected.added(), record.linesAdded(), path);
      assertEquals(expected.removed(), record.linesRemoved(), path);
      assertEquals(PendingDiffs.hashOf(expected), record.diff(), path);
      assertEquals(expected.text(), queries.fileDiff(turn, PathInput.text(path)), path);
      added += expected.added();
      removed += expected.removed();
    }
    var listing = queries.turns("s", 0, 10).turns().getFirst().listing();
    assertEquals(added, listing.linesAdded());
    assertEquals(removed, listing.linesRemoved());
    var history = queries.log(workspace.root(), PathInput.text("edited.txt")).getFirst().change();
    assertEquals(synchronous.get("edited.txt").added(), history.linesAdded());
  }

  private List<StoredFileChange> pendingRows() {
    return store.read(tx -> tx.fileChanges().diffPendingOfTurn(turnRow));
  }

  @Test
  void beforeTheBackgroundRanEveryQueryComputesTheSynchronousDiffOnTheSpot() {
    assertEquals(4, pendingRows().size(), "every path but the unchanged one");
    assertTrue(synchronous.get("edited.txt").added() > 0);
    assertQueriesGiveTheSynchronousDiffs();
    assertEquals(4, pendingRows().size(), "a query stores nothing");
  }

  @Test
  void theBackgroundStoresExactlyTheSynchronousDiffs() {
    try (BackgroundDiffs background =
        new BackgroundDiffs(store, new PendingDiffs(), TestHook.NONE)) {
      assertEquals(4, background.computeNow(turnRow));
      assertEquals(0, background.computeNow(turnRow), "nothing is left pending");
    }
    assertTrue(pendingRows().isEmpty());
    for (StoredFileChange change : RecordedChanges.of(store, turn)) {
      FilePatch expected = synchronous.get(change.path().display());
      assertEquals(expected.added(), change.linesAdded());
      assertEquals(expected.removed(), change.linesRemoved());
      assertEquals(
          expected.text(),
          change
              .diff()
              .map(
                  sha ->
                      new String(store.read(tx -> tx.blobs().require(sha)), StandardCharsets.UTF_8))
              .orElse(""));
    }
    assertQueriesGiveTheSynchronousDiffs();
  }

  /**
   * The background's reads and its write are of the finished turn alone: they leave the next turn's
   * logged snapshot calls in the before log for that turn's finish to fold together, instead of
   * folding them a few at a time while the calls wait for the store's lock (issue 23 item 4).
   */
  @Test
  void theBackgroundLeavesTheNextTurnsLoggedCallsInTheLogForItsFinish() throws Exception {
    String next = capture.beginTurn(workspace.root(), Optional.of("s"), Optional.empty()).turn();
    capture.snapshot(next, Optional.of("next-call"), List.of("same.txt", "created.txt"));
    assertEquals(2, loggedRows(), "the next turn's call only appended");

    try (BackgroundDiffs background =
        new BackgroundDiffs(store, new PendingDiffs(), TestHook.NONE)) {
      assertEquals(4, background.computeNow(turnRow));
    }
    assertEquals(2, loggedRows(), "the background folded none of the next turn's rows");
    assertTrue(pendingRows().isEmpty(), "and stored every diff of its own turn");

    Files.writeString(workspace.resolve("same.txt"), "changed\n");
    capture.finishTurn(next);
    assertEquals(0, loggedRows(), "the next turn's finish folded them");
    Map<String, StoredFileChange> nextChanges = new LinkedHashMap<>();
    RecordedChanges.of(store, next)
        .forEach(change -> nextChanges.put(change.path().display(), change));
    assertEquals(Set.of("same.txt", "created.txt"), nextChanges.keySet());
    assertEquals(
        Optional.of(Sha256.of("same\n".getBytes(StandardCharsets.UTF_8))),
        nextChanges.get("same.txt").before().storedContent(),
        "the logged before-state is the one recorded");
    assertQueriesGiveTheSynchronousDiffs();
  }

  /** The before log's rows, counted on the store's own connection (no fold). */
  private long loggedRows() {
    return Long.parseLong(StoreRows.text(store, "SELECT count(*) FROM before_log"));
  }

  @Test
  void aStoreReopenedWithDiffsPendingGetsThemComputedWhenTheServiceCatchesUp() {
    Store reopened = TestStore.reopen(store);
    try (BackgroundDiffs background =
        new BackgroundDiffs(reopened, new PendingDiffs(), TestHook.NONE)) {
      background.catchUp();
    } finally {
      reopened.close();
    }
    assertTrue(pendingRows().isEmpty());
    assertQueriesGiveTheSynchronousDiffs();
  }

  @Test
  void queriesRacingTheBackgroundGetTheSameDiffs() throws Exception {
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Integer>> racers = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      racers.add(
          threads.submit(
              () -> {
                start.await();
                int rounds = 0;
                // until the background's commit, and once after it
                boolean pendingBefore;
                do {
                  pendingBefore = !pendingRows().isEmpty();
                  assertQueriesGiveTheSynchronousDiffs();
                  rounds++;
                } while (pendingBefore);
                return rounds;
              }));
    }
    try (BackgroundDiffs background =
        new BackgroundDiffs(store, new PendingDiffs(), TestHook.NONE)) {
      start.countDown();
      background.computeNow(turnRow);
    }
    for (Future<Integer> racer : racers) {
      assertTrue(racer.get(LIVENESS_SECONDS, TimeUnit.SECONDS) >= 1);
    }
    assertTrue(pendingRows().isEmpty());
    assertQueriesGiveTheSynchronousDiffs();
  }
}
