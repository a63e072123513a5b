package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Turndiff;
import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27's reproduction through the command line, as a new user would try it: two sessions in one
 * tracked workspace, each shell editing a file while both turns are open. Before the fix the first
 * finish recorded both files, the second nothing, and rewinding the first put B's file back with
 * exit 0 and no word about B. Every output is checked for the canary.
 */
class TwoSessionsCommandsTest {

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Path database;
  private StoreCommandRuns commands;

  @BeforeEach
  void setUp() {
    workspace = TestWorkspace.in(temp);
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

  private void sh(String script) throws Exception {
    Process process =
        new ProcessBuilder("sh", "-c", script)
            .directory(workspace.root().toFile())
            .redirectErrorStream(true)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), script + ": " + output);
  }

  /** Path to the other turns each record names ({@code also_possible}), from {@code show}. */
  private Map<String, List<String>> alsoPossible(String turn) {
    Map<String, List<String>> records = new TreeMap<>();
    for (JsonNode record : turndiff("show", "--turn", turn).expect(0).json()) {
      List<String> also = new ArrayList<>();
      record
          .get("also_possible")
          .forEach(
              other -> also.add(other.get("turn").asText() + "/" + other.get("session").asText()));
      records.put(record.get("path").asText(), also);
    }
    return records;
  }

  @Test
  void theIssuesReproductionRecordsBothChangesInBothTurnsAndTheRewindLeavesBsEdit()
      throws Exception {
    String root = workspace.root().toString();
    workspace.file("x.txt", "x before\n").file("a.txt", "a before\n");
    turndiff("track", "--workspace", root).expect(0);
    turndiff("turn", "begin", "--workspace", root, "--session", "A", "--turn", "A1").expect(0);
    turndiff("turn", "begin", "--workspace", root, "--session", "B", "--turn", "B1").expect(0);
    sh("echo B-edit > x.txt");
    sh("echo A-edit > a.txt");
    String status = turndiff("status", "--workspace", root).expect(0).out();
    assertTrue(
        status.contains("M x.txt\n# x.txt could be turn A1 of session A, turn B1 of session B\n"),
        "the path line is the path alone, as git status --porcelain: " + status);
    JsonNode statusJson = turndiff("status", "--workspace", root, "--json").expect(0).json();
    assertEquals(
        2, statusJson.get("changes").get(0).get("open_turns").size(), statusJson.toString());

    turndiff("turn", "finish", "--turn", "A1").expect(0);
    JsonNode second = turndiff("turn", "finish", "--turn", "B1").expect(0).json();
    assertEquals(2, second.get("files").asInt(), "B1 records what the shell did while it was open");
    assertEquals(Map.of("a.txt", List.of("B1/B"), "x.txt", List.of("B1/B")), alsoPossible("A1"));
    assertEquals(Map.of("a.txt", List.of("A1/A"), "x.txt", List.of("A1/A")), alsoPossible("B1"));
    try (Turndiff views = Turndiff.open(database, BoundaryOptions.defaults())) {
      // the terminal's show and turns say it too, not the JSON alone
      String stat = new FileStat(Terminal.NONE).of(views.queries().records("A1").changes());
      assertTrue(stat.contains(" x.txt | 2 +-\n     also possible: turn B1 of session B\n"), stat);
      String rows = new TurnTable(views, Terminal.NONE).rows(views.queries().turns("A", 0, 9));
      assertTrue(rows.contains("2 shared"), rows);
    }

    JsonNode listing = turndiff("turns", "--session", "A").expect(0).json();
    JsonNode overlapping = listing.get("turns").get(0).get("overlapping");
    assertEquals("B1", overlapping.get(0).get("turn").asText(), listing.toString());
    assertEquals("B", overlapping.get(0).get("session").asText());

    JsonNode preview = turndiff("rewind", "--turn", "A1", "--dry-run").expect(3).json();
    JsonNode report = turndiff("rewind", "--turn", "A1").expect(3).json();
    for (JsonNode rewind : List.of(preview, report)) {
      assertEquals(2, rewind.get("skipped").size(), rewind.toString());
      for (JsonNode skipped : rewind.get("skipped")) {
        assertEquals("conflict", skipped.get("reason").asText());
        assertTrue(
            skipped.get("detail").asText().contains("also possible: turn B1 of session B"),
            skipped.toString());
      }
    }
    assertEquals("B-edit\n", Files.readString(workspace.resolve("x.txt")), "B's edit stays");
    assertEquals("A-edit\n", Files.readString(workspace.resolve("a.txt")));
  }
}
