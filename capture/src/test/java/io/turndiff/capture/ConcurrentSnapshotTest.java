package io.turndiff.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.fixtures.RecordedChanges;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.RequestException;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.Store;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshot calls from many threads at once (the HTTP service's requests, hook endpoints), which
 * share commits ({@link Store#writeInGroup}): each call returns only once its before-state is
 * committed — a store opened afresh on the same database, as another process, reads it — and a call
 * that fails inside the shared transaction fails alone.
 */
class ConcurrentSnapshotTest {

  private static final long LIVENESS_SECONDS = 60;
  private static final int CALLS = 8;

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Store store;
  private CaptureService capture;
  private final ExecutorService threads = Executors.newFixedThreadPool(CALLS);

  @BeforeEach
  void open() {
    workspace = TestWorkspace.in(temp);
    for (int i = 0; i < CALLS; i++) {
      workspace.file("f" + i + ".txt", "file " + i + "\n");
    }
    store = TestStore.freshIn(temp);
    capture = new CaptureService(store, BoundaryOptions.defaults());
  }

  @AfterEach
  void close() {
    threads.shutdownNow();
    capture.close();
    workspace.assertOutsideUnchanged();
    workspace.canary().assertNotInStore(store);
    store.close();
  }

  /** Whether a store opened afresh on the same database has the turn's record of {@code path}. */
  private boolean committed(long turnRow, String path) {
    try (Store fresh = TestStore.reopen(store)) {
      return fresh.read(tx -> tx.fileChanges().idOf(turnRow, WorkspacePath.of(path))).isPresent();
    }
  }

  private String begin(String session) {
    return capture.beginTurn(workspace.root(), Optional.of(session), Optional.empty()).turn();
  }

  @Test
  void concurrentCallsEachReturnOnlyOnceTheirBeforeStateIsCommitted() throws Exception {
    String turn = begin("s1");
    long turnRow = RecordedChanges.turn(store, turn).id();
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Boolean>> calls = new ArrayList<>();
    for (int i = 0; i < CALLS; i++) {
      String path = "f" + i + ".txt";
      String call = "call-" + i;
      calls.add(
          threads.submit(
              () -> {
                start.await();
                List<SnapshotVerdict> verdicts =
                    capture.snapshot(turn, Optional.of(call), List.of(path));
                assertEquals(1, verdicts.size());
                return committed(turnRow, path);
              }));
    }
    start.countDown();
    for (Future<Boolean> call : calls) {
      assertTrue(
          call.get(LIVENESS_SECONDS, TimeUnit.SECONDS),
          "a call returned before its before-state was committed");
    }
    assertEquals(CALLS, RecordedChanges.of(store, turn).size());
  }

  @Test
  void aCallThatFailsInsideTheSharedTransactionFailsAloneAndTheOthersAreCommitted()
      throws Exception {
    String open = begin("s1");
    String finishedElsewhere = begin("s2");
    long openRow = RecordedChanges.turn(store, open).id();
    long finishedRow = RecordedChanges.turn(store, finishedElsewhere).id();
    // this service has seen both turns open; another process finishes the second one
    capture.snapshot(finishedElsewhere, Optional.empty(), List.of("f0.txt"));
    try (Store other = TestStore.reopen(store);
        CaptureService otherProcess = new CaptureService(other, BoundaryOptions.defaults())) {
      otherProcess.finishTurn(finishedElsewhere);
    }
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Boolean>> calls = new ArrayList<>();
    for (int i = 1; i < CALLS; i++) {
      String path = "f" + i + ".txt";
      String turn = i == 3 ? finishedElsewhere : open;
      long row = i == 3 ? finishedRow : openRow;
      calls.add(
          threads.submit(
              () -> {
                start.await();
                capture.snapshot(turn, Optional.empty(), List.of(path));
                return committed(row, path);
              }));
    }
    start.countDown();
    for (int i = 1; i < CALLS; i++) {
      Future<Boolean> call = calls.get(i - 1);
      if (i == 3) {
        ExecutionException failed =
            assertThrows(
                ExecutionException.class, () -> call.get(LIVENESS_SECONDS, TimeUnit.SECONDS));
        RequestException refused = assertInstanceOf(RequestException.class, failed.getCause());
        assertEquals(RequestException.Problem.WRONG_STATE, refused.problem());
      } else {
        assertTrue(call.get(LIVENESS_SECONDS, TimeUnit.SECONDS), "call " + i);
      }
    }
    assertFalse(committed(finishedRow, "f3.txt"), "the refused call recorded nothing");
    assertEquals(CALLS - 2, RecordedChanges.of(store, open).size());
  }
}
