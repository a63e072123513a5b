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
import java.nio.file.Files;
import java.util.HashMap;
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
    turndiff("snapshot", "--turn", "t1", "--tool-call", "edit-2", "docs/todo.md", "keep.txt")
        .expect(0);
    Files.createDirectories(workspace.resolve("docs"));
    Files.move(workspace.resolve("todo.md"), workspace.resolve("docs/todo.md"));
    workspace.file("docs/todo.md", BODY.replace("item 3 of", "item three of"));
    workspace.file("keep.txt", "kept\n");
    turndiff("turn", "finish", "--turn", "t1").expect(0);
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
    assertEquals("[\"call mv-1\",\"call edit-2\"]", renamed.get("tools").toString(), "in order");

    try (Turndiff turndiff = Turndiff.open(database, BoundaryOptions.defaults())) {
      TurnRecords turn = turndiff.queries().records("t1");
      String stat =
          new FileStat(Terminal.NONE)
              .of(
                  turn.changes(),
                  turndiff.queries().renames(turn),
                  rename -> turndiff.queries().renamePatch(turn, rename));
      assertTrue(stat.contains(" R todo.md → docs/todo.md (" + similarity + "%) | 2 +-\n"), stat);
      assertTrue(stat.contains("     by call mv-1, call edit-2\n"), stat);
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
