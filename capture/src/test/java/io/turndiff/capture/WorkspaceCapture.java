package io.turndiff.capture;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.boundary.Portability;
import io.turndiff.capture.track.WatchOptions;
import io.turndiff.capture.workspace.WorkspaceHandles;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.store.Store;
import java.nio.file.Path;

/**
 * A capture service over a fresh store and a test workspace in one temporary folder, watched (as
 * the service watches) or not; closing it checks the canary: the outside tree unchanged, the
 * secret's bytes nowhere in the store or its files.
 */
final class WorkspaceCapture implements AutoCloseable {

  final TestWorkspace workspace;
  final Store store;
  final WorkspaceHandles handles;
  final CaptureService capture;

  private WorkspaceCapture(Path temp, boolean watched) {
    workspace = TestWorkspace.in(temp);
    store = TestStore.freshIn(temp);
    handles = new WorkspaceHandles(store, BoundaryOptions.defaults());
    capture =
        new CaptureService(
            store, handles, watched ? WatchOptions.SERVICE : WatchOptions.OFF, turnRow -> {});
  }

  /** Opens one; a watched one is skipped in the posix mode, which watches nothing. */
  static WorkspaceCapture open(Path temp, boolean watched) {
    if (watched) {
      assumeTrue(Portability.current().watches(), "nothing is watched in the posix mode");
    }
    return new WorkspaceCapture(temp, watched);
  }

  @Override
  public void close() {
    capture.close();
    handles.close();
    workspace.assertNothingLeakedThenClose(store);
  }
}
