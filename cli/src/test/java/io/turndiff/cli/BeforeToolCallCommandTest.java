package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.fixtures.CommandRun;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code turndiff rewind --turn T --before-tool-call ID} over a turn captured by the CLI's own
 * {@code snapshot --tool-call} (issue 24 item 1): the dry run is the plan, the run puts back the
 * state before the call and keeps the earlier call's edit, a call the turn did not record is bad
 * input (exit 2) and writes nothing; every output is checked for the canary.
 */
class BeforeToolCallCommandTest extends InProcessCommandsTest {

  private static List<String> texts(JsonNode array) {
    List<String> texts = new ArrayList<>();
    array.forEach(node -> texts.add(node.asText()));
    return texts;
  }

  private String twoCalls() {
    workspace.file("a.txt", "a0\n").file("b.txt", "b0\n");
    String turn =
        turndiff(
                "turn",
                "begin",
                "--workspace",
                workspace.root().toString(),
                "--session",
                "s1",
                "--turn",
                "t1")
            .expect(0)
            .json()
            .get("turn")
            .asText();
    turndiff("snapshot", "--turn", turn, "--tool-call", "call-1", "a.txt").expect(0);
    workspace.file("a.txt", "a1\n");
    turndiff("snapshot", "--turn", turn, "--tool-call", "call-2", "a.txt", "b.txt", "new.txt")
        .expect(0);
    workspace.file("a.txt", "a2\n").file("b.txt", "b2\n").file("new.txt", "new\n");
    turndiff("turn", "finish", "--turn", turn).expect(0);
    return turn;
  }

  @Test
  void theDryRunIsThePlanAndTheRunKeepsTheEarlierCallsEdit() throws Exception {
    String turn = twoCalls();
    JsonNode plan =
        turndiff("rewind", "--turn", turn, "--before-tool-call", "call-2", "--dry-run")
            .expect(0)
            .json();
    JsonNode run =
        turndiff("rewind", "--turn", turn, "--before-tool-call", "call-2").expect(0).json();
    for (JsonNode report : List.of(plan, run)) {
      assertEquals("call-2", report.get("before_tool_call").asText(), report.toString());
      assertEquals(List.of("a.txt", "b.txt", "new.txt"), texts(report.get("restored")));
      assertEquals(List.of("new.txt"), texts(report.get("deleted")));
    }
    assertEquals("a1\n", Files.readString(workspace.resolve("a.txt")), "call-1's edit stays");
    assertEquals("b0\n", Files.readString(workspace.resolve("b.txt")));
    assertFalse(Files.exists(workspace.resolve("new.txt")));
    assertEquals(
        "finished",
        turndiff("turns", "--session", "s1")
            .expect(0)
            .json()
            .get("turns")
            .get(0)
            .get("state")
            .asText(),
        "part of a turn rewound: the turn still reads finished");
  }

  @Test
  void aCallTheTurnDidNotRecordIsBadInputAndWritesNothing() throws Exception {
    String turn = twoCalls();
    CommandRun unknown =
        turndiff("rewind", "--turn", turn, "--before-tool-call", "call-9").expect(2);
    assertTrue(unknown.err().contains("has no tool call 'call-9'"), unknown.err());
    CommandRun withTo =
        turndiff("rewind", "--turn", turn, "--to", "--before-tool-call", "call-2").expect(2);
    assertTrue(withTo.err().contains("does not go with --to"), withTo.err());
    assertEquals("a2\n", Files.readString(workspace.resolve("a.txt")));
    assertTrue(Files.exists(workspace.resolve("new.txt")));
  }
}
