package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.fixtures.CommandRun;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code turndiff rewind --turn T --hunk PATH:N} (issue 22 item 8) over a turn the CLI captured:
 * the dry run is the plan, the run reverses that hunk alone (exit 0), a hunk whose context changed
 * is a conflict (exit 3, nothing written), a malformed or missing hunk is a usage error or bad
 * input (exit 2), and rewinding the rewind's turn gives the file back byte for byte; every output
 * is checked for the canary.
 */
class HunkRewindCommandTest extends InProcessCommandsTest {

  private static final String BEFORE =
      "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\nl11\nl12\nl13\nl14\nl15\n";
  private static final String AFTER =
      BEFORE.replace("l2\n", "two\n").replace("l14\n", "fourteen\n");

  private String twoHunks() {
    workspace.file("f.txt", BEFORE);
    finishedTurn("s1", "t1", "f.txt", AFTER);
    return "t1";
  }

  @Test
  void theDryRunIsThePlanTheRunReversesOneHunkAndItsUndoGivesTheFileBack() throws Exception {
    String turn = twoHunks();
    JsonNode plan =
        turndiff("rewind", "--turn", turn, "--hunk", "f.txt:2", "--dry-run").expect(0).json();
    JsonNode run = turndiff("rewind", "--turn", turn, "--hunk", "f.txt:2").expect(0).json();
    for (JsonNode report : List.of(plan, run)) {
      assertEquals(2, report.get("hunk").asInt(), report.toString());
      assertEquals("f.txt", report.get("restored").get(0).asText(), report.toString());
    }
    assertEquals(
        AFTER.replace("fourteen\n", "l14\n"), Files.readString(workspace.resolve("f.txt")));
    turndiff("rewind", "--turn", run.get("rewind_turn").asText()).expect(0);
    assertEquals(AFTER, Files.readString(workspace.resolve("f.txt")), "undone byte for byte");
  }

  @Test
  void aHunkWhoseContextChangedIsAConflictAndABadOneIsRefused() throws Exception {
    String turn = twoHunks();
    String edited = AFTER.replace("l13\n", "thirteen\n");
    workspace.file("f.txt", edited);
    JsonNode conflict = turndiff("rewind", "--turn", turn, "--hunk", "f.txt:2").expect(3).json();
    assertEquals("conflict", conflict.get("skipped").get(0).get("reason").asText());
    CommandRun malformed = turndiff("rewind", "--turn", turn, "--hunk", "f.txt").expect(2);
    assertTrue(malformed.err().contains("is not PATH:N"), malformed.err());
    CommandRun missing = turndiff("rewind", "--turn", turn, "--hunk", "f.txt:3").expect(2);
    assertTrue(missing.err().contains("there is no hunk 3"), missing.err());
    CommandRun forced =
        turndiff("rewind", "--turn", turn, "--hunk", "f.txt:1", "--force").expect(2);
    assertTrue(forced.err().contains("does not go with --force"), forced.err());
    assertEquals(edited, Files.readString(workspace.resolve("f.txt")), "nothing written");
  }
}
