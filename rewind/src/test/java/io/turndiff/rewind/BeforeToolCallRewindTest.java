package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.turndiff.boundary.Portability;
import io.turndiff.capture.CaptureService;
import io.turndiff.capture.ShellCall;
import io.turndiff.capture.track.TrackingOptions;
import io.turndiff.capture.track.WatchOptions;
import io.turndiff.fixtures.TreeContent;
import io.turndiff.model.RequestException;
import io.turndiff.model.TurnState;
import io.turndiff.model.WorkspacePath;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A rewind to before one tool call of a turn (issue 24 item 1): that call and every later one are
 * rewound, earlier calls' changes stay; each path goes back to the before-state the first call at
 * or after it found. Over a real store and real files; the canary is checked after each test.
 */
class BeforeToolCallRewindTest extends HarnessTest {

  private RewindReport beforeCall(String turn, String call, boolean dryRun) {
    return h.rewind.rewind(
        new RewindRequest(
            turn, false, Optional.empty(), dryRun, false, List.of(), Optional.of(call)));
  }

  private void write(String path, String content) throws Exception {
    Files.writeString(h.workspace.resolve(path), content);
  }

  private String read(String path) throws Exception {
    return Files.readString(h.workspace.resolve(path));
  }

  private static List<String> shown(List<WorkspacePath> paths) {
    return paths.stream().map(WorkspacePath::display).sorted().toList();
  }

  private static Map<String, String> skipped(RewindReport report) {
    return report.skipped().stream()
        .collect(
            Collectors.toMap(
                skip -> skip.path().display(), skip -> skip.reason() + ": " + skip.detail()));
  }

  /** Tool edits in three calls, a.txt named by the first and the third. */
  private String threeCalls() throws Exception {
    h.workspace.file("a.txt", "a0\n").file("b.txt", "b0\n");
    String turn =
        h.capture.beginTurn(h.workspace.root(), Optional.of("session-1"), Optional.empty()).turn();
    h.capture.snapshot(turn, Optional.of("t-1"), List.of("a.txt"));
    write("a.txt", "a1\n");
    h.capture.snapshot(turn, Optional.of("t-2"), List.of("b.txt"));
    write("b.txt", "b2\n");
    h.capture.snapshot(turn, Optional.of("t-3"), List.of("a.txt", "c.txt"));
    write("a.txt", "a3\n");
    write("c.txt", "c3\n");
    h.capture.finishTurn(turn);
    return turn;
  }

  @Test
  void rewindingToBeforeTheSecondCallKeepsTheFirstCallsEditAndPutsBackTheRest() throws Exception {
    String turn = threeCalls();
    RewindReport plan = beforeCall(turn, "t-2", true);
    RewindReport report = beforeCall(turn, "t-2", false);
    for (RewindReport each : List.of(plan, report)) {
      assertEquals(List.of("a.txt", "b.txt", "c.txt"), shown(each.restored()), each.toString());
      assertEquals(List.of("c.txt"), shown(each.deleted()));
      assertTrue(each.complete(), each.toString());
      assertEquals(Optional.of("t-2"), each.beforeToolCall());
    }
    assertEquals("a1\n", read("a.txt"), "the state before t-3 (after t-1), not the turn's before");
    assertEquals("b0\n", read("b.txt"));
    assertFalse(Files.exists(h.workspace.resolve("c.txt")));
    assertEquals(
        TurnState.FINISHED,
        h.store.read(tx -> tx.turns().require(turn)).state(),
        "a rewind of part of a turn does not mark it rewound");

    // undoable as every rewind: rewinding its turn puts the calls' work back
    RewindReport undo = h.rewindTurn(report.rewindTurn().orElseThrow());
    assertTrue(undo.complete(), undo.toString());
    assertEquals(
        List.of("a3\n", "b2\n", "c3\n"), List.of(read("a.txt"), read("b.txt"), read("c.txt")));
  }

  @Test
  void rewindingToBeforeTheLastCallLeavesWhatNoLaterCallTouched() throws Exception {
    String turn = threeCalls();
    RewindReport report = beforeCall(turn, "t-3", false);
    assertEquals(List.of("a.txt", "c.txt"), shown(report.restored()), report.toString());
    assertEquals("a1\n", read("a.txt"));
    assertEquals("b2\n", read("b.txt"), "t-2's edit stays: it came before t-3");
    assertFalse(Files.exists(h.workspace.resolve("c.txt")));
  }

  @Test
  void aCallTheTurnDidNotRecordOrWithToIsBadInputAndWritesNothing() throws Exception {
    String turn = threeCalls();
    Map<String, String> tree = TreeContent.of(h.workspace.root());
    RequestException unknown =
        assertThrows(RequestException.class, () -> beforeCall(turn, "t-9", false));
    assertEquals(RequestException.Problem.BAD_INPUT, unknown.problem());
    assertTrue(unknown.getMessage().contains("has no tool call 't-9'"), unknown.getMessage());
    RequestException withTo =
        assertThrows(
            RequestException.class,
            () ->
                h.rewind.rewind(
                    new RewindRequest(
                        turn,
                        true,
                        Optional.empty(),
                        false,
                        false,
                        List.of(),
                        Optional.of("t-2"))));
    assertEquals(RequestException.Problem.BAD_INPUT, withTo.problem());
    assertEquals(tree, TreeContent.of(h.workspace.root()));
  }

  /**
   * Shell calls bracketed by their hooks while the service watches: a change found while two calls
   * overlapped is rewound with the later one and the plan says so; a path an earlier shell call
   * changed and a later one changed again goes back to what the earlier one left; the user's save
   * between calls is named, left; a tool call's edit before them stays.
   */
  @Test
  void shellCallsUnderTheWatcherOverlappingCallsAndTheUsersSave() throws Exception {
    assumeTrue(Portability.current().watches(), "nothing is watched in the posix mode");
    h.workspace
        .file("x.txt", "x0\n")
        .file("y.txt", "y0\n")
        .file("z.txt", "z0\n")
        .file("u.txt", "u0\n");
    try (CaptureService watched =
        new CaptureService(h.store, h.handles, WatchOptions.SERVICE, turnRow -> {})) {
      watched.tracker().track(h.workspace.root(), TrackingOptions.DEFAULTS);
      watched.beginTurn(h.workspace.root(), Optional.of("A"), Optional.of("A1"), true);
      watched.snapshot("A1", Optional.of("t-1"), List.of("x.txt"));
      write("x.txt", "x1\n");
      watched.beginShellCall("A1", ShellCall.of("s-2", "Bash", "sed -i s/y0/y2/ y.txt"));
      write("y.txt", "y2\n");
      watched.beginShellCall("A1", ShellCall.of("s-3", "Bash", "sed -i s/z0/z3/ z.txt"));
      write("z.txt", "z3\n");
      watched.endShellCall("A1", "s-2");
      watched.endShellCall("A1", "s-3");
      write("u.txt", "the user's save\n");
      watched.beginShellCall("A1", ShellCall.of("s-4", "Bash", "sed -i s/y2/y4/ y.txt"));
      write("y.txt", "y4\n");
      watched.endShellCall("A1", "s-4");
      watched.finishTurn("A1");
    }
    RewindReport plan = beforeCall("A1", "s-3", true);
    RewindReport report = beforeCall("A1", "s-3", false);
    for (RewindReport each : List.of(plan, report)) {
      assertEquals(List.of("y.txt", "z.txt"), shown(each.restored()), each.toString());
      assertEquals(
          Map.of(
              "u.txt",
              "conflict: changed outside any tool call (no call of an open turn was running: the"
                  + " user's, e.g. an editor's save); a rewind to before tool call 's-3' leaves it:"
                  + " rewind the whole turn to revert it"),
          skipped(each));
    }
    assertEquals(
        Map.of(
            WorkspacePath.of("z.txt"),
            "made during calls 's-2' and 's-3', which overlapped: rewound together"),
        plan.notes(),
        "the plan says what goes back with the call");
    assertEquals("x1\n", read("x.txt"), "the tool call before s-3 keeps its edit");
    assertEquals("y2\n", read("y.txt"), "back to what s-2 left, before s-4");
    assertEquals("z0\n", read("z.txt"));
    assertEquals("the user's save\n", read("u.txt"));
  }

  /**
   * Without the watcher a scan's interval spans calls: a change no tool call named is the turn's
   * during an unknown call, and a rewind to before a call names it, left, instead of guessing.
   */
  @Test
  void aChangeWhoseCallIsUnknownIsNamedNotGuessed() throws Exception {
    h.workspace.file("a.txt", "a0\n").file("s.txt", "s0\n");
    h.capture.tracker().track(h.workspace.root(), TrackingOptions.DEFAULTS);
    String turn =
        h.capture.beginTurn(h.workspace.root(), Optional.of("session-1"), Optional.empty()).turn();
    h.capture.snapshot(turn, Optional.of("t-1"), List.of("a.txt"));
    write("a.txt", "a1\n");
    write("s.txt", "s1\n"); // a shell command no hook bracketed
    h.capture.finishTurn(turn);

    RewindReport report = beforeCall(turn, "t-1", false);
    assertEquals(List.of("a.txt"), shown(report.restored()), report.toString());
    assertEquals(
        Map.of(
            "s.txt",
            "unverified: changed during the turn while no watcher told its calls apart: whether"
                + " before or after tool call 't-1' is not known, so it is left; rewind the whole"
                + " turn to revert it"),
        skipped(report));
    assertEquals("a0\n", read("a.txt"));
    assertEquals("s1\n", read("s.txt"));
  }
}
