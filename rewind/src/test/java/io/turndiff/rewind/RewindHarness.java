package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.boundary.Portability;
import io.turndiff.capture.CaptureService;
import io.turndiff.capture.workspace.WorkspaceHandles;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.BoundaryKind;
import io.turndiff.model.TestHook;
import io.turndiff.review.ReviewQueries;
import io.turndiff.store.Store;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A workspace, a store, and the capture and rewind services over them, as a runtime would hold
 * them.
 */
final class RewindHarness implements AutoCloseable {

  final TestWorkspace workspace;
  final Store store;
  final WorkspaceHandles handles;
  final CaptureService capture;
  final RewindService rewind;
  final ReviewQueries queries;
  private final String session;
  private final boolean ownsStore;

  RewindHarness(Path temp) {
    this(temp, BoundaryOptions.defaults());
  }

  /** Over a fresh store of its own, with a boundary of {@code options} (another size limit). */
  RewindHarness(Path temp, BoundaryOptions options) {
    this(TestWorkspace.in(temp), TestStore.freshIn(temp), "session-1", true, options);
  }

  /** Over a store that outlives the harness. */
  RewindHarness(TestWorkspace workspace, Store store, String session) {
    this(workspace, store, session, BoundaryOptions.defaults());
  }

  /**
   * Over a store that outlives the harness, with a boundary of {@code options} (the fallback, say).
   */
  RewindHarness(TestWorkspace workspace, Store store, String session, BoundaryOptions options) {
    this(workspace, store, session, false, options);
  }

  private RewindHarness(
      TestWorkspace workspace,
      Store store,
      String session,
      boolean ownsStore,
      BoundaryOptions options) {
    this.ownsStore = ownsStore;
    this.workspace = workspace;
    this.store = store;
    this.handles = new WorkspaceHandles(store, options);
    this.capture = new CaptureService(store, handles);
    this.rewind = new RewindService(store, handles);
    this.queries = new ReviewQueries(store);
    this.session = session;
  }

  /**
   * Begins a turn, snapshots {@code paths}, runs {@code edit} as the agent's tools would, finishes
   * the turn.
   */
  String turn(List<String> paths, ThrowingRunnable edit) {
    String turn =
        capture.beginTurn(workspace.root(), Optional.of(session), Optional.empty()).turn();
    capture.snapshot(turn, Optional.of("tool-1"), paths);
    try {
      edit.run();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    capture.finishTurn(turn);
    return turn;
  }

  /** Rewinds {@code turn} as the command line does: the report, then the sync after it. */
  RewindReport rewindTurn(String turn) {
    return answered(rewind.rewind(new RewindRequest(turn, false, Optional.empty(), false, false)));
  }

  RewindReport rewindTo(String turn) {
    return answered(rewind.rewind(new RewindRequest(turn, true, Optional.empty(), false, false)));
  }

  RewindReport force(String turn) {
    return answered(rewind.rewind(new RewindRequest(turn, false, Optional.empty(), false, true)));
  }

  /** What the command line does once it has printed a rewind's report: makes it durable. */
  private RewindReport answered(RewindReport report) {
    rewind.makeDurable(report);
    return report;
  }

  /** The id of the workspace {@code turn} was recorded in. */
  long workspaceIdOf(String turn) {
    return store.read(tx -> tx.turns().byExternalId(turn)).orElseThrow().workspaceId();
  }

  RewindReport dryRun(String turn) {
    return rewind.rewind(new RewindRequest(turn, false, Optional.empty(), true, false));
  }

  /**
   * Another harness over this one's workspace, store and session, with a boundary of {@code kind}
   * (the fallback, or the strongest handle the mode allows); the test is skipped where the mode
   * does not hold roots with it (the posix mode: openat only).
   */
  RewindHarness over(BoundaryKind kind) {
    assumeTrue(
        Portability.current().allows(BoundaryOptions.Mechanism.of(kind)),
        "the posix mode holds roots with openat only");
    return new RewindHarness(
        workspace,
        store,
        session,
        BoundaryOptions.builder()
            .forceFallback(kind == BoundaryKind.SECURE_DIRECTORY_STREAM)
            .build());
  }

  /**
   * Runs {@code request} with a service that fails before its {@code failingRename}th rename;
   * returns the operation's id, which was named before the first write.
   */
  String interruptedRewind(RewindRequest request, int failingRename) {
    AtomicInteger renames = new AtomicInteger();
    RewindService failing =
        new RewindService(
            store,
            handles,
            point -> {
              if (point == TestHook.Point.BEFORE_REWIND_RENAME
                  && renames.incrementAndGet() == failingRename) {
                throw new IllegalStateException("the rewind fails mid-way");
              }
            });
    List<String> announced = new ArrayList<>();
    assertThrows(
        IllegalStateException.class,
        () -> failing.rewind(request, (operation, resumed) -> announced.add(operation)));
    assertEquals(1, announced.size(), "the operation was named before its first write");
    return announced.getFirst();
  }

  @FunctionalInterface
  interface ThrowingRunnable {
    void run() throws Exception;
  }

  @Override
  public void close() {
    handles.close();
    if (ownsStore) {
      store.close();
    }
  }

  /**
   * Closes, checking the canary first: the outside tree unchanged, the secret in no blob nor in the
   * database files, before closing and after (when the WAL has been checkpointed into the database
   * file).
   */
  void closeCheckingCanary() {
    workspace.assertOutsideUnchanged();
    workspace.canary().assertNotInStore(store);
    close();
    store.localFile().ifPresent(workspace.canary()::assertNotInStoreFiles);
  }
}
