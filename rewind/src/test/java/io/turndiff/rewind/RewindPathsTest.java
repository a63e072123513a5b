package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.fixtures.StoreRows;
import io.turndiff.model.PathInput;
import io.turndiff.model.RequestException;
import io.turndiff.model.TurnState;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredRewindOperation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A rewind of some paths of a turn ({@code turndiff rewind --turn T PATH…}): only those paths go
 * back, under the same conflict, journal, directory and undo rules as a whole turn; a path the turn
 * did not change, or one outside the workspace, is refused before anything is written.
 */
class RewindPathsTest extends HarnessTest {

  private RewindReport rewindPaths(String turn, String... paths) {
    return h.rewind.rewind(request(turn, false, false, paths));
  }

  private static RewindRequest request(
      String turn, boolean dryRun, boolean force, String... paths) {
    return new RewindRequest(
        turn, false, Optional.empty(), dryRun, force, PathInput.texts(List.of(paths)));
  }

  /** A turn that rewrote a.txt, b.txt and c.txt ("before" to "after"). */
  private String threeFileTurn() {
    for (String name : List.of("a", "b", "c")) {
      h.workspace.file(name + ".txt", name + " before\n");
    }
    return h.turn(
        List.of("a.txt", "b.txt", "c.txt"),
        () -> {
          for (String name : List.of("a", "b", "c")) {
            Files.writeString(file(name + ".txt"), name + " after\n");
          }
        });
  }

  private List<String> recordedIn(String turn) {
    return h.store.read(
        tx ->
            tx.fileChanges().ofTurn(tx.turns().byExternalId(turn).orElseThrow().id()).stream()
                .map(StoredFileChange::path)
                .map(WorkspacePath::display)
                .toList());
  }

  private TurnState state(String turn) {
    return h.store.read(tx -> tx.turns().byExternalId(turn)).orElseThrow().state();
  }

  @Test
  void oneOfThreeChangedFilesGoesBackAndTheOtherTwoStayAsTheTurnLeftThem() throws Exception {
    String turn = threeFileTurn();
    RewindReport report = rewindPaths(turn, "b.txt");
    assertTrue(report.complete(), report.toString());
    assertEquals(List.of("b.txt"), paths(report.restored()));
    assertEquals(List.of("b.txt"), paths(report.paths()));
    assertEquals("a after\n", h.workspace.readText("a.txt"));
    assertEquals("b before\n", h.workspace.readText("b.txt"));
    assertEquals("c after\n", h.workspace.readText("c.txt"));
    assertEquals(
        TurnState.FINISHED, state(turn), "a rewind of some paths does not rewind the turn");
    String rewindTurn = report.rewindTurn().orElseThrow();
    assertEquals(List.of("b.txt"), recordedIn(rewindTurn), "the rewind turn records only b.txt");
    StoredRewindOperation operation =
        h.store.read(tx -> tx.rewinds().byExternalId(report.operation())).orElseThrow();
    assertEquals(List.of(WorkspacePath.of("b.txt")), operation.paths(), "the path set is stored");
  }

  @Test
  void theUndoOfARewindOfOneFilePutsBackExactlyThatFile() throws Exception {
    String turn = threeFileTurn();
    Map<String, String> afterTurn = tree();
    RewindReport report = rewindPaths(turn, "b.txt");
    h.workspace.file("c.txt", "c edited by the user since\n");
    RewindReport undo = h.rewindTurn(report.rewindTurn().orElseThrow());
    assertTrue(undo.complete(), undo.toString());
    assertEquals(List.of("b.txt"), paths(undo.restored()));
    assertEquals("b after\n", h.workspace.readText("b.txt"));
    assertEquals("c edited by the user since\n", h.workspace.readText("c.txt"));
    h.workspace.file("c.txt", "c after\n");
    assertEquals(afterTurn, tree());
  }

  @Test
  void aConflictOnTheNamedFileIsReportedAndTheOthersAreNotTouched() throws Exception {
    String turn = threeFileTurn();
    h.workspace.file("b.txt", "the user's own b\n");
    RewindReport report = rewindPaths(turn, "b.txt");
    assertFalse(report.complete());
    assertEquals(1, report.skipped().size(), report.toString());
    assertEquals("b.txt", report.skipped().getFirst().path().display());
    assertEquals("conflict", report.skipped().getFirst().reason());
    assertEquals("the user's own b\n", h.workspace.readText("b.txt"));
    assertEquals("a after\n", h.workspace.readText("a.txt"));
    assertEquals("c after\n", h.workspace.readText("c.txt"));
  }

  @Test
  void theDryRunShowsOnlyTheNamedPathsAndWritesNothing() throws Exception {
    String turn = threeFileTurn();
    Map<String, String> before = tree();
    Map<String, Long> rows = StoreRows.count(h.store);
    RewindReport plan = h.rewind.rewind(request(turn, true, false, "a.txt", "c.txt"));
    assertTrue(plan.dryRun());
    assertEquals(List.of("a.txt", "c.txt"), paths(plan.restored()));
    assertEquals(List.of("a.txt", "c.txt"), paths(plan.paths()));
    assertEquals(before, tree());
    assertEquals(rows, StoreRows.count(h.store));
  }

  @Test
  void aPathTheTurnDidNotChangeIsRefusedNamingItAndNothingIsWritten() throws Exception {
    h.workspace.file("untouched.txt", "same\n");
    String turn = threeFileTurn();
    Map<String, String> before = tree();
    Map<String, Long> rows = StoreRows.count(h.store);
    for (List<String> asked :
        List.of(List.of("untouched.txt"), List.of("a.txt", "untouched.txt"), List.of("nope"))) {
      RequestException refused =
          assertThrows(
              RequestException.class,
              () -> rewindPaths(turn, asked.toArray(String[]::new)),
              asked.toString());
      assertEquals(RequestException.Problem.BAD_INPUT, refused.problem());
      assertTrue(
          refused.getMessage().contains("'" + asked.getLast() + "'")
              && refused.getMessage().contains(turn),
          refused.getMessage());
    }
    assertEquals(before, tree(), "a.txt was not rewound with the bad path beside it");
    assertEquals(rows, StoreRows.count(h.store), "no operation, turn or entry was stored");
  }

  @Test
  void aPathOutsideTheWorkspaceOrWithDotDotIsRefusedAndNothingIsWritten() throws Exception {
    String turn = threeFileTurn();
    Map<String, String> before = tree();
    Map<String, Long> rows = StoreRows.count(h.store);
    String secret = h.workspace.secret().toString();
    String up = "../" + h.workspace.outside().getFileName() + "/secret.txt";
    for (String escaping : List.of(secret, up, "a.txt/../b.txt", "./a.txt", "..")) {
      RequestException refused =
          assertThrows(RequestException.class, () -> rewindPaths(turn, escaping), escaping);
      assertEquals(RequestException.Problem.BAD_INPUT, refused.problem(), escaping);
      assertTrue(refused.getMessage().contains(escaping), refused.getMessage());
    }
    RequestException bytes =
        assertThrows(
            RequestException.class,
            () ->
                h.rewind.rewind(
                    new RewindRequest(
                        turn,
                        false,
                        Optional.empty(),
                        false,
                        true,
                        List.of(PathInput.bytes(secret.getBytes(StandardCharsets.UTF_8))))));
    assertTrue(bytes.getMessage().contains("outside the workspace"), bytes.getMessage());
    assertEquals(before, tree());
    assertEquals(rows, StoreRows.count(h.store));
    // the canary (outside tree unchanged, the secret nowhere in the store) is checked after each
    // test
  }

  @Test
  void aDirectoryTheTurnCreatedGoesOnlyWithEverythingUnderIt() throws Exception {
    h.workspace.file("top.txt", "top before\n");
    String turn =
        h.turn(
            List.of("top.txt", "made/a.txt", "made/b.txt"),
            () -> {
              Files.writeString(file("top.txt"), "top after\n");
              h.workspace.file("made/a.txt", "a\n").file("made/b.txt", "b\n");
            });
    RewindReport one = rewindPaths(turn, "made/a.txt");
    assertTrue(one.complete(), "made/ still holds b.txt: left, and not reported: " + one);
    assertEquals(List.of("made/a.txt"), paths(one.restored()));
    assertEquals(List.of(), one.removedDirectories());
    assertFalse(Files.exists(file("made/a.txt")));
    assertTrue(Files.exists(file("made/b.txt")));

    RewindReport rest = rewindPaths(turn, "made");
    assertTrue(rest.complete(), rest.toString());
    assertEquals(List.of("made/b.txt"), paths(rest.restored()));
    assertEquals(
        List.of("made/a.txt"), paths(rest.unchanged()), "put back already by the first rewind");
    assertEquals(List.of("made"), paths(rest.removedDirectories()));
    assertFalse(Files.exists(file("made")));
    assertEquals("top after\n", h.workspace.readText("top.txt"), "outside the named directory");

    RewindReport undo = h.rewindTurn(rest.rewindTurn().orElseThrow());
    assertTrue(undo.complete(), undo.toString());
    assertEquals("b\n", h.workspace.readText("made/b.txt"));
    assertFalse(Files.exists(file("made/a.txt")), "the first rewind is not undone by this undo");
  }

  @Test
  void aWholeTurnRewindAfterARewindOfOneFileLeavesThatFileAsTheUserLeftIt() throws Exception {
    String turn = threeFileTurn();
    RewindReport one = rewindPaths(turn, "b.txt");
    h.workspace.file("b.txt", "b edited by the user after its rewind\n");
    RewindReport whole =
        h.rewind.rewind(new RewindRequest(turn, false, Optional.empty(), false, true));
    assertTrue(whole.complete(), whole.toString());
    assertEquals(List.of("a.txt", "c.txt"), paths(whole.restored()));
    assertEquals(List.of("b.txt"), paths(whole.unchanged()));
    assertEquals(
        "b edited by the user after its rewind\n",
        h.workspace.readText("b.txt"),
        "not written again, even with --force");
    assertEquals("a before\n", h.workspace.readText("a.txt"));
    assertEquals(TurnState.REWOUND, state(turn));
    assertFalse(recordedIn(whole.rewindTurn().orElseThrow()).contains("b.txt"));
    assertTrue(one.complete());
  }

  @Test
  void onceTheRewindOfOneFileIsUndoneAWholeTurnRewindPutsThatFileBackToo() throws Exception {
    String turn = threeFileTurn();
    RewindReport one = rewindPaths(turn, "b.txt");
    assertTrue(h.rewindTurn(one.rewindTurn().orElseThrow()).complete());
    assertEquals("b after\n", h.workspace.readText("b.txt"));
    RewindReport whole = h.rewindTurn(turn);
    assertTrue(whole.complete(), whole.toString());
    assertEquals(List.of("a.txt", "b.txt", "c.txt"), paths(whole.restored()));
    assertEquals("b before\n", h.workspace.readText("b.txt"));
  }

  @Test
  void anInterruptedRewindOfSomePathsIsResumedWithItsPathSetAndNoOtherSet() throws Exception {
    String turn = threeFileTurn();
    String id = h.interruptedRewind(request(turn, false, false, "a.txt", "b.txt"), 2);

    RequestException other = assertThrows(RequestException.class, () -> rewindPaths(turn, "a.txt"));
    assertEquals(RequestException.Problem.WRONG_STATE, other.problem());
    assertTrue(other.getMessage().contains(id), other.getMessage());
    assertThrows(RequestException.class, () -> h.rewindTurn(turn), "nor the whole turn");

    RewindReport resumed = rewindPaths(turn, "b.txt", "a.txt");
    assertEquals(id, resumed.operation());
    assertTrue(resumed.complete(), resumed.toString());
    assertEquals(List.of("a.txt", "b.txt"), paths(resumed.restored()));
    assertEquals("a before\n", h.workspace.readText("a.txt"));
    assertEquals("b before\n", h.workspace.readText("b.txt"));
    assertEquals("c after\n", h.workspace.readText("c.txt"));

    RequestException replayedWithOtherPaths =
        assertThrows(
            RequestException.class,
            () ->
                h.rewind.rewind(
                    new RewindRequest(
                        turn,
                        false,
                        Optional.of(id),
                        false,
                        false,
                        PathInput.texts(List.of("a.txt")))));
    assertEquals(RequestException.Problem.BAD_INPUT, replayedWithOtherPaths.problem());
  }

  @Test
  void withToThePathsOfTheTurnAndEveryLaterOneGoBack() throws Exception {
    String first = threeFileTurn();
    String second =
        h.turn(
            List.of("a.txt", "b.txt"),
            () -> {
              Files.writeString(file("a.txt"), "a later\n");
              Files.writeString(file("b.txt"), "b later\n");
            });
    RewindReport report =
        h.rewind.rewind(
            new RewindRequest(
                first, true, Optional.empty(), false, false, PathInput.texts(List.of("a.txt"))));
    assertTrue(report.complete(), report.toString());
    assertEquals(List.of(second, first), report.turns());
    assertEquals("a before\n", h.workspace.readText("a.txt"));
    assertEquals("b later\n", h.workspace.readText("b.txt"));
    assertEquals("c after\n", h.workspace.readText("c.txt"));
  }
}
