package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.turndiff.boundary.Portability;
import io.turndiff.capture.CaptureService;
import io.turndiff.capture.ShellCall;
import io.turndiff.capture.track.TrackingOptions;
import io.turndiff.capture.track.WatchOptions;
import io.turndiff.fixtures.TreeContent;
import io.turndiff.model.WorkspacePath;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A rewind never reverts another session's change without saying so (issue 27): two sessions in one
 * tracked workspace, over a real store and real files; every test checks the canary.
 */
class TwoSessionsRewindTest extends HarnessTest {

  private void begin(String session, String turn) {
    h.capture.beginTurn(h.workspace.root(), Optional.of(session), Optional.of(turn));
  }

  private static Map<String, String> skipped(RewindReport report) {
    return report.skipped().stream()
        .collect(
            Collectors.toMap(
                skip -> skip.path().display(), skip -> skip.reason() + ": " + skip.detail()));
  }

  /**
   * The reproduction, through the rewind: before the fix, rewinding A1 put x.txt back over
   * B's edit, complete and silent. Both changes were made while both turns were open, so both are
   * shared: the rewind leaves them, each a conflict naming B1 of session B.
   */
  @Test
  void rewindingATurnLeavesAChangeAnotherSessionCouldHaveMadeAndNamesIt() throws Exception {
    h.workspace.file("x.txt", "x before\n").file("a.txt", "a before\n");
    h.capture.tracker().track(h.workspace.root(), TrackingOptions.DEFAULTS);
    begin("A", "A1");
    begin("B", "B1");
    Files.writeString(h.workspace.resolve("x.txt"), "B-edit\n");
    Files.writeString(h.workspace.resolve("a.txt"), "A-edit\n");
    h.capture.finishTurn("A1");
    h.capture.finishTurn("B1");
    Map<String, String> tree = TreeContent.of(h.workspace.root());

    RewindReport dryRun = h.dryRun("A1");
    RewindReport report = h.rewindTurn("A1");
    for (RewindReport planned : List.of(dryRun, report)) {
      assertFalse(planned.complete(), planned.toString());
      Map<String, String> skipped = skipped(planned);
      assertEquals(List.of("a.txt", "x.txt"), skipped.keySet().stream().sorted().toList());
      skipped.forEach(
          (path, why) -> {
            assertTrue(why.startsWith("conflict: another session's work"), why);
            assertTrue(why.contains("also possible: turn B1 of session B"), why);
          });
    }
    assertEquals(tree, TreeContent.of(h.workspace.root()), "B's edit (and A's) stay as they are");
  }

  /**
   * A forced rewind puts a shared change back, storing what it overwrites first: rewinding its
   * rewind turn gives B's edit back.
   */
  @Test
  void aForcedRewindPutsASharedChangeBackAndItsUndoGivesTheOtherSessionsWorkBack()
      throws Exception {
    h.workspace.file("x.txt", "x before\n");
    h.capture.tracker().track(h.workspace.root(), TrackingOptions.DEFAULTS);
    begin("A", "A1");
    begin("B", "B1");
    Files.writeString(h.workspace.resolve("x.txt"), "B-edit\n");
    h.capture.finishTurn("A1");
    h.capture.finishTurn("B1");
    RewindReport forced = h.force("A1");
    assertEquals(List.of(WorkspacePath.of("x.txt")), forced.restored(), forced.toString());
    assertEquals("x before\n", Files.readString(h.workspace.resolve("x.txt")));
    RewindReport undo = h.rewindTurn(forced.rewindTurn().orElseThrow());
    assertTrue(undo.complete(), undo.toString());
    assertEquals("B-edit\n", Files.readString(h.workspace.resolve("x.txt")));
  }

  /**
   * Paths each session's tool calls named while no shell call was in flight are that session's
   * alone (their runtimes bracket their shell calls, and the service watches): rewinding A1 puts
   * back A's file and never touches B's, which A1 did not record. (Where a turn's shell could have
   * written the other's named path, it records it too, shared: TwoSessionsTest.)
   */
  @Test
  void eachSessionsNamedChangesAreItsOwnAndItsRewindTouchesNothingElse() throws Exception {
    assumeTrue(Portability.current().watches(), "nothing is watched in the posix mode");
    h.workspace.file("x.txt", "x before\n").file("a.txt", "a before\n");
    try (CaptureService watched =
        new CaptureService(h.store, h.handles, WatchOptions.SERVICE, turnRow -> {})) {
      watched.tracker().track(h.workspace.root(), TrackingOptions.DEFAULTS);
      watched.beginTurn(h.workspace.root(), Optional.of("A"), Optional.of("A1"), true);
      watched.beginTurn(h.workspace.root(), Optional.of("B"), Optional.of("B1"), true);
      watched.snapshot("A1", Optional.of("a-edit"), List.of("a.txt"));
      watched.snapshot("B1", Optional.of("b-edit"), List.of("x.txt"));
      Files.writeString(h.workspace.resolve("x.txt"), "B-edit\n");
      Files.writeString(h.workspace.resolve("a.txt"), "A-edit\n");
      watched.finishTurn("A1");
      watched.finishTurn("B1");
    }
    RewindReport report = h.rewindTurn("A1");
    assertTrue(report.complete(), report.toString());
    assertEquals(List.of(WorkspacePath.of("a.txt")), report.restored());
    assertEquals("a before\n", Files.readString(h.workspace.resolve("a.txt")));
    assertEquals("B-edit\n", Files.readString(h.workspace.resolve("x.txt")));
  }

  /**
   * A rewind takes the states it wrote into the index (review finding 2): session A's undo while B1
   * is open is no change of B1's, neither at B1's finish nor through another turn's begin, and
   * undoing the undo meets no later work of B. Before, B1 recorded a.txt as its own change (found
   * by the scan), and rewinding A's rewind turn was blocked as "changed later by turn B1".
   */
  @Test
  void aRewindsWritesAreInTheIndexSoNoOpenTurnOfAnotherSessionRecordsThem() throws Exception {
    h.workspace.file("a.txt", "a before\n");
    h.capture.tracker().track(h.workspace.root(), TrackingOptions.DEFAULTS);
    begin("A", "A1");
    h.capture.snapshot("A1", Optional.of("a-edit"), List.of("a.txt"));
    Files.writeString(h.workspace.resolve("a.txt"), "A-edit\n");
    h.capture.finishTurn("A1");
    begin("B", "B1");
    RewindReport undo = h.rewindTurn("A1");
    assertEquals(List.of(WorkspacePath.of("a.txt")), undo.restored(), undo.toString());
    begin("C", "C1");
    h.capture.finishTurn("C1");
    h.capture.finishTurn("B1");
    assertEquals(List.of(), h.queries.records("B1").changes(), "B1 made no change");
    assertEquals(List.of(), h.queries.records("C1").changes(), "C1 made no change");
    RewindReport redo = h.rewindTurn(undo.rewindTurn().orElseThrow());
    assertTrue(redo.complete(), redo.toString());
    assertEquals("A-edit\n", Files.readString(h.workspace.resolve("a.txt")));
  }

  /**
   * A path a later turn of another session changed is a conflict naming it, though A's hunk would
   * reverse cleanly on top of B's (before the fix the rewind merged it, exit 0, no word about B).
   */
  @Test
  void aPathALaterTurnOfAnotherSessionChangedIsAConflictNamingIt() throws Exception {
    String lines = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n";
    h.workspace.file("p.txt", lines);
    begin("A", "A1");
    h.capture.snapshot("A1", Optional.of("a-edit"), List.of("p.txt"));
    Files.writeString(h.workspace.resolve("p.txt"), lines.replace("1\n2\n", "one\n2\n"));
    h.capture.finishTurn("A1");
    begin("B", "B1");
    h.capture.snapshot("B1", Optional.of("b-edit"), List.of("p.txt"));
    String both = lines.replace("1\n2\n", "one\n2\n").replace("10\n", "ten\n");
    Files.writeString(h.workspace.resolve("p.txt"), both);
    h.capture.finishTurn("B1");
    RewindReport report = h.rewindTurn("A1");
    assertEquals(
        Map.of(
            "p.txt",
            "conflict: another session's work: changed later by turn B1 of session B (--force puts"
                + " it back, storing what it overwrites first)"),
        skipped(report));
    assertEquals(both, Files.readString(h.workspace.resolve("p.txt")));
  }

  /** How the turns' changes reach the store. */
  enum Capture {
    /** by the tool calls' snapshots alone */
    ANNOUNCED,
    /** in a tracked workspace, each begin and finish writing the index */
    TRACKED,
    /** tracked while the service watches, the turns' runtimes bracketing their shell calls */
    WATCHED
  }

  /**
   * Review finding 8: a turn of another session that was open when the rewound turn began, but
   * whose record of the path ended before the rewound turn looked at it, in the very state the
   * rewound turn found, did all its work on the path before: the rewind puts back B's edit, which
   * loses nothing of B's. Before the fix, B1 finishing after A1 began was enough to skip p as
   * "changed later by turn B1".
   */
  @ParameterizedTest
  @EnumSource(Capture.class)
  void aChangeAnotherSessionFinishedBeforeTheTurnLookedAtThePathIsNotLaterWork(Capture mode)
      throws Exception {
    assumeTrue(
        mode != Capture.WATCHED || Portability.current().watches(),
        "nothing is watched in the posix mode");
    h.workspace.file("p.txt", "p before\n");
    CaptureService watched =
        mode == Capture.WATCHED
            ? new CaptureService(h.store, h.handles, WatchOptions.SERVICE, turnRow -> {})
            : null;
    try {
      CaptureService capture = watched == null ? h.capture : watched;
      if (mode != Capture.ANNOUNCED) {
        capture.tracker().track(h.workspace.root(), TrackingOptions.DEFAULTS);
      }
      boolean brackets = mode == Capture.WATCHED;
      capture.beginTurn(h.workspace.root(), Optional.of("B"), Optional.of("B1"), brackets);
      capture.snapshot("B1", Optional.of("b-edit"), List.of("p.txt"));
      Files.writeString(h.workspace.resolve("p.txt"), "B-edit\n");
      capture.beginTurn(h.workspace.root(), Optional.of("A"), Optional.of("A1"), brackets);
      capture.finishTurn("B1");
      untilTheStoresClockMoves();
      capture.snapshot("A1", Optional.of("a-edit"), List.of("p.txt"));
      Files.writeString(h.workspace.resolve("p.txt"), "B-edit\nA-edit\n");
      capture.finishTurn("A1");
    } finally {
      if (watched != null) {
        watched.close();
      }
    }
    RewindReport dryRun = h.dryRun("A1");
    RewindReport report = h.rewindTurn("A1");
    for (RewindReport planned : List.of(dryRun, report)) {
      assertEquals(Map.of(), skipped(planned), planned.toString());
    }
    assertEquals(List.of(WorkspacePath.of("p.txt")), report.restored());
    assertEquals("B-edit\n", Files.readString(h.workspace.resolve("p.txt")));
  }

  /**
   * When unsure, still a named conflict: B1 finishes after A1's edit, so its record ends in A's
   * content, and whether B wrote p after A1 looked at it (an edit A's tool then built on) is not
   * known from what was recorded; nor is it when B1's record ends in another state than A1 found
   * (someone changed p in between).
   */
  @Test
  void aChangeAnotherSessionMayHaveMadeAfterTheTurnLookedStaysAConflict() throws Exception {
    h.workspace.file("p.txt", "p before\n").file("q.txt", "q before\n");
    begin("B", "B1");
    h.capture.snapshot("B1", Optional.of("b-edit"), List.of("p.txt", "q.txt"));
    Files.writeString(h.workspace.resolve("p.txt"), "B-edit\n");
    Files.writeString(h.workspace.resolve("q.txt"), "B-edit\n");
    begin("A", "A1");
    h.capture.snapshot("A1", Optional.of("a-edit"), List.of("p.txt"));
    Files.writeString(h.workspace.resolve("p.txt"), "B-edit\nA-edit\n");
    h.capture.finishTurn("B1");
    Files.writeString(h.workspace.resolve("q.txt"), "B-edit\nthe user's\n");
    untilTheStoresClockMoves();
    h.capture.snapshot("A1", Optional.of("a-edit-2"), List.of("q.txt"));
    Files.writeString(h.workspace.resolve("q.txt"), "B-edit\nthe user's\nA-edit\n");
    h.capture.finishTurn("A1");
    RewindReport report = h.rewindTurn("A1");
    String later =
        "conflict: another session's work: changed later by turn B1 of session B (--force puts"
            + " it back, storing what it overwrites first)";
    assertEquals(Map.of("p.txt", later, "q.txt", later), skipped(report));
    assertEquals("B-edit\nA-edit\n", Files.readString(h.workspace.resolve("p.txt")));
  }

  /** Waits until the store's clock has moved past the millisecond it reads now. */
  private void untilTheStoresClockMoves() throws InterruptedException {
    long now = h.store.clock().millis();
    while (h.store.clock().millis() <= now) {
      Thread.sleep(1);
    }
  }

  /**
   * A save the watcher saw while no tool call was in flight (between the turn's shell calls) is the
   * user's: the turn records it as made outside any call, and its rewind puts back what the call
   * changed but leaves the save, a conflict saying whose it is (before calls were bracketed, the
   * rewind put the file back over the user's save, complete and silent).
   */
  @Test
  void rewindingATurnLeavesAChangeMadeOutsideAnyCallAndSaysSo() throws Exception {
    assumeTrue(Portability.current().watches(), "nothing is watched in the posix mode");
    h.workspace.file("a.txt", "a before\n").file("u.txt", "u before\n");
    try (CaptureService watched =
        new CaptureService(h.store, h.handles, WatchOptions.SERVICE, turnRow -> {})) {
      watched.tracker().track(h.workspace.root(), TrackingOptions.DEFAULTS);
      watched.beginTurn(h.workspace.root(), Optional.of("A"), Optional.of("A1"), true);
      watched.beginShellCall("A1", ShellCall.of("a-1", "Bash", "sed -i s/a/A/ a.txt"));
      Files.writeString(h.workspace.resolve("a.txt"), "A-edit\n");
      watched.endShellCall("A1", "a-1");
      Files.writeString(h.workspace.resolve("u.txt"), "the user's save\n");
      watched.finishTurn("A1");
    }
    RewindReport dryRun = h.dryRun("A1");
    RewindReport report = h.rewindTurn("A1");
    for (RewindReport planned : List.of(dryRun, report)) {
      assertEquals(
          Map.of(
              "u.txt",
              "conflict: changed outside any tool call (no call of an open turn was running: the"
                  + " user's, e.g. an editor's save) (--force puts it back, storing what it"
                  + " overwrites first)"),
          skipped(planned));
    }
    assertEquals(List.of(WorkspacePath.of("a.txt")), report.restored());
    assertEquals("a before\n", Files.readString(h.workspace.resolve("a.txt")));
    assertEquals("the user's save\n", Files.readString(h.workspace.resolve("u.txt")));
  }
}
