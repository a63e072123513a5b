package io.turndiff.capture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.capture.track.TrackingOptions;
import io.turndiff.capture.track.WatchOptions;
import io.turndiff.fixtures.RecordedChanges;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.Containment;
import io.turndiff.model.DetectedBy;
import io.turndiff.model.FileType;
import io.turndiff.model.Presence;
import io.turndiff.model.Reason;
import io.turndiff.model.RequestException;
import io.turndiff.model.Sha256;
import io.turndiff.model.TurnState;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.Store;
import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredTurn;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The capture service over a real SQLite store and a real workspace; every test checks the canary.
 * What a turn recorded is read from the store ({@link RecordedChanges}); the patches of captured
 * turns are the review module's ({@code CapturedTurnPatchTest}).
 */
class CaptureServiceTest {

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

  private StoredFileChange change(String turn, String path) {
    return RecordedChanges.of(store, turn).stream()
        .filter(change -> change.path().equals(WorkspacePath.of(path)))
        .findFirst()
        .orElseThrow(() -> new AssertionError(path + " is not recorded in " + turn));
  }

  private String beginTurn() {
    return capture.beginTurn(workspace.root(), Optional.of("session-1"), Optional.empty()).turn();
  }

  /** What the blob row of {@code sha} holds: encoding, base (or "whole") and depth. */
  private String stored(Sha256 sha) {
    return StoreRows.text(
        store,
        "SELECT encoding || ' ' || coalesce(base_sha256, 'whole') || ' ' || depth FROM blob"
            + " WHERE sha256 = '"
            + sha.hex()
            + "'");
  }

  @Test
  void anEditedFilesAfterStateIsStoredAsADeltaAndReadBackExactly() {
    StringBuilder text = new StringBuilder();
    for (int line = 0; text.length() < 20_000; line++) {
      text.append("    int value")
          .append(line)
          .append(" = compute(")
          .append(line * 7)
          .append(");\n");
    }
    workspace.file("src/Big.java", text.toString());
    for (int turnNumber = 1; turnNumber <= 3; turnNumber++) {
      String turn = beginTurn();
      capture.snapshot(turn, Optional.of("edit-" + turnNumber), List.of("src/Big.java"));
      String edited =
          workspace.readText("src/Big.java").replace("value" + turnNumber * 10 + " ", "edited ");
      workspace.file("src/Big.java", edited);
      capture.finishTurn(turn);
      StoredFileChange change = change(turn, "src/Big.java");
      Sha256 before = change.before().storedContent().orElseThrow();
      Sha256 after = change.after().orElseThrow().storedContent().orElseThrow();
      assertEquals("delta " + before.hex() + " " + turnNumber, stored(after), "turn " + turnNumber);
      assertArrayEquals(
          edited.getBytes(StandardCharsets.UTF_8), store.read(tx -> tx.blobs().require(after)));
      // the line diff is left pending by the finish (computed after it, in the background)
      assertTrue(change.diff().isEmpty(), "the diff is pending");
    }
  }

  // ---- the six fixtures behind the boundary design ----

  @Test
  void escapeThroughAFileSymlinkIsMetadataOnly() {
    workspace.symlink("config.txt", workspace.secret().toString());
    String turn = beginTurn();
    capture.snapshot(turn, Optional.of("edit-1"), List.of("config.txt"));
    capture.finishTurn(turn);
    StoredFileChange change = change(turn, "config.txt");
    assertEquals(Containment.ESCAPED, change.before().containment());
    assertFalse(change.restorable());
    assertTrue(change.before().sha256().isEmpty());
    workspace
        .canary()
        .assertNotIn("the turn's records", RecordedChanges.of(store, turn).toString());
  }

  @Test
  void escapeThroughASymlinkedDirectoryIsMetadataOnly() {
    workspace.symlink("vendor", workspace.outside().resolve("dir").toString());
    String turn = beginTurn();
    capture.snapshot(turn, Optional.empty(), List.of("vendor/secret.txt"));
    capture.finishTurn(turn);
    StoredFileChange change = change(turn, "vendor/secret.txt");
    assertEquals(Optional.of(Reason.ESCAPES_WORKSPACE), change.before().reason());
    assertFalse(change.restorable());
  }

  @Test
  void escapeThroughARelativeSymlinkIsMetadataOnly() {
    workspace.symlink("notes.txt", "../outside/secret.txt");
    String turn = beginTurn();
    capture.snapshot(turn, Optional.empty(), List.of("notes.txt"));
    // the agent then writes through the link: the outside file must stay untouched by turndiff, and
    // the change to it is not turndiff's to record
    capture.finishTurn(turn);
    assertEquals(
        Optional.of(Reason.ESCAPES_WORKSPACE), change(turn, "notes.txt").before().reason());
  }

  @Test
  void plainFileIsCapturedWithContent() throws Exception {
    workspace.file("src/App.java", "class App {}\n");
    String turn = beginTurn();
    capture.snapshot(turn, Optional.of("edit-1"), List.of("src/App.java"));
    Files.writeString(workspace.resolve("src/App.java"), "class App { int x; }\n");
    TurnSummary summary = capture.finishTurn(turn);
    assertEquals(Map.of(ChangeKind.MODIFIED, 1), summary.changes());
    StoredFileChange change = change(turn, "src/App.java");
    assertTrue(change.restorable());
    // the line diff is computed after finish (the review module's PendingDiffs and BackgroundDiffs)
    assertEquals(1, summary.diffsPending());
    assertTrue(change.diffPending());
    assertTrue(change.diff().isEmpty());
  }

  @Test
  void symlinkToAnotherFileInsideIsCapturedWithContent() throws Exception {
    workspace.file("real.txt", "one\n").symlink("alias.txt", "real.txt");
    String turn = beginTurn();
    List<SnapshotVerdict> verdicts = capture.snapshot(turn, Optional.empty(), List.of("alias.txt"));
    assertEquals(2, verdicts.size());
    Files.writeString(workspace.resolve("alias.txt"), "two\n");
    capture.finishTurn(turn);
    StoredFileChange real = change(turn, "real.txt");
    assertEquals("alias.txt", real.via().orElseThrow().display());
    assertEquals(Optional.of(ChangeKind.MODIFIED), real.change());
    assertTrue(real.restorable());
    assertEquals(Optional.of(ChangeKind.UNCHANGED), change(turn, "alias.txt").change());
  }

  @Test
  void workspaceReachedThroughASymlinkedRootIsCapturedWithContent() throws Exception {
    Path alias = temp.resolve("alias");
    Files.createSymbolicLink(alias, workspace.root());
    workspace.file("a.txt", "a\n");
    String turn = capture.beginTurn(alias, Optional.empty(), Optional.empty()).turn();
    capture.snapshot(turn, Optional.empty(), List.of(alias.resolve("a.txt").toString()));
    Files.writeString(workspace.resolve("a.txt"), "b\n");
    capture.finishTurn(turn);
    StoredFileChange change = change(turn, "a.txt");
    assertEquals(Optional.of(ChangeKind.MODIFIED), change.change());
    assertTrue(change.restorable());
  }

  // ---- semantics ----

  @Test
  void createdModifiedDeletedAndUnchangedFilesAreClassified() throws Exception {
    workspace.file("keep.txt", "same\n").file("edit.txt", "old\n").file("gone.txt", "bye\n");
    String turn = beginTurn();
    capture.snapshot(
        turn, Optional.of("t1"), List.of("keep.txt", "edit.txt", "gone.txt", "new/made.txt"));
    Files.writeString(workspace.resolve("edit.txt"), "new\n");
    Files.delete(workspace.resolve("gone.txt"));
    workspace.file("new/made.txt", "hello\n");
    TurnSummary summary = capture.finishTurn(turn);
    assertEquals(
        Map.of(
            ChangeKind.UNCHANGED,
            1,
            ChangeKind.MODIFIED,
            1,
            ChangeKind.DELETED,
            1,
            ChangeKind.ADDED,
            1),
        summary.changes());
    assertEquals(Presence.ABSENT, change(turn, "new/made.txt").before().presence());
  }

  @Test
  void firstBeforeStateOfAPathWinsAndEveryToolCallIsNoted() throws Exception {
    workspace.file("a.txt", "first\n");
    String turn = beginTurn();
    capture.snapshot(turn, Optional.of("call-1"), List.of("a.txt"));
    Files.writeString(workspace.resolve("a.txt"), "second\n");
    List<SnapshotVerdict> again = capture.snapshot(turn, Optional.of("call-2"), List.of("a.txt"));
    assertFalse(again.getFirst().recorded());
    Files.writeString(workspace.resolve("a.txt"), "third\n");
    capture.finishTurn(turn);
    StoredFileChange change = change(turn, "a.txt");
    assertEquals(List.of("call-1", "call-2"), change.toolCalls());
  }

  /**
   * The rows of a snapshot call refer to each other by the keys their inserts returned ({@code
   * INSERT .. RETURNING}, on SQLite and PostgreSQL): each change's before-state is its own path's
   * snapshot, each tool call is linked to the paths it named, a tool call named again (its insert
   * returns no row) is the row it already has.
   */
  @Test
  void theRowsOfSnapshotCallsReferToEachOtherByTheKeysTheirInsertsReturned() {
    workspace.file("a.txt", "a\n").file("b.txt", "b\n").file("c.txt", "c\n").file("d.txt", "d\n");
    String turn = beginTurn();
    capture.snapshot(turn, Optional.of("call-1"), List.of("a.txt", "b.txt"));
    capture.snapshot(turn, Optional.of("call-2"), List.of("b.txt", "c.txt"));
    capture.snapshot(turn, Optional.of("call-1"), List.of("d.txt"));
    Map<String, List<String>> callsByPath = new TreeMap<>();
    for (StoredFileChange change : RecordedChanges.of(store, turn)) {
      assertEquals(change.path(), change.before().path(), "the before-state of " + change.path());
      callsByPath.put(change.path().toString(), change.toolCalls());
    }
    assertEquals(
        Map.of(
            "a.txt", List.of("call-1"),
            "b.txt", List.of("call-1", "call-2"),
            "c.txt", List.of("call-2"),
            "d.txt", List.of("call-1")),
        callsByPath);
    Map<String, Long> rows = StoreRows.count(store);
    assertEquals(2L, rows.get("tool_call"));
    assertEquals(
        5L,
        rows.get("snapshot"),
        "the four changes' before-states, and the one call-2 found of b.txt (issue 24)");
    assertEquals(4L, rows.get("file_change"));
    assertEquals(5L, rows.get("file_change_tool_call"));
    assertEquals(
        "1",
        StoreRows.text(
            store,
            "SELECT count(*) FROM file_change_tool_call WHERE before_snapshot_id IS NOT NULL"),
        "only a later call of a path keeps the before-state it found");
  }

  @Test
  void eachPathGetsItsVerdictFromTheCapture() throws Exception {
    workspace.file("a.txt", "a\n").symlink("leak", workspace.secret().toString());
    String turn = beginTurn();
    List<SnapshotVerdict> first =
        capture.snapshot(turn, Optional.empty(), List.of("a.txt", "none.txt", "leak"));
    assertEquals(
        List.of(
            SnapshotVerdict.Verdict.CAPTURED,
            SnapshotVerdict.Verdict.ABSENT,
            SnapshotVerdict.Verdict.METADATA_ONLY),
        first.stream().map(SnapshotVerdict::verdict).toList());
    assertEquals(
        List.of(true, true, false), first.stream().map(SnapshotVerdict::restorable).toList());
    Files.writeString(workspace.resolve("a.txt"), "b\n");
    SnapshotVerdict again = capture.snapshot(turn, Optional.empty(), List.of("a.txt")).getFirst();
    assertEquals(SnapshotVerdict.Verdict.ALREADY_RECORDED, again.verdict());
    assertEquals("already_recorded", again.verdict().code());
    assertTrue(again.restorable(), "the state seen now is captured, though the first one counts");
  }

  @Test
  void modeChangeIsAModification() throws Exception {
    workspace.file("run.sh", "echo hi\n");
    String turn = beginTurn();
    capture.snapshot(turn, Optional.empty(), List.of("run.sh"));
    workspace.mode("run.sh", "rwxr-xr-x");
    capture.finishTurn(turn);
    assertEquals(Optional.of(ChangeKind.MODIFIED), change(turn, "run.sh").change());
  }

  @Test
  void replacingAFileWithASymlinkIsATypeChange() throws Exception {
    workspace.file("a.txt", "a\n").file("b.txt", "b\n");
    String turn = beginTurn();
    capture.snapshot(turn, Optional.empty(), List.of("a.txt"));
    Files.delete(workspace.resolve("a.txt"));
    Files.createSymbolicLink(workspace.resolve("a.txt"), Path.of("b.txt"));
    capture.finishTurn(turn);
    StoredFileChange change = change(turn, "a.txt");
    assertEquals(Optional.of(ChangeKind.TYPE_CHANGED), change.change());
    assertEquals(Optional.of(FileType.SYMLINK), change.after().orElseThrow().type());
  }

  @Test
  void aFinishLeavesTheLineDiffsOfChangedPathsPendingAndTellsItsListener() throws Exception {
    workspace.file("img.bin", new byte[] {0, 1, 2, 3}).file("same.txt", "same\n");
    List<Long> told = new ArrayList<>();
    try (CaptureService listened =
        new CaptureService(store, capture.workspaces(), WatchOptions.OFF, told::add)) {
      String turn =
          listened.beginTurn(workspace.root(), Optional.of("session-1"), Optional.empty()).turn();
      listened.snapshot(turn, Optional.empty(), List.of("img.bin", "same.txt"));
      workspace.file("img.bin", new byte[] {0, 1, 2, 4});
      TurnSummary summary = listened.finishTurn(turn);
      assertEquals(1, summary.diffsPending());
      assertEquals(List.of(RecordedChanges.turn(store, turn).id()), told);
      assertTrue(change(turn, "img.bin").diffPending());
      // an unchanged path has no diff to compute
      StoredFileChange same = change(turn, "same.txt");
      assertFalse(same.diffPending());
      assertEquals(Optional.of(ChangeKind.UNCHANGED), same.change());
      assertTrue(same.diff().isEmpty());
    }
  }

  @Test
  void blobsAreStoredOnceHoweverManyTurnsUseThem() throws Exception {
    workspace.file("a.txt", "shared\n").file("b.txt", "shared\n");
    String first = beginTurn();
    capture.snapshot(first, Optional.empty(), List.of("a.txt", "b.txt"));
    capture.finishTurn(first);
    String second = beginTurn();
    capture.snapshot(second, Optional.empty(), List.of("a.txt"));
    capture.finishTurn(second);
    assertEquals(1L, StoreRows.count(store).get("blob"), "one content, one blob");
    assertEquals(6L, StoreRows.count(store).get("snapshot"));
  }

  @Test
  void recordsSurviveReopeningTheStore() throws Exception {
    workspace.file("a.txt", "a\n").symlink("leak", workspace.secret().toString());
    String turn = beginTurn();
    capture.snapshot(turn, Optional.of("call-1"), List.of("a.txt", "leak", "missing.txt"));
    Files.writeString(workspace.resolve("a.txt"), "b\n");
    capture.finishTurn(turn);
    StoredTurn turnBefore = RecordedChanges.turn(store, turn);
    List<StoredFileChange> before = RecordedChanges.of(store, turn);
    capture.close();
    store.close();
    store = TestStore.reopen(store);
    capture = new CaptureService(store, BoundaryOptions.defaults());
    StoredTurn turnAfter = RecordedChanges.turn(store, turn);
    List<StoredFileChange> after = RecordedChanges.of(store, turn);
    assertEquals(turnBefore, turnAfter);
    assertEquals(TurnState.FINISHED, turnAfter.state());
    assertEquals(before.size(), after.size());
    for (int i = 0; i < before.size(); i++) {
      StoredFileChange expected = before.get(i);
      StoredFileChange actual = after.get(i);
      assertEquals(expected.path(), actual.path());
      assertEquals(expected.change(), actual.change());
      assertEquals(expected.before().fingerprint(), actual.before().fingerprint());
      assertEquals(expected.before().sha256(), actual.before().sha256());
      assertEquals(expected.after().orElseThrow().sha256(), actual.after().orElseThrow().sha256());
      assertEquals(expected.toolCalls(), actual.toolCalls());
      assertEquals(expected.before().reason(), actual.before().reason());
    }
    byte[] beforeContent =
        store.read(
            tx -> tx.blobs().require(change(turn, "a.txt").before().storedContent().orElseThrow()));
    assertArrayEquals("a\n".getBytes(StandardCharsets.UTF_8), beforeContent);
  }

  @Test
  void sizeLimitIsConfigurableAndStillHashes() throws Exception {
    capture.close();
    capture = new CaptureService(store, BoundaryOptions.builder().sizeLimit(10).build());
    workspace.file("big.txt", "this is longer than ten bytes\n");
    String turn = beginTurn();
    capture.snapshot(turn, Optional.empty(), List.of("big.txt"));
    workspace.file("big.txt", "this is also longer than ten bytes\n");
    capture.finishTurn(turn);
    StoredFileChange change = change(turn, "big.txt");
    assertEquals(Optional.of(Reason.TOO_LARGE), change.before().reason());
    assertEquals(
        Optional.of(ChangeKind.MODIFIED), change.change(), "the streamed hash shows the change");
  }

  @Test
  void aFileOverTheSizeLimitIsNeverUnchangedOnlyUnknownUnlessItsSampledFingerprintProvesAChange() {
    capture.close();
    capture = new CaptureService(store, BoundaryOptions.builder().sizeLimit(10).build());
    workspace
        .file("same.txt", "this is longer than ten bytes\n")
        .file("first.txt", "this is longer than ten bytes\n");
    String turn = beginTurn();
    capture.snapshot(turn, Optional.empty(), List.of("same.txt", "first.txt"));
    workspace.file("first.txt", "THIS is longer than ten bytes\n");
    TurnSummary summary = capture.finishTurn(turn);
    StoredFileChange same = change(turn, "same.txt");
    assertTrue(
        same.before().sampledSha256().isPresent(), "fingerprinted by sampling: " + same.before());
    assertTrue(same.before().sha256().isEmpty(), "not read whole");
    assertEquals(
        Optional.of(ChangeKind.UNKNOWN),
        same.change(),
        "equal samples do not prove the same content");
    assertEquals(
        Optional.of(ChangeKind.MODIFIED),
        change(turn, "first.txt").change(),
        "a same-size change in a sampled block shows");
    assertEquals(2, summary.notRestorable());
    assertEquals(Map.of(ChangeKind.UNKNOWN, 1, ChangeKind.MODIFIED, 1), summary.changes());
  }

  @Test
  void turnsAreNumberedWithinTheirSession() {
    assertEquals(1, capture.beginTurn(workspace.root(), Optional.of("s"), Optional.of("t1")).seq());
    assertEquals(2, capture.beginTurn(workspace.root(), Optional.of("s"), Optional.of("t2")).seq());
    assertEquals(
        1, capture.beginTurn(workspace.root(), Optional.of("other"), Optional.of("t3")).seq());
  }

  @Test
  void detectedBySnapshotIsRecorded() {
    workspace.file("a.txt", "a\n");
    String turn = beginTurn();
    capture.snapshot(turn, Optional.empty(), List.of("a.txt"));
    assertEquals(DetectedBy.SNAPSHOT, change(turn, "a.txt").detectedBy());
  }

  // ---- bad input: a clear error naming the input, and nothing written ----

  private void assertRefusedWithoutWriting(
      RequestException.Problem problem, String named, Runnable request) {
    Map<String, Long> before = StoreRows.count(store);
    RequestException e = assertThrows(RequestException.class, request::run);
    assertEquals(problem, e.problem(), e.getMessage());
    assertTrue(e.getMessage().contains(named), () -> "'" + e.getMessage() + "' names " + named);
    assertEquals(before, StoreRows.count(store), "nothing was written");
  }

  @Test
  void nulInAPathIsRefused() {
    String turn = beginTurn();
    assertRefusedWithoutWriting(
        RequestException.Problem.BAD_INPUT,
        "NUL",
        () -> capture.snapshot(turn, Optional.empty(), List.of("ok.txt", "bad\0name")));
  }

  @Test
  void emptyPathIsRefused() {
    String turn = beginTurn();
    assertRefusedWithoutWriting(
        RequestException.Problem.BAD_INPUT,
        "empty",
        () -> capture.snapshot(turn, Optional.empty(), List.of("")));
  }

  @Test
  void unknownTurnIsRefused() {
    assertRefusedWithoutWriting(
        RequestException.Problem.UNKNOWN_TURN,
        "no-such-turn",
        () -> capture.snapshot("no-such-turn", Optional.empty(), List.of("a.txt")));
  }

  @Test
  void finishingAFinishedTurnIsRefused() {
    String turn = beginTurn();
    capture.finishTurn(turn);
    assertRefusedWithoutWriting(
        RequestException.Problem.WRONG_STATE, turn, () -> capture.finishTurn(turn));
  }

  @Test
  void pathGivenAsADirectoryIsRefused() {
    workspace.directory("src");
    String turn = beginTurn();
    assertRefusedWithoutWriting(
        RequestException.Problem.BAD_INPUT,
        "src/",
        () -> capture.snapshot(turn, Optional.empty(), List.of("src/")));
  }

  @Test
  void missingWorkspaceIsRefused() {
    assertRefusedWithoutWriting(
        RequestException.Problem.WORKSPACE,
        "nowhere",
        () -> capture.beginTurn(temp.resolve("nowhere"), Optional.empty(), Optional.empty()));
  }

  @Test
  void malformedIdIsRefused() {
    assertRefusedWithoutWriting(
        RequestException.Problem.BAD_INPUT,
        "bad id",
        () -> capture.beginTurn(workspace.root(), Optional.of("bad id"), Optional.empty()));
  }

  @Test
  void takenTurnIdIsRefused() {
    capture.beginTurn(workspace.root(), Optional.empty(), Optional.of("t-1"));
    assertRefusedWithoutWriting(
        RequestException.Problem.ALREADY_EXISTS,
        "t-1",
        () -> capture.beginTurn(workspace.root(), Optional.empty(), Optional.of("t-1")));
  }

  @Test
  void replacedWorkspaceRootIsRefused() throws Exception {
    String turn = beginTurn();
    capture.close();
    Files.move(workspace.root(), temp.resolve("moved"));
    Files.createDirectories(workspace.root());
    capture = new CaptureService(store, BoundaryOptions.defaults());
    assertRefusedWithoutWriting(
        RequestException.Problem.WORKSPACE,
        "replaced",
        () -> capture.snapshot(turn, Optional.empty(), List.of("a.txt")));
  }

  @Test
  void refusedBeginLeavesTheWorkspaceUsableForTurnsInFlight() throws Exception {
    workspace.file("a.txt", "a\n");
    // a tracked workspace: beginning a turn adopts the boundary before the refusal
    capture.tracker().track(workspace.root(), TrackingOptions.DEFAULTS);
    String turn = capture.beginTurn(workspace.root(), Optional.empty(), Optional.of("t-1")).turn();
    assertThrows(
        RequestException.class,
        () -> capture.beginTurn(workspace.root(), Optional.empty(), Optional.of("t-1")));
    capture.snapshot(turn, Optional.empty(), List.of("a.txt"));
    workspace.file("a.txt", "b\n");
    capture.finishTurn(turn);
    assertEquals(Optional.of(ChangeKind.MODIFIED), change(turn, "a.txt").change());
  }

  @Test
  void beginningTurnsWhileAnotherTurnSnapshotsNeverClosesItsBoundary() throws Exception {
    int files = 200;
    for (int f = 0; f < files; f++) {
      workspace.file("f" + f + ".txt", "file " + f + "\n");
    }
    String turn =
        capture.beginTurn(workspace.root(), Optional.of("snapshotting"), Optional.empty()).turn();
    AtomicBoolean done = new AtomicBoolean();
    Thread beginner =
        Thread.ofPlatform()
            .start(
                () -> {
                  while (!done.get()) {
                    capture.beginTurn(workspace.root(), Optional.of("beginner"), Optional.empty());
                  }
                });
    try {
      for (int f = 0; f < files; f++) {
        capture.snapshot(turn, Optional.empty(), List.of("f" + f + ".txt"));
      }
    } finally {
      done.set(true);
      beginner.join();
    }
    capture.finishTurn(turn);
    assertEquals(files, RecordedChanges.of(store, turn).size());
  }
}
