package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Turndiff;
import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.store.StoredHookSighting;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The user's own edit between two turns of a tracked workspace, recorded as a turn outside any turn
 * (issue 22 item 6), as the commands show it: {@code turns} (the table and the JSON), {@code
 * blame}, the conflict it explains, {@code undo} and {@code last} passing over it, and {@code
 * rewind --turn} taking it back when named.
 */
class OutsideTurnCommandsTest extends InProcessCommandsTest {

  private String root;

  /** t1 writes a.txt; the user rewrites a.txt; t3 (its begin records #2, outside) writes b.txt. */
  @BeforeEach
  void twoTurnsWithTheUsersEditBetween() {
    workspace.file("a.txt", "one\n").file("b.txt", "b\n");
    root = workspace.root().toString();
    turndiff("track", "--workspace", root).expect(0);
    finishedTurn("s1", "t1", "a.txt", "two\n");
    workspace.file("a.txt", "two, as the user rewrote it\nand a line of the user's\n");
    finishedTurn("s1", "t3", "b.txt", "b, the agent's\n");
  }

  private JsonNode turns() {
    return turndiff("turns", "--session", "s1").expect(0).json().get("turns");
  }

  private String outsideTurn() {
    return turns().get(1).get("turn").asText();
  }

  @Test
  void turnsListsTheEditAsTurnTwoOutsideAnyTurn() throws Exception {
    JsonNode turns = turns();
    List<String> kinds = new ArrayList<>();
    turns.forEach(turn -> kinds.add(turn.get("seq").asInt() + " " + turn.get("kind").asText()));
    assertEquals(List.of("1 agent", "2 outside", "3 agent"), kinds);
    assertTrue(turns.get(1).get("title").isNull(), "no prompt made it: " + turns);
    assertEquals(1, turns.get(1).get("files").asInt());
    try (Turndiff turndiff = Turndiff.open(database, BoundaryOptions.defaults())) {
      String rows =
          new TurnTable(turndiff, Terminal.NONE).rows(turndiff.queries().turns("s1", 0, 9));
      List<String> outside =
          rows.lines().filter(row -> row.contains(" outside any turn ")).toList();
      assertEquals(1, outside.size(), rows);
      assertTrue(outside.getFirst().strip().startsWith("#2 "), rows);
      assertTrue(outside.getFirst().matches(".* \\+2 +-1\\b.*"), rows);
    }
  }

  /**
   * The warning changes outside any turn raised for a runtime whose process ran in the workspace,
   * as the service kept it in the store, is shown with the outside turn (and not with an agent's,
   * nor one of another workspace, nor a warning of another kind).
   */
  @Test
  void showOfTheOutsideTurnSaysWhichRuntimesHooksMayNotHaveFired() {
    Instant since = Instant.parse("2026-12-02T14:02:00Z");
    try (Turndiff turndiff = Turndiff.open(database, BoundaryOptions.defaults())) {
      turndiff
          .store()
          .write(
              tx -> {
                tx.hookSightings()
                    .put(
                        List.of(
                            sighting("codex", root, since, OUTSIDE_WARNING),
                            sighting("gemini", root, since, "a tool call arrived (T)"),
                            sighting("claude-code", "/elsewhere", since, OUTSIDE_WARNING)));
                return null;
              });
      String outside =
          ShowCommand.human(turndiff.queries().records(outsideTurn()), turndiff, Terminal.NONE);
      assertTrue(
          outside.contains(
              "    WARNING: hooks may not be firing for codex since 2026-12-02T14:02:00Z: "
                  + OUTSIDE_WARNING
                  + "\n"),
          outside);
      assertEquals(1, outside.split("WARNING", -1).length - 1, outside);
      String agent = ShowCommand.human(turndiff.queries().records("t3"), turndiff, Terminal.NONE);
      assertFalse(agent.contains("WARNING"), agent);
    }
  }

  private static final String OUTSIDE_WARNING =
      "changes outside any turn while its process 1234 runs in this workspace"
          + " (2026-12-02T14:02:00Z)";

  private static StoredHookSighting sighting(
      String runtime, String directory, Instant since, String warning) {
    return new StoredHookSighting(
        runtime,
        directory,
        "s",
        since,
        "Stop",
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        true,
        0,
        true,
        Optional.empty(),
        Optional.empty(),
        Optional.of(since),
        Optional.of(warning));
  }

  @Test
  void blameNamesTheOutsideTurnOnTheLinesTheUserWrote() {
    String outside = outsideTurn();
    List<String> lines =
        turndiff("blame", "--workspace", root, "a.txt").expect(0).out().lines().toList();
    assertEquals(2, lines.size(), lines.toString());
    for (String line : lines) {
      assertTrue(line.startsWith("outside any turn " + outside + " (s1 #2 "), line);
    }
    JsonNode json = turndiff("blame", "--workspace", root, "a.txt", "--json").expect(0).json();
    assertEquals("outside_any_turn", json.get("lines").get(0).get("origin").asText());
    assertEquals(outside, json.get("lines").get(0).get("turn").asText());
  }

  @Test
  void undoPassesOverItAndItsConflictNamesIt() {
    try (Turndiff turndiff = Turndiff.open(database, BoundaryOptions.defaults())) {
      TurnReference references =
          new TurnReference(turndiff, workspace.root(), false, Optional.empty());
      assertEquals("t3", references.resolve("last"));
      assertEquals("t1", references.resolve("last~1"), "last~1 does not count the user's edit");
      assertEquals(outsideTurn(), references.resolve("#2"), "#N numbers it");
    }
    JsonNode first = turndiff("undo", "--workspace", root, "--yes").expect(0).json();
    assertEquals("t3", first.get("turns").get(0).asText());
    CommandRun second = turndiff("undo", "--workspace", root, "--yes").expect(3);
    JsonNode report = second.json();
    assertEquals("t1", report.get("turns").get(0).asText(), "the outside turn is not undone");
    JsonNode conflict = report.get("skipped").get(0);
    assertEquals("a.txt", conflict.get("path").asText());
    assertEquals("conflict", conflict.get("reason").asText());
    assertEquals(outsideTurn(), conflict.get("changed_by").get("turn").asText());
    assertEquals("outside", conflict.get("changed_by").get("kind").asText());
    assertEquals(2, conflict.get("changed_by").get("seq").asInt());
    assertEquals(
        "two, as the user rewrote it\nand a line of the user's\n", workspace.readText("a.txt"));
  }

  @Test
  void rewindOfTheOutsideTurnByNamePutsTheUsersEditBackOut() {
    JsonNode report =
        turndiff("rewind", "--turn", "#2", "--workspace", root, "--session", "s1").expect(0).json();
    assertEquals(List.of(outsideTurn()), List.of(report.get("turns").get(0).asText()));
    assertEquals("two\n", workspace.readText("a.txt"));
    assertEquals("b, the agent's\n", workspace.readText("b.txt"));
    assertFalse(report.get("complete").isNull());
  }
}
