package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.fixtures.CommandRun;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code turndiff undo} in this JVM, its output piped (as a script runs it: no question can be
 * asked, so {@code --yes} or {@code --dry-run} is required): the plan is the run, exit 3 with the
 * report when a path is left, a second undo takes the turn before, and two sessions at work in the
 * workspace are named. Its terminal view and question are {@link HumanViewsProcessIT}'s.
 */
class UndoCommandTest extends InProcessCommandsTest {

  private CommandRun undo(String... more) {
    List<String> args =
        new ArrayList<>(List.of("undo", "--workspace", workspace.root().toString()));
    args.addAll(List.of(more));
    return turndiff(args.toArray(String[]::new));
  }

  private static List<String> texts(JsonNode array) {
    List<String> texts = new ArrayList<>();
    array.forEach(item -> texts.add(item.asText()));
    return texts;
  }

  @Test
  void theDryRunIsTheRunAndASecondUndoTakesTheTurnBefore() throws Exception {
    workspace.file("a.txt", "a0\n").file("b.txt", "b0\n");
    finishedTurn("s1", "t1", "a.txt", "a1\n");
    finishedTurn("s1", "t2", "b.txt", "b1\n");

    CommandRun refused = undo().expect(2);
    assertTrue(refused.err().contains("give --yes"), refused.err());
    assertEquals("b1\n", workspace.readText("b.txt"), "nothing was written");

    JsonNode plan = undo("--dry-run").expect(0).json();
    assertTrue(plan.get("dry_run").asBoolean());
    assertEquals(List.of("t2"), texts(plan.get("turns")));
    assertEquals("b1\n", workspace.readText("b.txt"), "a dry run writes nothing");

    JsonNode done = undo("--yes").expect(0).json();
    assertFalse(done.get("dry_run").asBoolean());
    for (String list : List.of("turns", "restored", "merged", "skipped", "unchanged")) {
      assertEquals(plan.get(list), done.get(list), list + ": the run did what the plan said");
    }
    assertEquals("b0\n", workspace.readText("b.txt"));
    assertEquals("a1\n", workspace.readText("a.txt"));

    JsonNode before = undo("--yes").expect(0).json();
    assertEquals(List.of("t1"), texts(before.get("turns")), "not the undo itself: the turn before");
    assertEquals("a0\n", workspace.readText("a.txt"));

    CommandRun none = undo("--yes").expect(1);
    assertTrue(none.err().contains("has no turn left to undo"), none.err());

    // what an undo did is put back by rewinding its rewind turn, as its report says
    turndiff("rewind", "--turn", before.get("rewind_turn").asText()).expect(0);
    assertEquals("a1\n", workspace.readText("a.txt"));
  }

  @Test
  void aConflictIsExitThreeWithTheReportAndTheUsersEditStays() throws Exception {
    workspace.file("a.txt", "one\n");
    finishedTurn("s1", "t1", "a.txt", "two\n");
    // the user rewrites the line the turn wrote: the turn's change cannot be taken back over it
    workspace.file("a.txt", "mine\n");

    CommandRun plan = undo("--dry-run").expect(3);
    JsonNode skipped = plan.json().get("skipped");
    assertEquals(1, skipped.size(), plan.out());
    assertEquals("a.txt", skipped.get(0).get("path").asText());

    CommandRun run = undo("--yes").expect(3);
    assertEquals(skipped, run.json().get("skipped"), "the run left what the plan said it would");
    assertFalse(run.json().get("skipped").get(0).get("reason").asText().isEmpty());
    assertEquals("mine\n", workspace.readText("a.txt"), "the user's edit is never overwritten");
    assertTrue(
        run.json().get("rewind_turn").isNull(),
        "a rewind that put nothing back records no rewind turn: " + run.out());
    JsonNode turns = turndiff("turns", "--session", "s1").expect(0).json().get("turns");
    assertEquals(1, turns.size(), "no 'rewind · 0 files' turn: " + turns);
    assertEquals("finished", turns.get(0).get("state").asText(), "its change is still there");
  }

  @Test
  void twoSessionsWithRecentTurnsAreNamedAndOneIsChosenWithSession() throws Exception {
    workspace.file("a.txt", "a0\n").file("c.txt", "c0\n");
    finishedTurn("s1", "t1", "a.txt", "a1\n");
    finishedTurn("s2", "u1", "c.txt", "c1\n");

    CommandRun several = undo("--dry-run").expect(2);
    assertTrue(several.err().contains("2 sessions have recent turns"), several.err());
    assertTrue(several.err().contains("s1") && several.err().contains("s2"), several.err());
    assertTrue(several.err().contains("--session"), several.err());
    undo("--yes").expect(2);
    assertEquals("a1\n", workspace.readText("a.txt"));
    assertEquals("c1\n", workspace.readText("c.txt"));

    JsonNode done = undo("--yes", "--session", "s1").expect(0).json();
    assertEquals(List.of("t1"), texts(done.get("turns")));
    assertEquals("a0\n", workspace.readText("a.txt"));
    assertEquals("c1\n", workspace.readText("c.txt"), "the other session's work is left alone");
  }
}
