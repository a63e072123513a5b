package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.api.Turndiff;
import io.turndiff.boundary.BoundaryOptions;
import org.junit.jupiter.api.Test;

/**
 * The human views' text, rendered in this JVM over a real store (what {@code show}, {@code log} and
 * {@code turns} print on a terminal, without the terminal: {@link Terminal#NONE} paints nothing):
 * they say what the JSON says. The views on a real
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
}
