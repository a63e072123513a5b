package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.PathInput;
import io.turndiff.model.RequestException;
import io.turndiff.model.TurnKind;
import io.turndiff.model.TurnState;
import io.turndiff.store.StoredTurn;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * A rewind of one hunk (issue 22 item 8) over a real store and real files: the hunk goes back, the
 * turn's other hunks and the user's later edits stay, a hunk whose context changed is a conflict,
 * and rewinding the rewind's turn gives the file back byte for byte. Runs on SQLite and, in the
 * suite's postgres run, on PostgreSQL; every test checks the canary.
 */
class HunkRewindTest extends HarnessTest {

  /** 30 lines; the turn changes line 3 and line 21: two hunks, far apart. */
  private static final String BEFORE = lines(IntStream.rangeClosed(1, 30).mapToObj(i -> "l" + i));

  private static final String AFTER =
      BEFORE.replace("l3\n", "THREE\n").replace("l21\n", "TWENTY-ONE\n");

  private static String lines(Stream<String> lines) {
    return lines.collect(Collectors.joining("\n", "", "\n"));
  }

  private String turnChangingFAndG() throws Exception {
    h.workspace.file("f.txt", BEFORE).file("g.txt", "g\n");
    return h.turn(
        List.of("f.txt", "g.txt"),
        () -> {
          Files.writeString(file("f.txt"), AFTER);
          Files.writeString(file("g.txt"), "G\n");
        });
  }

  private RewindReport hunk(String turn, String path, int number, boolean dryRun) {
    return h.rewind.rewind(
        RewindRequest.ofHunk(turn, Optional.empty(), dryRun, PathInput.text(path), number));
  }

  /** A request for hunk 1 of {@code paths}, forced or not, as no edge builds it. */
  private RewindReport hunkOf(String turn, boolean force, List<PathInput> paths) {
    return h.rewind.rewind(
        new RewindRequest(
            turn, false, Optional.empty(), false, force, paths, Optional.empty(), Optional.of(1)));
  }

  private StoredTurn turn(String id) {
    return h.store.read(tx -> tx.turns().byExternalId(id)).orElseThrow();
  }

  @Test
  void oneHunkGoesBackTheOthersStayAndTheUndoGivesTheFileBackByteForByte() throws Exception {
    String turn = turnChangingFAndG();
    byte[] afterTurn = Files.readAllBytes(file("f.txt"));
    RewindReport dry = hunk(turn, "f.txt", 2, true);
    RewindReport report = hunk(turn, "f.txt", 2, false);
    assertEquals(
        PatchAndRewindChecks.outcome(dry),
        PatchAndRewindChecks.outcome(report),
        "the dry run is the run");
    assertEquals(List.of("f.txt"), paths(report.restored()));
    assertEquals(Optional.of(2), report.hunk());
    assertTrue(report.complete());
    assertEquals(
        AFTER.replace("TWENTY-ONE\n", "l21\n"),
        Files.readString(file("f.txt")),
        "hunk 2 (line 21) went back; hunk 1 (line 3) stays as the turn made it");
    assertEquals("G\n", Files.readString(file("g.txt")), "the turn's other file is not touched");
    assertEquals(
        TurnState.FINISHED,
        turn(turn).state(),
        "a hunk is part of a turn: the turn is not marked rewound");
    StoredTurn rewindTurn = turn(report.rewindTurn().orElseThrow());
    assertEquals(TurnKind.REWIND, rewindTurn.kind());
    assertTrue(h.rewindTurn(rewindTurn.externalId()).complete());
    assertArrayEquals(afterTurn, Files.readAllBytes(file("f.txt")), "undone byte for byte");
  }

  @Test
  void aHunkGoesBackOnTopOfTheUsersLaterEditElsewhere() throws Exception {
    String turn = turnChangingFAndG();
    Files.writeString(file("f.txt"), "user's first line\n" + AFTER.replace("l12\n", "L12\n"));
    byte[] beforeRewind = Files.readAllBytes(file("f.txt"));
    RewindReport report = hunk(turn, "f.txt", 1, false);
    assertEquals(List.of("f.txt"), paths(report.merged()));
    assertEquals(
        "user's first line\n" + AFTER.replace("THREE\n", "l3\n").replace("l12\n", "L12\n"),
        Files.readString(file("f.txt")),
        "the hunk moved down a line and went back; the user's edits and hunk 2 stay");
    assertTrue(h.rewindTurn(report.rewindTurn().orElseThrow()).complete());
    assertArrayEquals(beforeRewind, Files.readAllBytes(file("f.txt")), "undone byte for byte");
  }

  @Test
  void aHunkWhoseContextChangedIsAConflictAndNothingIsWritten() throws Exception {
    String turn = turnChangingFAndG();
    String edited = AFTER.replace("l22\n", "the user's line 22\n");
    Files.writeString(file("f.txt"), edited);
    RewindReport dry = hunk(turn, "f.txt", 2, true);
    RewindReport report = hunk(turn, "f.txt", 2, false);
    assertEquals(PatchAndRewindChecks.outcome(dry), PatchAndRewindChecks.outcome(report));
    assertFalse(report.complete(), "exit 3");
    assertEquals(1, report.skipped().size());
    assertEquals("f.txt", report.skipped().getFirst().path().display());
    assertEquals(SkipReason.CONFLICT, report.skipped().getFirst().reason());
    assertEquals(edited, Files.readString(file("f.txt")), "never forced");
    assertEquals(Optional.empty(), report.rewindTurn(), "a rewind that wrote nothing adds no turn");
    assertEquals(List.of("f.txt"), paths(hunk(turn, "f.txt", 1, false).merged()), "hunk 1 still");
  }

  @Test
  void twoHunksOneAfterTheOtherAndThenThePathIsTheBeforeState() throws Exception {
    String turn = turnChangingFAndG();
    assertTrue(hunk(turn, "f.txt", 1, false).complete());
    RewindReport second = hunk(turn, "f.txt", 2, false);
    assertEquals(
        List.of("f.txt"),
        paths(second.merged()),
        "a hunk rewind does not put its path back whole: the second hunk is still to reverse");
    assertEquals(BEFORE, Files.readString(file("f.txt")));
  }

  @Test
  void whatHasNoSuchHunkIsRefusedNamingIt() throws Exception {
    h.workspace.file("f.txt", BEFORE).file("dir/x.txt", "x\n");
    String turn =
        h.turn(
            List.of("f.txt", "new.txt", "dir/x.txt"),
            () -> {
              Files.writeString(file("f.txt"), AFTER);
              Files.writeString(file("new.txt"), "made\n");
              Files.writeString(file("dir/x.txt"), "X\n");
            });
    assertRefused("there is no hunk 3", () -> hunk(turn, "f.txt", 3, false));
    assertRefused("created by the turn", () -> hunk(turn, "new.txt", 1, false));
    assertRefused("not a file the turn changed", () -> hunk(turn, "dir", 1, false));
    assertRefused("numbered from 1", () -> hunk(turn, "f.txt", 0, false));
    assertRefused("--force", () -> hunkOf(turn, true, List.of(PathInput.text("f.txt"))));
    assertRefused("one path", () -> hunkOf(turn, false, List.of()));
    assertEquals(AFTER, Files.readString(file("f.txt")), "nothing written");
  }

  private static void assertRefused(String words, Executable run) {
    RequestException refused = assertThrows(RequestException.class, run);
    assertEquals(RequestException.Problem.BAD_INPUT, refused.problem());
    assertTrue(refused.getMessage().contains(words), refused.getMessage());
  }
}
