package io.turndiff.hooks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.turndiff.api.TurnEvents;
import io.turndiff.api.Turndiff;
import io.turndiff.boundary.WorkspacePolicy;
import io.turndiff.capture.track.TrackSummary;
import io.turndiff.capture.track.TrackingOptions;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code track=auto} knows a tracked workspace by its directory, whatever the hook calls it. */
class AutoTrackingTest {

  @TempDir Path temp;

  @Test
  void aWorkspaceTrackedUnderOneNameIsNotTrackedAgainUnderAnother() throws Exception {
    TestWorkspace workspace = TestWorkspace.in(temp.resolve("base")).file("src/a.txt", "a\n");
    Path throughSymlink = Files.createSymbolicLink(temp.resolve("link"), workspace.root());
    Path database = TestStore.fileIn(temp);
    try (Turndiff turndiff =
        Turndiff.builder(database).policy(WorkspacePolicy.anyDirectory()).open()) {
      turndiff.capture().tracker().track(workspace.root(), new TrackingOptions(5_000, 1L << 20));
      long version = StoreRows.value(database, "SELECT version FROM tracked_workspace");
      List<TrackSummary> told = new ArrayList<>();
      AutoTracking autoTracking = new AutoTracking(turndiff, tracked(told));

      autoTracking.trackUnlessTracked(throughSymlink);
      autoTracking.trackUnlessTracked(workspace.root().resolve("src/.."));

      assertEquals(
          version,
          StoreRows.value(database, "SELECT version FROM tracked_workspace"),
          "the index was written again: the workspace was tracked again");
      assertEquals(
          5_000,
          StoreRows.value(database, "SELECT max_files FROM tracked_workspace"),
          "its budgets were reset to the defaults");

      TestWorkspace untracked = TestWorkspace.in(temp.resolve("other")).file("b.txt", "b\n");
      autoTracking.trackUnlessTracked(untracked.root());
      assertEquals(
          2,
          StoreRows.value(database, "SELECT count(*) FROM tracked_workspace"),
          "a workspace not tracked yet is tracked");
      assertEquals(
          List.of(untracked.root().toRealPath().toString()),
          told.stream().map(TrackSummary::workspace).toList(),
          "the service is told of the one track (it gives a large one's heap back)");
    }
    workspace.assertOutsideUnchanged();
  }

  /** Events that keep what they are told of tracks, and nothing else. */
  private static TurnEvents tracked(List<TrackSummary> told) {
    return new NoTurnEvents() {
      @Override
      public void tracked(TrackSummary summary) {
        told.add(summary);
      }
    };
  }
}
