package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireTurnRecords;
import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.review.TurnRecords;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A turn that moved a file, as {@code show} gives it: piped, both records marked ({@code
 * renamed_from}, {@code renamed_to}, {@code similarity}) with the tools that touched each; on a
 * terminal (rendered in this JVM, {@link Terminal#NONE}), one row {@code R old → new (N%)} with the
 * rename's own lines, and the old path no row of its own; the HTTP turn view's files are the same
 * records; and {@code diff} writes the rename as git does.
 */
class RenamedFileViewsTest extends InProcessCommandsTest {

  private static final String BODY =
      IntStream.rangeClosed(1, 30)
          .mapToObj(n -> "item " + n + " of the list the agent keeps\n")
          .collect(Collectors.joining());

  private void moveTurn() throws Exception {
    workspace.file("todo.md", BODY).file("keep.txt", "keep\n");
    String root = workspace.root().toString();
    turndiff("turn", "begin", "--workspace", root, "--session", "s1", "--turn", "t1").expect(0);
    turndiff("snapshot", "--turn", "t1", "--tool-call", "mv-1", "todo.md", "docs/todo.md")
        .expect(0);
    turndiff(
            "snapshot",
            "--turn",
            "t1",
            "--tool-call",
            "edit-2",
            "--tool",
            "Edit",
            "docs/todo.md",
            "keep.txt")
        .expect(0);
    Files.createDirectories(workspace.resolve("docs"));
    Files.move(workspace.resolve("todo.md"), workspace.resolve("docs/todo.md"));
    workspace.file("docs/todo.md", BODY.replace("item 3 of", "item three of"));
    workspace.file("keep.txt", "kept\n");
    turndiff("turn", "finish", "--turn", "t1").expect(0);
  }

  /**
   * {@code git diff -M --numstat} of the moved file between the turn's two trees, as {@code
   * ADDED\tREMOVED}: a git repository holding the old tree committed, then the new one staged.
   */
  private String gitNumstat() throws Exception {
    Path repo = Files.createDirectories(workspace.root().resolveSibling("git-trees"));
    git(repo, "init", "-q");
    Files.writeString(repo.resolve("todo.md"), BODY);
    git(repo, "add", "-A");
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "before");
    Files.createDirectories(repo.resolve("docs"));
    Files.move(repo.resolve("todo.md"), repo.resolve("docs/todo.md"));
    Files.writeString(repo.resolve("docs/todo.md"), BODY.replace("item 3 of", "item three of"));
    git(repo, "add", "-A");
    String numstat = git(repo, "diff", "--cached", "-M", "--numstat").strip();
    assertTrue(numstat.endsWith("todo.md => docs/todo.md"), numstat);
    return numstat.substring(0, numstat.lastIndexOf('\t'));
  }

  private static String git(Path repo, String... arguments) throws Exception {
    List<String> command = new ArrayList<>(List.of("git", "-C", repo.toString()));
    command.addAll(List.of(arguments));
    Process git = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, git.waitFor(), out);
    return out;
  }

  /**
   * The list of turns counts a rename as {@code show} does (one file, the rename's own lines), not
   * as the records' sums: it said "3 files +3 -7" of a turn whose {@code show} said "2 files
   * changed".
   */
  @Test
  void theListOfTurnsCountsARenameAsShowDoes() throws Exception {
    moveTurn();
    JsonNode turn = turndiff("turns", "--session", "s1").expect(0).json().get("turns").get(0);
    String[] numstat = gitNumstat().split("\t");
    // the rename's own lines, and keep.txt's one line changed
    assertEquals(2, turn.get("changed").asInt(), turn.toString());
    assertEquals(Long.parseLong(numstat[0]) + 1, turn.get("lines_added").asLong(), turn.toString());
    assertEquals(
        Long.parseLong(numstat[1]) + 1, turn.get("lines_removed").asLong(), turn.toString());
    assertEquals(3, turn.get("files").asInt(), "the records themselves: " + turn);
  }

  @Test
  void showMarksBothSidesOfTheRenameInTheJsonAndListsItOnceForAPerson() throws Exception {
    moveTurn();
    JsonNode records = turndiff("show", "--turn", "t1").expect(0).json();
    Map<String, JsonNode> byPath = new HashMap<>();
    records.forEach(record -> byPath.put(record.get("path").asText(), record));
    JsonNode renamed = byPath.get("docs/todo.md");
    assertEquals("todo.md", renamed.get("renamed_from").asText(), records.toString());
    assertTrue(renamed.get("renamed_to").isNull());
    int similarity = renamed.get("similarity").asInt();
    assertTrue(similarity >= 90 && similarity < 100, records.toString());
    assertEquals("docs/todo.md", byPath.get("todo.md").get("renamed_to").asText());
    assertEquals(similarity, byPath.get("todo.md").get("similarity").asInt());
    assertTrue(byPath.get("keep.txt").get("renamed_from").isNull());
    // a call given its tool's name (--tool) is named by it, one without by its id
    assertEquals("[\"call mv-1\",\"Edit\"]", renamed.get("tools").toString(), "in order");
    assertEquals("Edit", renamed.get("calls").get(1).get("tool").asText(), records.toString());
    // the rename's own lines, as git counts them; the old path's are the rename's
    assertEquals(gitNumstat(), renamed.get("added").asLong() + "\t" + renamed.get("removed"));
    assertEquals(0, byPath.get("todo.md").get("added").asLong(), records.toString());
    assertEquals(0, byPath.get("todo.md").get("removed").asLong(), records.toString());

    try (Turndiff turndiff = Turndiff.open(database, BoundaryOptions.defaults())) {
      TurnRecords turn = turndiff.queries().records("t1");
      String stat =
          new FileStat(Terminal.NONE)
              .of(
                  turn.changes(),
                  turndiff.queries().renames(turn),
                  rename -> turndiff.queries().renamePatch(turn, rename));
      assertTrue(stat.contains(" R todo.md → docs/todo.md (" + similarity + "%) | 2 +-\n"), stat);
      assertTrue(stat.contains("     by call mv-1, Edit\n"), stat);
      assertFalse(stat.contains(" D todo.md"), "the old path has no row: " + stat);
      assertTrue(stat.contains(" 2 files changed, 2 insertions(+), 2 deletions(-)"), stat);

      // the HTTP turn view (GET /v1/turns/{t}) is the same wire, read the same way
      JsonNode view =
          Json.mapper().readTree(Json.write(WireTurnRecords.read(turndiff.queries(), "t1"), false));
      assertEquals(records, view.get("files"), "show --json and the turn view agree");
    }

    String patch = turndiff("diff", "--turn", "t1").expect(0).out();
    assertTrue(
        patch.contains(
            "diff --git a/todo.md b/docs/todo.md\nsimilarity index "
                + similarity
                + "%\nrename from todo.md\nrename to docs/todo.md\n"),
        patch);
  }
}
