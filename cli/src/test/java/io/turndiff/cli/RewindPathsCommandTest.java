package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.Sha256;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code turndiff rewind --turn T PATH…}, run in this JVM against a real store and workspace: the
 * exit codes (0 done, 3 a conflict, 2 a bad path with nothing written), the report and the undo;
 * every output is checked for the canary.
 */
class RewindPathsCommandTest extends InProcessCommandsTest {

  private String begin() {
    return turndiff("turn", "begin", "--workspace", workspace.root().toString(), "--session", "s1")
        .expect(0)
        .json()
        .get("turn")
        .asText();
  }

  /** A turn that rewrote a.txt, b.txt and c.txt from "x before" to "x after". */
  private String threeFileTurn() throws Exception {
    for (String name : List.of("a", "b", "c")) {
      workspace.file(name + ".txt", name + " before\n");
    }
    String turn = begin();
    turndiff("snapshot", "--turn", turn, "a.txt", "b.txt", "c.txt").expect(0);
    for (String name : List.of("a", "b", "c")) {
      Files.writeString(workspace.resolve(name + ".txt"), name + " after\n");
    }
    turndiff("turn", "finish", "--turn", turn).expect(0);
    return turn;
  }

  @Test
  void oneFileGoesBackExitZeroAndItsUndoPutsItBack() throws Exception {
    String turn = threeFileTurn();
    CommandRun rewind = turndiff("rewind", "--turn", turn, "b.txt").expect(0);
    JsonNode report = rewind.json();
    assertEquals("[\"b.txt\"]", report.get("restored").toString(), rewind.out());
    assertEquals("[\"b.txt\"]", report.get("paths").toString(), rewind.out());
    assertEquals("b before\n", workspace.readText("b.txt"));
    assertEquals("a after\n", workspace.readText("a.txt"));
    assertEquals("c after\n", workspace.readText("c.txt"));

    CommandRun undo = turndiff("rewind", "--turn", report.get("rewind_turn").asText()).expect(0);
    assertEquals("[\"b.txt\"]", undo.json().get("restored").toString(), undo.out());
    assertEquals("b after\n", workspace.readText("b.txt"));
    assertTrue(undo.json().get("paths").isNull(), "the undo rewinds its whole rewind turn");
  }

  /**
   * A rename is a delete of the old name and an add of the new one, as the turn recorded them
   * (issue 22 item 5): rewinding the turn brings the old name back, byte for byte, and removes the
   * new one; its undo renames it again.
   */
  @Test
  void rewindingARenamedFilesTurnBringsBackTheOldName() throws Exception {
    workspace.file("old.txt", "kept content\n").file("other.txt", "x\n");
    String turn = begin();
    turndiff("snapshot", "--turn", turn, "old.txt", "new.txt").expect(0);
    Files.move(workspace.resolve("old.txt"), workspace.resolve("new.txt"));
    turndiff("turn", "finish", "--turn", turn).expect(0);

    JsonNode report = turndiff("rewind", "--turn", turn).expect(0).json();
    assertEquals("kept content\n", workspace.readText("old.txt"));
    assertFalse(Files.exists(workspace.resolve("new.txt")), report.toString());
    assertEquals("x\n", workspace.readText("other.txt"));

    turndiff("rewind", "--turn", report.get("rewind_turn").asText()).expect(0);
    assertEquals("kept content\n", workspace.readText("new.txt"), "the undo renames it again");
    assertFalse(Files.exists(workspace.resolve("old.txt")));
  }

  @Test
  void aConflictOnTheNamedFileExitsThree() throws Exception {
    String turn = threeFileTurn();
    workspace.file("b.txt", "the user's own b\n");
    CommandRun rewind = turndiff("rewind", "--turn", turn, "b.txt").expect(3);
    JsonNode skipped = rewind.json().get("skipped");
    assertEquals(1, skipped.size(), rewind.out());
    assertEquals("b.txt", skipped.get(0).get("path").asText());
    assertEquals("conflict", skipped.get(0).get("reason").asText());
    assertEquals("the user's own b\n", workspace.readText("b.txt"));
    assertEquals("a after\n", workspace.readText("a.txt"));
  }

  /**
   * A stored content whose row reads back as other bytes (changed on disk behind the store) is
   * never written: its path is left, named {@code damaged} with both hashes, the others go back,
   * and the command exits 3 as for any path it left.
   */
  @Test
  void aStoredContentThatReadsBackWrongIsLeftNamedAndExitsThree() throws Exception {
    String turn = threeFileTurn();
    Sha256 aBefore = Sha256.of("a before\n".getBytes(StandardCharsets.UTF_8));
    byte[] other = "other bytes\n".getBytes(StandardCharsets.UTF_8);
    StoreRows.execute(
        database,
        "UPDATE blob SET encoding = 'raw', data = X'"
            + HexFormat.of().formatHex(other)
            + "', size = "
            + other.length
            + ", base_sha256 = NULL, depth = 0 WHERE sha256 = '"
            + aBefore.hex()
            + "'");

    CommandRun rewind = turndiff("rewind", "--turn", turn).expect(3);
    JsonNode report = rewind.json();
    assertEquals("[\"b.txt\",\"c.txt\"]", report.get("restored").toString(), rewind.out());
    JsonNode skipped = report.get("skipped");
    assertEquals(1, skipped.size(), rewind.out());
    assertEquals("a.txt", skipped.get(0).get("path").asText());
    assertEquals("damaged", skipped.get(0).get("reason").asText());
    assertTrue(
        skipped
            .get(0)
            .get("detail")
            .asText()
            .contains(aBefore + " reads back as " + Sha256.of(other)),
        rewind.out());
    assertEquals("a after\n", workspace.readText("a.txt"), "never written with other bytes");
    assertEquals("b before\n", workspace.readText("b.txt"));
  }

  @Test
  void aPathTheTurnDidNotChangeOrOutsideTheWorkspaceExitsTwoNamingItAndWritesNothing()
      throws Exception {
    workspace.file("untouched.txt", "same\n");
    String turn = threeFileTurn();
    Map<String, Long> rows = StoreRows.count(database);
    String up = "../" + workspace.outside().getFileName() + "/secret.txt";
    for (String bad : List.of("untouched.txt", up, workspace.secret().toString())) {
      CommandRun refused = turndiff("rewind", "--turn", turn, "a.txt", bad).expect(2);
      assertEquals("", refused.out());
      assertTrue(refused.err().contains("'" + bad + "'"), refused.err());
      assertFalse(refused.err().contains("Exception"), refused.err());
    }
    CommandRun notBase64 = turndiff("rewind", "--turn", turn, "--path-base64", "*!").expect(2);
    assertTrue(notBase64.err().contains("'*!'"), notBase64.err());
    assertEquals("a after\n", workspace.readText("a.txt"), "not rewound beside a bad path");
    assertEquals(rows, StoreRows.count(database), "nothing was stored");
  }

  @Test
  void aNameThatIsNotUtf8IsRewoundByItsBase64() throws Exception {
    byte[] name = {'n', (byte) 0xFF, '.', 't', 'x', 't'};
    String encoded = Base64.getEncoder().encodeToString(name);
    String turn = begin();
    turndiff("snapshot", "--turn", turn, "--path-base64", encoded, "keep.txt").expect(0);
    TestWorkspace.run(
        "sh",
        "-c",
        "printf made > \"$1/$(printf 'n\\377.txt')\"",
        "sh",
        workspace.root().toString());
    workspace.file("keep.txt", "kept\n");
    turndiff("turn", "finish", "--turn", turn).expect(0);
    assertEquals(2, entries());

    CommandRun rewind = turndiff("rewind", "--turn", turn, "--path-base64", encoded).expect(0);
    assertEquals("[\"n\\\\xff.txt\"]", rewind.json().get("restored").toString(), rewind.out());
    assertEquals(1, entries(), "the created file with the non-UTF-8 name is gone");
    assertEquals("kept\n", workspace.readText("keep.txt"));
  }

  private long entries() throws Exception {
    try (Stream<Path> listing = Files.list(workspace.root())) {
      return listing.count();
    }
  }
}
