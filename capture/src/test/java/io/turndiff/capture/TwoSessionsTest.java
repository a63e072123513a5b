package io.turndiff.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.capture.track.TrackingOptions;
import io.turndiff.fixtures.RecordedChanges;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.RequestException;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.Store;
import io.turndiff.store.StoredTurn;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two agent sessions in one tracked workspace (issue 27): a change the shell made belongs to the
 * turns that could have made it, never to whichever finishes first. Each test runs with and without
 * the watcher, over a real store (SQLite, and PostgreSQL in the suite's postgres run) and real
 * files; every test checks the canary.
 */
class TwoSessionsTest {

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

  private String begin(String session, String turn) {
    return capture.beginTurn(workspace.root(), Optional.of(session), Optional.of(turn)).turn();
  }

  /**
   * The reproduction: both turns open, B's shell writes x.txt, A's shell a.txt; A1 finishes
   * first. Before the fix A1 recorded both and B1 nothing (so rewinding A1 put x.txt back over B's
   * edit). Both turns were open throughout, so either could have made either change: each turn
   * records both, each naming the other.
   */
  @ParameterizedTest(name = "watched: {0}")
  @ValueSource(booleans = {false, true})
  void aChangeMadeWhileTwoSessionsWorkedIsRecordedInBothAsShared(boolean watched) throws Exception {
    open(watched);
    workspace.file("x.txt", "x before\n").file("a.txt", "a before\n");
    capture.tracker().track(workspace.root(), TrackingOptions.DEFAULTS);
    begin("A", "A1");
    begin("B", "B1");
    Files.writeString(workspace.resolve("x.txt"), "B-edit\n");
    Files.writeString(workspace.resolve("a.txt"), "A-edit\n");
    capture.finishTurn("A1");
    capture.finishTurn("B1");
    assertEquals(
        Map.of("a.txt", List.of("turn B1 of session B"), "x.txt", List.of("turn B1 of session B")),
        RecordedChanges.alsoPossible(store, "A1"));
    assertEquals(
        Map.of("a.txt", List.of("turn A1 of session A"), "x.txt", List.of("turn A1 of session A")),
        RecordedChanges.alsoPossible(store, "B1"),
        "B1 records what the shell changed while it was open, though A1 finished first");
    assertEquals(
        "modified scan []", RecordedChanges.summary(store, "B1").get("x.txt"), "B1's record");
    assertEquals(
        "x before\n",
        beforeContent("B1", "x.txt"),
        "B1's before-state is the index's, from before either turn's change");
  }

  /**
   * A change made while A1 was the only turn open is A1's alone, though B1 begins (and rescans)
   * before A1 finishes: before the fix B1's begin took it into the index, and no turn recorded it.
   */
  @ParameterizedTest(name = "watched: {0}")
  @ValueSource(booleans = {false, true})
  void aChangeMadeWhileOneTurnWasOpenIsThatTurnsAloneThoughAnotherBeginsBeforeItFinishes(
      boolean watched) throws Exception {
    open(watched);
    workspace.file("a.txt", "a before\n");
    capture.tracker().track(workspace.root(), TrackingOptions.DEFAULTS);
    begin("A", "A1");
    Files.writeString(workspace.resolve("a.txt"), "A-edit\n");
    begin("B", "B1");
    capture.finishTurn("B1");
    capture.finishTurn("A1");
    assertEquals(Map.of("a.txt", List.of()), RecordedChanges.alsoPossible(store, "A1"));
    assertEquals(Map.of(), RecordedChanges.alsoPossible(store, "B1"));
  }

  /**
   * A path a tool call of B1 named is B1's, and A1's too while A1's shell could have written it:
   * B1's edit tool writes x.txt, then A's shell edits it again ({@code sed -i}). Before the fix A1
   * recorded nothing of x.txt (the path was B1's alone), so B1's record held A's edit and a rewind
   * of B1 reverted it without a word. Whichever turn finishes first, each records x.txt naming the
   * other. (Without a shell call of A1 in flight, B1's path stays its alone: ShellCallsTest.)
   */
  @ParameterizedTest(name = "watched: {0}, A1 finishes first: {1}")
  @CsvSource({"false, true", "false, false", "true, true", "true, false"})
  void aShellEditToAPathAnotherSessionsToolNamedIsRecordedInBothAsShared(
      boolean watched, boolean aFinishesFirst) throws Exception {
    open(watched);
    workspace.file("x.txt", "x before\n");
    capture.tracker().track(workspace.root(), TrackingOptions.DEFAULTS);
    begin("A", "A1");
    begin("B", "B1");
    capture.snapshot("B1", Optional.of("edit"), List.of("x.txt"));
    Files.writeString(workspace.resolve("x.txt"), "B-edit\n");
    Files.writeString(workspace.resolve("x.txt"), "B-edit\nA's sed\n");
    capture.finishTurn(aFinishesFirst ? "A1" : "B1");
    capture.finishTurn(aFinishesFirst ? "B1" : "A1");
    assertEquals(Map.of("x.txt", "modified scan []"), RecordedChanges.summary(store, "A1"));
    assertEquals(
        Map.of("x.txt", List.of("turn B1 of session B")),
        RecordedChanges.alsoPossible(store, "A1"));
    assertEquals(Map.of("x.txt", "modified snapshot [edit]"), RecordedChanges.summary(store, "B1"));
    assertEquals(
        Map.of("x.txt", List.of("turn A1 of session A")),
        RecordedChanges.alsoPossible(store, "B1"),
        "B1's record names A1, so a rewind of B1 leaves A's edit as A's work");
  }

  /**
   * {@code track} run again on a tracked workspace rebuilds its index: while a turn is open that
   * would take the turn's changes into the index and record them nowhere (review finding 2; before,
   * A1 then recorded nothing of x.txt). It is refused, naming the open turn, and writes nothing:
   * A1's finish still records x.txt. Once no turn is open, it runs.
   */
  @ParameterizedTest(name = "watched: {0}")
  @ValueSource(booleans = {false, true})
  void trackingATrackedWorkspaceAgainIsRefusedWhileATurnIsOpen(boolean watched) throws Exception {
    open(watched);
    workspace.file("x.txt", "x before\n");
    capture.tracker().track(workspace.root(), TrackingOptions.DEFAULTS);
    begin("A", "A1");
    Files.writeString(workspace.resolve("x.txt"), "A-edit\n");
    RequestException refused =
        assertThrows(
            RequestException.class,
            () -> capture.tracker().track(workspace.root(), TrackingOptions.DEFAULTS));
    assertEquals(RequestException.Problem.WRONG_STATE, refused.problem());
    assertTrue(refused.getMessage().contains("turn A1 of session A"), refused.getMessage());
    capture.finishTurn("A1");
    assertEquals(Map.of("x.txt", "modified scan []"), RecordedChanges.summary(store, "A1"));
    capture.tracker().track(workspace.root(), TrackingOptions.DEFAULTS);
  }

  /** A change made between turns is the user's: the next begin takes it into the index only. */
  @ParameterizedTest(name = "watched: {0}")
  @ValueSource(booleans = {false, true})
  void aChangeMadeWhileNoTurnWasOpenIsNoTurns(boolean watched) throws Exception {
    open(watched);
    workspace.file("u.txt", "u before\n");
    capture.tracker().track(workspace.root(), TrackingOptions.DEFAULTS);
    Files.writeString(workspace.resolve("u.txt"), "the user's edit\n");
    begin("A", "A1");
    begin("B", "B1");
    capture.finishTurn("A1");
    capture.finishTurn("B1");
    assertEquals(Map.of(), RecordedChanges.alsoPossible(store, "A1"));
    assertEquals(Map.of(), RecordedChanges.alsoPossible(store, "B1"));
  }

  /**
   * {@code status} names the open turns a pending change could belong to: both while both are open,
   * the namer first for a path a tool call named (the other's shell could have written it too),
   * none between turns.
   */
  @ParameterizedTest(name = "watched: {0}")
  @ValueSource(booleans = {false, true})
  void statusSaysWhichOpenTurnsAChangeCouldBelongTo(boolean watched) throws Exception {
    open(watched);
    workspace.file("x.txt", "x\n").file("named.txt", "n\n");
    capture.tracker().track(workspace.root(), TrackingOptions.DEFAULTS);
    Files.writeString(workspace.resolve("x.txt"), "between turns\n");
    assertEquals(List.of(), owners("x.txt"), "no turn is open");
    begin("A", "A1");
    begin("B", "B1");
    capture.snapshot("B1", Optional.of("edit"), List.of("named.txt"));
    Files.writeString(workspace.resolve("x.txt"), "shell\n");
    Files.writeString(workspace.resolve("named.txt"), "tool\n");
    assertEquals(List.of("A1", "B1"), owners("x.txt"));
    assertEquals(List.of("B1", "A1"), owners("named.txt"));
  }

  private List<String> owners(String path) {
    return capture.tracker().status(workspace.root()).couldBelongTo(WorkspacePath.of(path)).stream()
        .map(StoredTurn::externalId)
        .toList();
  }

  private String beforeContent(String turn, String path) {
    var change =
        RecordedChanges.of(store, turn).stream()
            .filter(recorded -> recorded.path().display().equals(path))
            .findFirst()
            .orElseThrow();
    byte[] content =
        store.read(tx -> tx.blobs().require(change.before().storedContent().orElseThrow()));
    return new String(content, StandardCharsets.UTF_8);
  }
}
