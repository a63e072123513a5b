package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireTurnRecords;
import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.model.TurnEnding;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The human views' text, rendered in this JVM over a real store (what {@code show}, {@code log} and
 * {@code turns} print on a terminal, without the terminal: {@link Terminal#NONE} paints nothing):
 * they say what the JSON says, and nothing a name holds can drive the terminal. The views on a real
 * pseudo-terminal are {@link HumanViewsProcessIT}'s.
 */
class HumanViewsTest extends InProcessCommandsTest {

  @Test
  void aFileThatCannotBeRewoundSaysSoAndWhyInShowAndTheTable() throws Exception {
    workspace.file("a.txt", "one\n").symlink("leak.txt", workspace.secret().toString());
    String root = workspace.root().toString();
    turndiff("turn", "begin", "--workspace", root, "--session", "s1", "--turn", "t1").expect(0);
    turndiff("snapshot", "--turn", "t1", "a.txt", "leak.txt").expect(0);
    workspace.file("a.txt", "two\n");
    turndiff("turn", "finish", "--turn", "t1").expect(0);

    try (Turndiff turndiff = Turndiff.open(database, BoundaryOptions.defaults())) {
      String stat = new FileStat(Terminal.NONE).of(turndiff.queries().records("t1").changes());
      assertTrue(stat.contains(" M a.txt "), stat);
      assertTrue(
          stat.contains(
              "leak.txt | not known (a side was not captured)\n"
                  + "     cannot be rewound: touched outside the workspace: not captured\n"
                  + "     containment: escaped\n"),
          stat);
      assertFalse(
          stat.substring(stat.indexOf("a.txt"), stat.indexOf('\n', stat.indexOf("a.txt")) + 2)
              .contains("     "),
          "an ordinary change has no notes: " + stat);
      String rows =
          new TurnTable(turndiff, Terminal.NONE).rows(turndiff.queries().turns("s1", 0, 9));
      assertTrue(rows.contains("1 not restorable"), rows);
    }
  }

  /**
   * A {@code .env} git ignores, which the shell rewrote in a workspace tracked with {@code
   * --ignored-files small}: {@code show} marks it "ignored by git" under its line, and its JSON
   * record says {@code "ignored": true}; the other file has neither.
   */
  @Test
  void aFileGitIgnoresIsMarkedSoInShow() throws Exception {
    workspace.file(".gitignore", ".env\n").file(".env", "KEY=1\n").file("a.txt", "one\n");
    String root = workspace.root().toString();
    turndiff("track", "--workspace", root, "--ignored-files", "small").expect(0);
    turndiff("turn", "begin", "--workspace", root, "--session", "s1", "--turn", "t1").expect(0);
    workspace.file(".env", "KEY=2\n").file("a.txt", "two\n");
    turndiff("turn", "finish", "--turn", "t1").expect(0);

    try (Turndiff turndiff = Turndiff.open(database, BoundaryOptions.defaults())) {
      String stat = new FileStat(Terminal.NONE).of(turndiff.queries().records("t1").changes());
      assertTrue(stat.contains(" M .env  | 2 +-\n     ignored by git\n M a.txt |"), stat);
    }
    JsonNode records = turndiff("show", "--turn", "t1").expect(0).json();
    assertEquals(".env", records.get(0).get("path").asText(), records.toString());
    assertTrue(records.get(0).get("ignored").asBoolean(), records.toString());
    assertFalse(records.get(1).has("ignored"), records.toString());
  }

  /**
   * A turn whose prompt the store kept is titled by the prompt's first line in {@code turns} (the
   * table and the JSON piped) and {@code show} (the rest below it, as a commit message's body), its
   * control characters shown, never sent to the terminal; a turn without one keeps the title made
   * of its paths.
   */
  @Test
  void aKeptPromptsFirstLineIsTheTurnsTitleInTurnsAndShow() throws Exception {
    workspace.file("a.txt", "one\n").file("b.txt", "b\n");
    String root = workspace.root().toString();
    for (String turn : List.of("t1", "t2")) {
      turndiff("turn", "begin", "--workspace", root, "--session", "s1", "--turn", turn).expect(0);
      turndiff("snapshot", "--turn", turn, turn.equals("t1") ? "a.txt" : "b.txt").expect(0);
      workspace.file(turn.equals("t1") ? "a.txt" : "b.txt", turn + "\n");
      turndiff("turn", "finish", "--turn", turn).expect(0);
    }
    try (Turndiff turndiff = Turndiff.open(database, BoundaryOptions.defaults())) {
      turndiff
          .store()
          .write(
              tx -> {
                tx.prompts()
                    .record(
                        tx.turns().require("t1").id(),
                        "\n  Fix the \u001b[31mtotal\u001b[0m  \nin a.txt\n\nthen run the tests\n");
                return null;
              });
      String rows =
          new TurnTable(turndiff, Terminal.NONE).rows(turndiff.queries().turns("s1", 0, 9));
      assertTrue(rows.contains(" Fix the ^[[31mtotal^[[0m "), rows);
      assertTrue(rows.contains(" b.txt "), "a turn without a prompt: " + rows);
      assertFalse(rows.contains("\u001b"), rows);
    }
    JsonNode listed = turndiff("turns", "--session", "s1").expect(0).json().get("turns");
    assertEquals("Fix the \u001b[31mtotal\u001b[0m", listed.get(0).get("title").asText());
    assertTrue(listed.get(1).get("title").isNull(), listed.toString());
    try (Turndiff turndiff = Turndiff.open(database, BoundaryOptions.defaults())) {
      JsonNode shown = Json.mapper().valueToTree(WireTurnRecords.read(turndiff.queries(), "t1"));
      assertEquals("Fix the \u001b[31mtotal\u001b[0m", shown.get("title").asText());
      assertTrue(shown.get("prompt").asText().contains("then run the tests"), shown.toString());
    }
  }

  /**
   * A turn the service finished because its runtime was gone (its ending noted, then finished, as
   * {@code GoneRuntimes} does) says so in the table; the JSON's {@code finished_by} is
   * WireGoldenTest's.
   */
  @Test
  void aTurnTheServiceFinishedSaysSoInTheTable() throws Exception {
    workspace.file("a.txt", "one\n");
    String root = workspace.root().toString();
    turndiff("turn", "begin", "--workspace", root, "--session", "s1", "--turn", "t1").expect(0);
    try (Turndiff turndiff = Turndiff.open(database, BoundaryOptions.defaults())) {
      turndiff
          .store()
          .write(
              tx -> {
                tx.turns().noteEnding(tx.turns().require("t1").id(), TurnEnding.RUNTIME_GONE);
                return null;
              });
    }
    turndiff("turn", "finish", "--turn", "t1").expect(0);

    try (Turndiff turndiff = Turndiff.open(database, BoundaryOptions.defaults())) {
      String rows =
          new TurnTable(turndiff, Terminal.NONE).rows(turndiff.queries().turns("s1", 0, 9));
      assertTrue(rows.contains("finished by turndiff: runtime gone"), rows);
    }
  }

  @Test
  void printableShowsC1ControlsAndBidiControlsAsCodePoints() {
    assertEquals("a^[[31mb", Terminal.printable("a\u001b[31mb"));
    assertEquals("csi<U+009B>31m", Terminal.printable("csi\u009b31m"));
    assertEquals("<U+0080><U+009F>", Terminal.printable("\u0080\u009f"));
    // a right-to-left override would show "txt.exe" as "exe.txt"
    assertEquals("invoice<U+202E>txt.exe", Terminal.printable("invoice\u202etxt.exe"));
    assertEquals("<U+2066>x<U+2069><U+200F>", Terminal.printable("\u2066x\u2069\u200f"));
    assertEquals("tab\tand\nnewline é ü 日本", Terminal.printable("tab\tand\nnewline é ü 日本"));
  }
}
