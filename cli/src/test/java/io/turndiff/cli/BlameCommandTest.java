package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code turndiff blame PATH [--json]} in this JVM on a real store and workspace: the lines as git
 * blame prints them, the JSON with the turns once each, the refusals (exit 2, nothing written), the
 * canary nowhere.
 */
class BlameCommandTest {

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Path database;
  private StoreCommandRuns commands;

  @BeforeEach
  void setUp() {
    workspace = TestWorkspace.in(temp).file("a.txt", "one\ntwo\n");
    database = TestStore.fileIn(temp);
    commands = new StoreCommandRuns(database);
  }

  @AfterEach
  void canary() {
    commands.assertNothingLeaked(workspace);
  }

  private CommandRun turndiff(String... args) {
    return commands.run(args);
  }

  private String turn(String content) throws Exception {
    String turn = commands.beginTurn(workspace, "s1");
    turndiff("snapshot", "--turn", turn, "a.txt").expect(0);
    Files.writeString(workspace.resolve("a.txt"), content);
    turndiff("turn", "finish", "--turn", turn).expect(0);
    return turn;
  }

  @Test
  void linesAsGitBlamePrintsThemAndAsJson() throws Exception {
    String first = turn("one\nTWO\n");
    String second = turn("one\nTWO\nthree\n");
    Files.writeString(workspace.resolve("a.txt"), "one\nTWO\nthree\nfour\n");
    String root = workspace.root().toString();

    List<String> lines =
        turndiff("blame", "--workspace", root, "a.txt").expect(0).out().lines().toList();
    assertEquals(4, lines.size(), String.join("\n", lines));
    assertTrue(lines.get(0).startsWith("before any turn "), lines.get(0));
    assertTrue(lines.get(0).endsWith(" 1) one"), lines.get(0));
    assertTrue(lines.get(1).startsWith(first + " (s1 #1 "), lines.get(1));
    assertTrue(lines.get(1).endsWith(" 2) TWO"), lines.get(1));
    assertTrue(lines.get(2).startsWith(second + " (s1 #2 "), lines.get(2));
    assertTrue(lines.get(3).startsWith("outside any turn "), lines.get(3));
    // the columns line up, as git blame's do
    assertEquals(
        1,
        IntStream.range(0, 4)
            .map(i -> lines.get(i).lastIndexOf(" " + (i + 1) + ") "))
            .distinct()
            .count());

    JsonNode json = turndiff("blame", "--workspace", root, "a.txt", "--json").expect(0).json();
    assertEquals("a.txt", json.get("path").asText());
    assertEquals(workspace.root().toRealPath().toString(), json.get("workspace").asText());
    assertEquals(4, json.get("lines").size());
    JsonNode two = json.get("lines").get(1);
    assertEquals(2, two.get("line").asInt());
    assertEquals("turn", two.get("origin").asText());
    assertEquals(first, two.get("turn").asText());
    assertEquals("TWO", two.get("text").asText());
    assertEquals("before_any_turn", json.get("lines").get(0).get("origin").asText());
    assertTrue(json.get("lines").get(0).get("turn").isNull());
    assertEquals("outside_any_turn", json.get("lines").get(3).get("origin").asText());
    assertEquals(2, json.get("turns").size());
    JsonNode turn = json.get("turns").get(1);
    assertEquals(second, turn.get("turn").asText());
    assertEquals("s1", turn.get("session").asText());
    assertEquals(2, turn.get("seq").asInt());
    assertTrue(turn.has("prompt") && turn.get("prompt").isNull());
    assertTrue(turn.has("runtime") && turn.get("runtime").isNull());
    assertTrue(turn.has("began_at"));
  }

  @Test
  void whatCannotBeBlamedIsExit2NamingItAndWritesNothing() throws Exception {
    turn("one\n");
    workspace.symlink("leak", workspace.secret().toString());
    workspace.file("bin", new byte[] {0, 1});
    String root = workspace.root().toString();
    var rows = StoreRows.countAtRest(database);
    CommandRun leak = turndiff("blame", "--workspace", root, "leak").expect(2);
    assertTrue(leak.err().contains("'leak'"), leak.err());
    CommandRun binary = turndiff("blame", "--workspace", root, "bin").expect(2);
    assertTrue(binary.err().contains("'bin' is binary"), binary.err());
    CommandRun missing = turndiff("blame", "--workspace", root, "nothing.txt").expect(2);
    assertTrue(missing.err().contains("'nothing.txt' does not exist now"), missing.err());
    assertEquals(rows, StoreRows.countAtRest(database));
  }
}
