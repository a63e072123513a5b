package io.turndiff.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.capture.track.TrackingOptions;
import io.turndiff.fixtures.RecordedChanges;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.store.Store;
import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredToolCall;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shell call in flight owns what the watcher saw change while it ran (issue 27): two sessions'
 * shell calls, bracketed by their Pre and Post hooks ({@link CaptureService#beginShellCall}, {@link
 * CaptureService#endShellCall}), in one tracked workspace, over a real store (SQLite, and
 * PostgreSQL in the suite's postgres run), real files and the real watcher; every test checks the
 * canary.
 */
class ShellCallsTest {

  @TempDir Path temp;

  private WorkspaceCapture opened;
  private TestWorkspace workspace;
  private Store store;
  private CaptureService capture;

  private void open(boolean watched) {
    opened = WorkspaceCapture.open(temp, watched);
    workspace = opened.workspace;
    store = opened.store;
    capture = opened.capture;
  }

  @AfterEach
  void canary() {
    if (opened != null) {
      opened.close();
    }
  }

  /** Begins a turn as a runtime's hooks do whose Post hooks end its shell calls. */
  private void begin(String session, String turn) {
    capture.beginTurn(workspace.root(), Optional.of(session), Optional.of(turn), true);
  }

  /**
   * A turn whose runtime does not bracket its calls (the CLI's, OpenCode's) could have made any
   * change while it was open: one made during another session's call is recorded in it too, with no
   * call, and shared.
   */
  @Test
  void aTurnWhoseCallsAreNotBracketedKeepsWhatAnotherSessionsCallChanged() throws Exception {
    open(true);
    workspace.file("a.txt", "a\n");
    capture.tracker().track(workspace.root(), TrackingOptions.DEFAULTS);
    begin("A", "A1");
    capture.beginTurn(workspace.root(), Optional.of("cli"), Optional.of("C1"));
    capture.beginShellCall("A1", ShellCall.of("a-1", "Bash", "sed -i s/a/A/ a.txt"));
    write("a.txt", "A\n");
    capture.endShellCall("A1", "a-1");
    capture.finishTurn("A1");
    capture.finishTurn("C1");
    assertEquals(Map.of("a.txt", "calls [a-1]"), RecordedChanges.madeDuring(store, "A1"));
    assertEquals(Map.of("a.txt", "unknown []"), RecordedChanges.madeDuring(store, "C1"));
    assertEquals(
        Map.of("a.txt", List.of("turn A1 of session A")),
        RecordedChanges.alsoPossible(store, "C1"));
  }

  private void write(String path, String content) throws Exception {
    Files.writeString(workspace.resolve(path), content);
  }

  /**
   * Two sessions' shell calls run at different times and the user saves a file between them. Each
   * call owns what it changed, alone; the user's save is recorded in both turns as made outside any
   * call. Before the calls were bracketed, every change was recorded in both turns, shared: neither
   * turn's own work was its own.
   */
  @Test
  void eachShellCallOwnsWhatChangedWhileItRanAndASaveBetweenCallsIsOutsideAnyCall()
      throws Exception {
    open(true);
    workspace.file("a.txt", "a\n").file("b.txt", "b\n").file("u.txt", "u\n");
    capture.tracker().track(workspace.root(), TrackingOptions.DEFAULTS);
    begin("A", "A1");
    begin("B", "B1");
    capture.beginShellCall("A1", ShellCall.of("a-1", "Bash", "sed -i s/a/A/ a.txt\necho done"));
    write("a.txt", "A\n");
    assertTrue(capture.endShellCall("A1", "a-1"));
    write("u.txt", "the user's save\n");
    capture.beginShellCall("B1", ShellCall.of("b-1", "run_shell_command", "sed -i s/b/B/ b.txt"));
    write("b.txt", "B\n");
    assertTrue(capture.endShellCall("B1", "b-1"));
    capture.finishTurn("A1");
    capture.finishTurn("B1");

    assertEquals(
        Map.of("a.txt", "calls [a-1]", "u.txt", "outside []"),
        RecordedChanges.madeDuring(store, "A1"));
    assertEquals(
        Map.of("b.txt", "calls [b-1]", "u.txt", "outside []"),
        RecordedChanges.madeDuring(store, "B1"));
    assertEquals(
        Map.of("a.txt", List.of(), "u.txt", List.of("turn B1 of session B")),
        RecordedChanges.alsoPossible(store, "A1"),
        "a.txt is A1's alone: B1 had no call in flight");
    StoredToolCall call = recorded("A1", "a.txt").calls().getFirst();
    assertEquals(Optional.of("Bash"), call.toolName());
    assertEquals(Optional.of("sed -i s/a/A/ a.txt"), call.command(), "the first line");
    assertTrue(call.ended());
  }

  /**
   * Calls of two sessions that overlap in time: a change made while both ran is recorded in both
   * turns, during both calls; one made after the first ended is the second's alone.
   */
  @Test
  void aChangeMadeWhileTwoCallsRanIsDuringBothAndOneAfterTheFirstEndedIsTheSecondsAlone()
      throws Exception {
    twoSessionsEachInACall();
    write("x.txt", "X\n");
    capture.endShellCall("A1", "a-1");
    write("y.txt", "Y\n");
    capture.endShellCall("B1", "b-1");
    capture.finishTurn("B1");
    capture.finishTurn("A1");

    assertEquals(Map.of("x.txt", "calls [a-1, b-1]"), RecordedChanges.madeDuring(store, "A1"));
    assertEquals(
        Map.of("x.txt", "calls [a-1, b-1]", "y.txt", "calls [b-1]"),
        RecordedChanges.madeDuring(store, "B1"));
    assertEquals(
        Map.of("x.txt", List.of("turn A1 of session A"), "y.txt", List.of()),
        RecordedChanges.alsoPossible(store, "B1"));
  }

  /**
   * A path B1's edit tool named and wrote while no shell call of any turn was in flight is B1's
   * alone: A1 could only have made it outside any call, and the tool call explains it. One B1's
   * tool named that A1's shell call then edits (its {@code sed -i} over B's edit) is A1's too,
   * during that call, shared with B1's record: before, the named path was B1's alone whoever wrote
   * it, and a rewind of B1 reverted A's edit without a word.
   */
  @Test
  void aPathAToolNamedIsItsTurnsAloneUnlessAnotherSessionsShellCallRanWhileItChanged()
      throws Exception {
    open(true);
    workspace.file("x.txt", "x\n").file("y.txt", "y\n");
    capture.tracker().track(workspace.root(), TrackingOptions.DEFAULTS);
    begin("A", "A1");
    begin("B", "B1");
    capture.snapshot("B1", Optional.of("edit-x"), List.of("x.txt"));
    write("x.txt", "B\n");
    capture.snapshot("B1", Optional.of("edit-y"), List.of("y.txt"));
    write("y.txt", "B\n");
    capture.beginShellCall("A1", ShellCall.of("a-1", "Bash", "sed -i s/B/BA/ y.txt"));
    write("y.txt", "BA\n");
    capture.endShellCall("A1", "a-1");
    capture.finishTurn("A1");
    capture.finishTurn("B1");

    assertEquals(Map.of("y.txt", "calls [a-1]"), RecordedChanges.madeDuring(store, "A1"));
    assertEquals(
        Map.of("y.txt", List.of("turn B1 of session B")),
        RecordedChanges.alsoPossible(store, "A1"));
    assertEquals(
        Map.of("x.txt", List.of(), "y.txt", List.of("turn A1 of session A")),
        RecordedChanges.alsoPossible(store, "B1"));
  }

  /**
   * A call whose Post never came (Codex sends none for a patch run through the shell) stays in
   * flight until its turn finishes, which ends it; a Post for a call not in flight changes nothing.
   */
  @Test
  void aCallWithoutItsEndEndsWithItsTurn() throws Exception {
    open(true);
    workspace.file("x.txt", "x\n");
    capture.tracker().track(workspace.root(), TrackingOptions.DEFAULTS);
    begin("A", "A1");
    capture.beginShellCall("A1", ShellCall.of("a-1", "Bash", "apply_patch <<EOF"));
    write("x.txt", "X\n");
    assertFalse(capture.endShellCall("A1", "never-began"));
    capture.finishTurn("A1");
    assertEquals(Map.of("x.txt", "calls [a-1]"), RecordedChanges.madeDuring(store, "A1"));
    assertTrue(recorded("A1", "x.txt").calls().getFirst().ended());
  }

  /**
   * Two files a finish's scan finds changed while calls of two sessions ran: the finishing turn
   * records both, each during both calls (its records written whole, the links to the calls
   * together), and so does the other turn.
   */
  @Test
  void changesAFinishFindsDuringTwoCallsAreEachDuringBoth() throws Exception {
    twoSessionsEachInACall();
    write("x.txt", "X\n");
    write("y.txt", "Y\n");
    capture.finishTurn("A1");
    capture.finishTurn("B1");

    Map<String, String> both = Map.of("x.txt", "calls [a-1, b-1]", "y.txt", "calls [a-1, b-1]");
    assertEquals(both, RecordedChanges.madeDuring(store, "A1"));
    assertEquals(both, RecordedChanges.madeDuring(store, "B1"));
  }

  /**
   * Without the watcher the calls' hooks scan nothing, a scan's interval spans calls, and which
   * call made a change is not known: each open turn records it with no call (never a guess), as
   * before calls were bracketed; the calls themselves are still recorded.
   */
  @Test
  void withoutTheWatcherAChangeIsTheTurnsWithNoCall() throws Exception {
    open(false);
    workspace.file("a.txt", "a\n").file("u.txt", "u\n");
    capture.tracker().track(workspace.root(), TrackingOptions.DEFAULTS);
    begin("A", "A1");
    begin("B", "B1");
    capture.beginShellCall("A1", ShellCall.of("a-1", "Bash", "sed -i s/a/A/ a.txt"));
    write("a.txt", "A\n");
    capture.endShellCall("A1", "a-1");
    write("u.txt", "the user's save\n");
    capture.finishTurn("A1");
    capture.finishTurn("B1");
    Map<String, String> unknown = Map.of("a.txt", "unknown []", "u.txt", "unknown []");
    assertEquals(unknown, RecordedChanges.madeDuring(store, "A1"));
    assertEquals(unknown, RecordedChanges.madeDuring(store, "B1"));
  }

  /**
   * A command is kept as its first line's first 200 characters, each control character written as
   * {@code \\uXXXX}.
   */
  @Test
  void aCommandIsKeptAsItsFirstLineBoundedAndEscaped() {
    // 15 characters a time: 13 times and 5 more make 200
    ShellCall call = ShellCall.of("c", "Bash", "printf '\u001b[2J'\tx".repeat(40) + "\nrm -rf /");
    assertEquals(Optional.of("printf '\\u001b[2J'\\u0009x".repeat(13) + "print"), call.command());
  }

  /**
   * Two sessions' turns open in a watched, tracked workspace of x.txt and y.txt, a shell call of
   * each in flight: a-1 of A1, b-1 of B1.
   */
  private void twoSessionsEachInACall() throws Exception {
    open(true);
    workspace.file("x.txt", "x\n").file("y.txt", "y\n");
    capture.tracker().track(workspace.root(), TrackingOptions.DEFAULTS);
    begin("A", "A1");
    begin("B", "B1");
    capture.beginShellCall("A1", ShellCall.of("a-1", "Bash", "make"));
    capture.beginShellCall("B1", ShellCall.of("b-1", "Bash", "npm test"));
  }

  private StoredFileChange recorded(String turn, String path) {
    return RecordedChanges.of(store, turn).stream()
        .filter(change -> change.path().display().equals(path))
        .findFirst()
        .orElseThrow();
  }
}
