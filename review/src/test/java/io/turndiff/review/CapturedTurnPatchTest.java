package io.turndiff.review;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.capture.CaptureService;
import io.turndiff.capture.track.TrackingOptions;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.store.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Turns captured by the real capture service, as the review queries show them: the patch of each
 * kind of change (what the capture tests assert on the records, this asserts on the patch). Every
 * test checks the canary.
 */
class CapturedTurnPatchTest {

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Store store;
  private CaptureService capture;
  private ReviewQueries queries;

  @BeforeEach
  void open() {
    workspace = TestWorkspace.in(temp);
    store = TestStore.freshIn(temp);
    capture = new CaptureService(store, BoundaryOptions.defaults());
    queries = new ReviewQueries(store);
  }

  @AfterEach
  void canary() {
    capture.close();
    workspace.assertNothingLeakedThenClose(store);
  }

  private String beginTurn() {
    return capture.beginTurn(workspace.root(), Optional.of("session-1"), Optional.empty()).turn();
  }

  @Test
  void pathsThatLeadOutsideShowNoContent() {
    workspace
        .symlink("config.txt", workspace.secret().toString())
        .symlink("vendor", workspace.outside().resolve("dir").toString())
        .symlink("notes.txt", "../outside/secret.txt");
    String turn = beginTurn();
    capture.snapshot(
        turn, Optional.of("edit-1"), List.of("config.txt", "vendor/secret.txt", "notes.txt"));
    capture.finishTurn(turn);
    workspace.canary().assertNotIn("the turn's patch", queries.patch(turn, List.of()));
    workspace.canary().assertNotIn("the turn's records", queries.records(turn).toString());
  }

  @Test
  void aModifiedFileIsAHunk() throws Exception {
    workspace.file("src/App.java", "class App {}\n");
    String turn = beginTurn();
    capture.snapshot(turn, Optional.of("edit-1"), List.of("src/App.java"));
    Files.writeString(workspace.resolve("src/App.java"), "class App { int x; }\n");
    capture.finishTurn(turn);
    String patch = queries.patch(turn, List.of());
    assertTrue(patch.contains("-class App {}\n+class App { int x; }\n"), patch);
  }

  @Test
  void createdAndDeletedFilesHaveTheirModeLinesAndAnUnchangedFileNone() throws Exception {
    workspace.file("keep.txt", "same\n").file("edit.txt", "old\n").file("gone.txt", "bye\n");
    String turn = beginTurn();
    capture.snapshot(
        turn, Optional.of("t1"), List.of("keep.txt", "edit.txt", "gone.txt", "new/made.txt"));
    Files.writeString(workspace.resolve("edit.txt"), "new\n");
    Files.delete(workspace.resolve("gone.txt"));
    workspace.file("new/made.txt", "hello\n");
    capture.finishTurn(turn);
    String patch = queries.patch(turn, List.of());
    assertTrue(patch.contains("new file mode 100644"), patch);
    assertTrue(patch.contains("deleted file mode 100644"), patch);
    assertFalse(patch.contains("keep.txt"), "an unchanged file has no patch");
  }

  @Test
  void theFirstBeforeStateIsWhatThePatchStartsFrom() throws Exception {
    workspace.file("a.txt", "first\n");
    String turn = beginTurn();
    capture.snapshot(turn, Optional.of("call-1"), List.of("a.txt"));
    Files.writeString(workspace.resolve("a.txt"), "second\n");
    capture.snapshot(turn, Optional.of("call-2"), List.of("a.txt"));
    Files.writeString(workspace.resolve("a.txt"), "third\n");
    capture.finishTurn(turn);
    String patch = queries.patch(turn, List.of());
    assertTrue(patch.contains("-first\n+third\n"), patch);
  }

  @Test
  void aModeChangeIsTwoModeLines() {
    workspace.file("run.sh", "echo hi\n");
    String turn = beginTurn();
    capture.snapshot(turn, Optional.empty(), List.of("run.sh"));
    workspace.mode("run.sh", "rwxr-xr-x");
    capture.finishTurn(turn);
    assertTrue(queries.patch(turn, List.of()).contains("old mode 100644\nnew mode 100755\n"));
  }

  @Test
  void aBinaryChangeIsAGitBinaryPatch() {
    workspace.file("img.bin", new byte[] {0, 1, 2, 3});
    String turn = beginTurn();
    capture.snapshot(turn, Optional.empty(), List.of("img.bin"));
    workspace.file("img.bin", new byte[] {0, 1, 2, 4});
    capture.finishTurn(turn);
    assertTrue(queries.patch(turn, List.of()).contains("GIT binary patch"));
  }

  @Test
  void thePatchIsTheSameAfterReopeningTheStore() throws Exception {
    workspace.file("a.txt", "a\n").symlink("leak", workspace.secret().toString());
    String turn = beginTurn();
    capture.snapshot(turn, Optional.of("call-1"), List.of("a.txt", "leak", "missing.txt"));
    Files.writeString(workspace.resolve("a.txt"), "b\n");
    capture.finishTurn(turn);
    String patchBefore = queries.patch(turn, List.of());
    capture.close();
    store.close();
    store = TestStore.reopen(store);
    capture = new CaptureService(store, BoundaryOptions.defaults());
    queries = new ReviewQueries(store);
    assertEquals(patchBefore, queries.patch(turn, List.of()));
  }

  @Test
  void aFileOverTheSizeLimitIsACommentLine() {
    capture.close();
    capture = new CaptureService(store, BoundaryOptions.builder().sizeLimit(10).build());
    workspace.file("big.txt", "this is longer than ten bytes\n");
    String turn = beginTurn();
    capture.snapshot(turn, Optional.empty(), List.of("big.txt"));
    workspace.file("big.txt", "this is also longer than ten bytes\n");
    capture.finishTurn(turn);
    assertTrue(
        queries
            .patch(turn, List.of())
            .contains("# turndiff: big.txt: before-state not captured (too_large)"));
  }

  @Test
  void aShellChangeInATrackedWorkspaceIsInThePatch() throws Exception {
    workspace.file("announced.txt", "announced before\n").file("shell.txt", "shell before\n");
    capture.tracker().track(workspace.root(), TrackingOptions.DEFAULTS);
    Files.writeString(workspace.resolve("shell.txt"), "edited by the user between turns\n");
    String turn = capture.beginTurn(workspace.root(), Optional.of("s"), Optional.empty()).turn();
    capture.snapshot(turn, Optional.of("edit"), List.of("announced.txt"));
    Process shell =
        new ProcessBuilder(
                "sh",
                "-c",
                "echo agent > announced.txt; sed -i s/user/agent/ shell.txt; "
                    + "echo created > fresh.txt")
            .directory(workspace.root().toFile())
            .inheritIO()
            .start();
    assertEquals(0, shell.waitFor());
    capture.finishTurn(turn);
    String patch = queries.patch(turn, List.of());
    assertTrue(
        patch.contains("-edited by the user between turns\n+edited by the agent between turns\n"),
        patch);
    assertTrue(patch.contains("+created"), patch);
  }
}
