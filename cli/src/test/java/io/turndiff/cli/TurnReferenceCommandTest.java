package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestWorkspace;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Turn references ({@link TurnReference}) where commands take a turn, run in this JVM with their
 * output piped (JSON and patches, as scripts read them): {@code last}, {@code last~N}, a session's
 * number, the beginning of an id and the panel's short form; an ambiguous one is exit 2 naming the
 * candidates, and two sessions at work in one workspace are named rather than guessed between.
 */
class TurnReferenceCommandTest extends InProcessCommandsTest {

  /** Ids whose panel form is the same: {@code turn-3f2a9c0d…}. */
  private static final String FIRST = "turn-3f2a9c0d41b7e611";

  private static final String SECOND = "turn-3f2a9c0d99000000";
  private static final String THIRD = "turn-b0b0b0b0b0b0b0b0";

  private void threeTurns() throws Exception {
    workspace.file("a.txt", "zero\n");
    finishedTurn("s1", FIRST, "a.txt", "one\n");
    finishedTurn("s1", SECOND, "a.txt", "two\n");
    finishedTurn("s1", THIRD, "b.txt", "bee\n");
  }

  /** {@code show --turn REF} in the workspace, piped: the records as JSON. */
  private CommandRun show(String reference, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of("show", "--turn", reference, "--workspace", workspace.root().toString()));
    args.addAll(List.of(more));
    return turndiff(args.toArray(String[]::new));
  }

  @Test
  void everyFormNamesItsTurnAndThePipedOutputIsTheOneTheIdGives() throws Exception {
    threeTurns();
    String third = show(THIRD).expect(0).out();
    String second = show(SECOND).expect(0).out();
    String first = show(FIRST).expect(0).out();
    assertTrue(third.startsWith("[{") && third.contains("\"b.txt\""), third);

    assertEquals(third, show("last").expect(0).out());
    assertEquals(second, show("last~1").expect(0).out());
    assertEquals(first, show("last~2").expect(0).out());
    assertEquals(first, show("#1").expect(0).out());
    assertEquals(second, show("2").expect(0).out());
    assertEquals(third, show("turn-b0b").expect(0).out(), "the beginning of an id");
    assertEquals(third, show("turn-b0b0b0b0…").expect(0).out(), "the panel's short form");
    assertEquals(first, show("turn-3f2a9c0d4").expect(0).out());

    String patch =
        turndiff("diff", "--turn", "last~1", "--workspace", workspace.root().toString())
            .expect(0)
            .out();
    assertEquals(turndiff("diff", "--turn", SECOND).expect(0).out(), patch);
    assertTrue(patch.contains("-one\n+two\n"), patch);
    assertEquals(
        turndiff("diff", "--from", FIRST, "--to", SECOND).expect(0).out(),
        turndiff(
                "diff",
                "--from",
                "#1",
                "--to",
                "last~1",
                "--workspace",
                workspace.root().toString())
            .expect(0)
            .out());
    String plan =
        turndiff(
                "rewind",
                "--turn",
                "turn-b0",
                "--dry-run",
                "--workspace",
                workspace.root().toString())
            .expect(0)
            .json()
            .get("turns")
            .toString();
    assertEquals("[\"" + THIRD + "\"]", plan);
  }

  @Test
  void anAmbiguousBeginningIsExitTwoNamingEachTurnItBegins() throws Exception {
    threeTurns();
    // the panel shows both FIRST and SECOND as turn-3f2a9c0d…
    CommandRun ambiguous = show("turn-3f2a9c0d…").expect(2);
    assertTrue(ambiguous.err().contains("is ambiguous"), ambiguous.err());
    assertTrue(ambiguous.err().contains(FIRST + " (s1 #1, "), ambiguous.err());
    assertTrue(ambiguous.err().contains(SECOND + " (s1 #2, "), ambiguous.err());
    assertTrue(ambiguous.err().contains("give more of the id"), ambiguous.err());
    assertEquals("", ambiguous.out());
    turndiff("rewind", "--turn", "turn-", "--dry-run", "--workspace", workspace.root().toString())
        .expect(2);
    assertEquals("two\n", workspace.readText("a.txt"), "nothing was written");

    CommandRun unknown = show("turn-ffff").expect(1);
    assertTrue(unknown.err().contains("turn 'turn-ffff' does not exist"), unknown.err());
    CommandRun beyond = show("last~3").expect(1);
    assertTrue(beyond.err().contains("session 's1' has 3 turns"), beyond.err());
    assertTrue(show("#9").expect(1).err().contains("session 's1' has no turn #9"));
    assertTrue(show("a b").expect(2).err().contains("names no turn"));
  }

  @Test
  void twoSessionsAtWorkInOneWorkspaceAreNamedNotGuessedBetween() throws Exception {
    threeTurns();
    workspace.file("c.txt", "sea\n");
    finishedTurn("s2", "other-1", "c.txt", "c two\n");

    CommandRun several = show("last").expect(2);
    assertTrue(several.err().contains("2 sessions have recent turns in"), several.err());
    assertTrue(several.err().contains("s1 (its last turn "), several.err());
    assertTrue(several.err().contains("s2 (its last turn "), several.err());
    assertTrue(several.err().contains("--session"), several.err());
    assertTrue(show("#1").expect(2).err().contains("name one with --session"));

    assertEquals(show(THIRD).expect(0).out(), show("last", "--session", "s1").expect(0).out());
    assertEquals(show("other-1").expect(0).out(), show("last", "--session", "s2").expect(0).out());
    assertTrue(show("last", "--session", "s9").expect(1).err().contains("'s9' does not exist"));

    // s1's turns dated two hours back, as the store dates them: s2 alone is recent
    StoreRows.execute(
        database,
        "UPDATE turn SET began_at = began_at - 7200000, finished_at = finished_at - 7200000"
            + " WHERE session_id = (SELECT id FROM session WHERE external_id = 's1')");
    assertEquals(show("other-1").expect(0).out(), show("last").expect(0).out());
  }

  @Test
  void aBeginningIsFourCharactersAtLeast() throws Exception {
    finishedTurn("s1", "x9-only-turn", "a.txt", "one\n");
    CommandRun tooShort = show("x9").expect(2);
    assertTrue(tooShort.err().contains("'x9' is too short to name a turn"), tooShort.err());
    assertTrue(tooShort.err().contains("at least 4 characters"), tooShort.err());
    assertTrue(show("x9-o").expect(0).out().contains("\"a.txt\""));
    turndiff("rewind", "--turn", "x9-", "--workspace", workspace.root().toString()).expect(2);
    assertEquals("one\n", workspace.readText("a.txt"), "nothing was written");
  }

  @Test
  void aRewindMatchesABeginningOnlyInItsWorkspaceAndSaysWhichTurnItNamed() throws Exception {
    workspace.file("a.txt", "zero\n");
    finishedTurn("s1", "mine-ab12cd", "a.txt", "one\n");
    // another project's turn, in the same store
    TestWorkspace other = TestWorkspace.in(temp.resolve("other"));
    other.file("o.txt", "o0\n");
    turndiff(
            "turn",
            "begin",
            "--workspace",
            other.root().toString(),
            "--session",
            "s9",
            "--turn",
            "theirs-1")
        .expect(0);
    turndiff("snapshot", "--turn", "theirs-1", "o.txt").expect(0);
    other.file("o.txt", "o1\n");
    turndiff("turn", "finish", "--turn", "theirs-1").expect(0);

    // reading takes a beginning from anywhere in the store; a rewind only from its scope
    assertTrue(show("theirs").expect(0).out().contains("\"o.txt\""));
    String here = workspace.root().toString();
    CommandRun elsewhere = turndiff("rewind", "--turn", "theirs", "--workspace", here).expect(1);
    assertTrue(
        elsewhere.err().contains("turn 'theirs' does not exist in workspace " + here),
        elsewhere.err());
    turndiff("rewind", "--turn", "theirs", "--session", "s1").expect(1);
    CommandRun noTurnsThere =
        turndiff("rewind", "--turn", "theirs", "--workspace", temp.toString()).expect(1);
    assertTrue(noTurnsThere.err().contains("does not exist in workspace"), noTurnsThere.err());
    assertEquals("o1\n", other.readText("o.txt"), "the other project's turn was not rewound");

    // an id that no longer exists (mine-ab12) names a longer one only saying so, before writing
    CommandRun longer = turndiff("rewind", "--turn", "mine-ab12", "--workspace", here).expect(0);
    String err = longer.err();
    assertTrue(
        err.contains("'mine-ab12' is turn mine-ab12cd (session s1 #1) in "), "named: " + err);
    assertTrue(err.contains("of turn mine-ab12cd in "), "the operation names it too: " + err);
    assertTrue(err.indexOf("' is turn ") < err.indexOf("is starting"), err);
    assertEquals("zero\n", workspace.readText("a.txt"));
    other.assertOutsideUnchanged();
  }

  @Test
  void anIdIsItselfBeforeItIsAReference() throws Exception {
    // a runtime's ids that read like references name those turns, not the session's last or #1
    finishedTurn("s1", "t-a", "a.txt", "one\n");
    finishedTurn("s1", "last", "b.txt", "two\n");
    finishedTurn("s1", "1", "c.txt", "three\n");
    assertTrue(show("last").expect(0).out().contains("\"b.txt\""));
    assertEquals(
        "[\"last\"]",
        turndiff("rewind", "--turn", "last", "--dry-run").expect(0).json().get("turns").toString());
    assertEquals(
        "[\"1\"]",
        turndiff("rewind", "--turn", "1", "--dry-run").expect(0).json().get("turns").toString());
    assertEquals(
        "[\"t-a\"]",
        turndiff("rewind", "--turn", "#1", "--dry-run", "--workspace", workspace.root().toString())
            .expect(0)
            .json()
            .get("turns")
            .toString());
  }
}
