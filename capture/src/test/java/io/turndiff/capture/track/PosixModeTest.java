package io.turndiff.capture.track;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.boundary.Portability;
import io.turndiff.capture.CaptureService;
import io.turndiff.capture.workspace.WorkspaceHandles;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.ChangeKind;
import io.turndiff.store.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * In the posix mode (TURNDIFF_PORTABILITY=posix, the {@code posix} Surefire run) a service's
 * tracker watches nothing: every scan walks the whole tree, finds what the shell changed, and says
 * why it walked.
 */
class PosixModeTest {

  @TempDir Path temp;

  @Test
  void aServiceTrackerScansWholeTreesAndSaysWhy() throws Exception {
    assumeTrue(Portability.current() == Portability.POSIX, "a posix run");
    TestWorkspace workspace = TestWorkspace.in(temp).file("a.txt", "one\n").file("d/b.txt", "b\n");
    Store store = TestStore.freshIn(temp);
    try (WorkspaceHandles handles = new WorkspaceHandles(store, BoundaryOptions.defaults());
        CaptureService capture =
            new CaptureService(store, handles, WatchOptions.SERVICE, turnRow -> {})) {
      Tracker tracker = capture.tracker();
      tracker.track(workspace.root(), TrackingOptions.DEFAULTS);
      Files.writeString(workspace.resolve("a.txt"), "two\n");
      Files.delete(workspace.resolve("d/b.txt"));
      Files.writeString(workspace.resolve("d/c.txt"), "c\n");

      Map<String, ChangeKind> changes =
          tracker.status(workspace.root()).changes().stream()
              .collect(Collectors.toMap(change -> change.path().display(), PathChange::kind));
      assertEquals(
          Map.of(
              "a.txt", ChangeKind.MODIFIED,
              "d/b.txt", ChangeKind.DELETED,
              "d/c.txt", ChangeKind.ADDED),
          changes);
      WatchStatus status = tracker.watchStatus();
      assertEquals(0, status.workspaces(), status.toString());
      assertEquals(0, status.watchedScans(), status.toString());
      assertTrue(
          status.fallbacks().getOrDefault("nothing is watched in the posix mode", 0L) > 0,
          status.toString());
    } finally {
      store.close();
    }
    workspace.assertOutsideUnchanged();
  }
}
