package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.capture.track.TrackingOptions;
import io.turndiff.model.PathInput;
import io.turndiff.model.TurnKind;
import io.turndiff.store.StoredTurn;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * In a tracked workspace the user's own edit between turns is a turn outside any turn (issue 22
 * item 6): a rewind's conflict names it, a rewind to an earlier turn leaves it, and only a rewind
 * of it by name puts it back out.
 */
class OutsideTurnRewindTest extends HarnessTest {

  private String first;
  private String second;
  private StoredTurn outside;

  /**
   * Turn 1 writes a.txt; the user then rewrites it between turns; turn 3 (whose begin records the
   * user's edit as turn 2, outside any turn) writes b.txt.
   */
  @BeforeEach
  void turnsWithTheUsersEditBetween() throws Exception {
    h.workspace.file("a.txt", "one\n").file("b.txt", "b\n");
    h.capture.tracker().track(h.workspace.root(), TrackingOptions.DEFAULTS);
    first = h.turn(List.of("a.txt"), () -> Files.writeString(file("a.txt"), "two\n"));
    // the user rewrites the line the turn wrote: no reverse merge can take the turn's change out
    Files.writeString(file("a.txt"), "two, as the user rewrote it\n");
    second = h.turn(List.of("b.txt"), () -> Files.writeString(file("b.txt"), "b, the agent's\n"));
    List<StoredTurn> turns =
        h.store.read(
            tx -> tx.turns().ofSession(tx.turns().byExternalId(first).orElseThrow().sessionId()));
    assertEquals(
        List.of(TurnKind.AGENT, TurnKind.OUTSIDE, TurnKind.AGENT),
        turns.stream().map(StoredTurn::kind).toList());
    outside = turns.get(1);
  }

  @Test
  void aConflictTheUsersEditMadeNamesTheOutsideTurn() {
    RewindReport plan = h.dryRun(first);
    assertEquals(
        List.of("a.txt conflict"),
        plan.skipped().stream().map(skip -> skip.path().display() + " " + skip.reason()).toList());
    RewindReport.ChangedBy by = plan.changedBy().get(plan.skipped().getFirst().path());
    assertEquals(outside.externalId(), by.turn(), "the outside turn explains the conflict");
    assertEquals(2, by.seq());
    assertTrue(by.outside());
  }

  @Test
  void aRewindToAnEarlierTurnLeavesTheUsersEdit() throws Exception {
    RewindReport report = h.rewindTo(first);
    assertEquals(List.of(second, first), report.turns(), "the outside turn is not rewound");
    assertEquals("b\n", Files.readString(file("b.txt")));
    assertEquals(
        "two, as the user rewrote it\n", Files.readString(file("a.txt")), "the user's edit stays");
    assertEquals(
        outside.externalId(), report.changedBy().get(report.skipped().getFirst().path()).turn());
  }

  @Test
  void theOutsideTurnRewoundByNamePutsTheUsersEditBackOut() throws Exception {
    RewindReport report = h.rewindTurn(outside.externalId());
    assertTrue(report.complete(), report.toString());
    assertEquals(List.of("a.txt"), paths(report.restored()));
    assertEquals("two\n", Files.readString(file("a.txt")), "as the agent's turn left it");
    assertEquals("b, the agent's\n", Files.readString(file("b.txt")));
  }

  /**
   * The panel offers "Rewind file…" on an outside turn as on an agent turn: one file of the user's
   * edits between turns is put back out, the other edit of the same outside turn stays.
   */
  @Test
  void oneFileOfAnOutsideTurnIsRewoundAndItsOtherEditStays() throws Exception {
    Files.writeString(file("b.txt"), "b, as the user rewrote it\n");
    Files.writeString(file("c.txt"), "c, the user's new file\n");
    String fourth = h.turn(List.of("d.txt"), () -> Files.writeString(file("d.txt"), "d\n"));
    List<StoredTurn> turns =
        h.store.read(
            tx -> tx.turns().ofSession(tx.turns().byExternalId(fourth).orElseThrow().sessionId()));
    StoredTurn edits = turns.get(3);
    assertEquals(TurnKind.OUTSIDE, edits.kind());

    RewindReport report =
        h.rewind.rewind(
            new RewindRequest(
                edits.externalId(),
                false,
                Optional.empty(),
                false,
                false,
                PathInput.texts(List.of("b.txt"))));
    assertTrue(report.complete(), report.toString());
    assertEquals(List.of("b.txt"), paths(report.restored()));
    assertEquals("b, the agent's\n", Files.readString(file("b.txt")), "as turn 3 left it");
    assertEquals("c, the user's new file\n", Files.readString(file("c.txt")), "not named: kept");
  }
}
