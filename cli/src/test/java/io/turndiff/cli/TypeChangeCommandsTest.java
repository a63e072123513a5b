package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.fixtures.TreeContent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Issue 28's commands, as a new user runs them: a path that turns from a file into a directory or
 * back, and a directory a snapshot names, through {@code snapshot}, {@code show}, {@code diff}
 * (applied with the real {@code git apply}) and {@code rewind} ({@code --dry-run}, {@code --force},
 * {@code --to}); every output is checked for the canary.
 */
class TypeChangeCommandsTest extends InProcessCommandsTest {

  private void sh(String script) {
    TestWorkspace.run("sh", "-c", "cd '" + workspace.root() + "' && " + script);
  }

  private String begin(String turn) {
    return turndiff(
            "turn",
            "begin",
            "--workspace",
            workspace.root().toString(),
            "--session",
            "s1",
            "--turn",
            turn)
        .expect(0)
        .json()
        .get("turn")
        .asText();
  }

  private Map<String, String> changes(String turn) {
    Map<String, String> changes = new TreeMap<>();
    turndiff("show", "--turn", turn)
        .expect(0)
        .json()
        .forEach(record -> changes.put(record.get("path").asText(), record.get("change").asText()));
    return changes;
  }

  /** A tree as git sees it: its files and links. */
  private static Map<String, String> files(Map<String, String> tree) {
    Map<String, String> files = new TreeMap<>(tree);
    files.values().removeIf(entry -> entry.startsWith("dir "));
    return files;
  }

  private int applied;

  /**
   * {@code turndiff diff --turn T} applied with {@code git apply} (or {@code -R}) to a copy of the
   * workspace's files: the files it gives.
   */
  private Map<String, String> applied(String turn, boolean reverse) throws Exception {
    String patch = turndiff("diff", "--turn", turn).expect(0).out();
    Path patchFile = temp.resolve(turn + ".patch");
    Files.writeString(patchFile, patch);
    Path copy = temp.resolve("applied-" + applied++);
    TestWorkspace.run("cp", "-a", workspace.root().toString(), copy.toString());
    TestWorkspace.run(
        "git",
        "-C",
        copy.toString(),
        "apply",
        "--whitespace=nowarn",
        reverse ? "-R" : "--verbose",
        patchFile.toString());
    return files(TreeContent.of(copy));
  }

  private static List<String> texts(JsonNode array) {
    List<String> texts = new ArrayList<>();
    array.forEach(node -> texts.add(node.has("path") ? node.get("path").asText() : node.asText()));
    return texts;
  }

  @Test
  void aFileThatBecomesADirectoryIsPatchedAsGitDoesAndRewoundToTheFile() throws Exception {
    workspace.file("node", "f\n");
    Map<String, String> before = TreeContent.of(workspace.root());
    String turn = begin("t1");
    turndiff("snapshot", "--turn", turn, "node", "node/child.txt").expect(0);
    sh("rm node; mkdir node; echo c > node/child.txt");
    turndiff("turn", "finish", "--turn", turn).expect(0);
    Map<String, String> after = TreeContent.of(workspace.root());
    assertEquals(Map.of("node", "type_changed", "node/child.txt", "added"), changes(turn));

    // git apply -R of the patch to the after-tree gives the before-tree's files
    assertEquals(files(before), applied(turn, true), "git apply -R");

    CommandRun dry = turndiff("rewind", "--turn", turn, "--dry-run").expect(0);
    assertEquals(List.of("node", "node/child.txt"), texts(dry.json().get("restored")), dry.out());
    assertEquals(List.of("node"), texts(dry.json().get("removed_directories")), dry.out());
    CommandRun rewind = turndiff("rewind", "--turn", turn, "--force").expect(0);
    assertTrue(rewind.json().get("complete").asBoolean(), rewind.out());
    assertEquals(dry.json().get("restored"), rewind.json().get("restored"));
    assertEquals(dry.json().get("removed_directories"), rewind.json().get("removed_directories"));
    assertEquals(before, TreeContent.of(workspace.root()), "the file node, not an empty directory");
    assertEquals(files(after), applied(turn, false), "git apply");

    turndiff("rewind", "--turn", rewind.json().get("rewind_turn").asText()).expect(0);
    assertEquals(after, TreeContent.of(workspace.root()), "the undo");
  }

  @Test
  void aDirectoryThatBecomesAFileIsAddedInThePatchAndRewoundToTheDirectoryAndItsFiles()
      throws Exception {
    workspace.file("node/child.txt", "c\n");
    Map<String, String> before = TreeContent.of(workspace.root());
    String turn = begin("t2");
    turndiff("snapshot", "--turn", turn, "node", "node/child.txt").expect(0);
    sh("rm -r node; printf 'f\\n' > node");
    JsonNode summary = turndiff("turn", "finish", "--turn", turn).expect(0).json();
    assertEquals(0, summary.get("not_restorable").asInt(), summary.toString());
    Map<String, String> after = TreeContent.of(workspace.root());
    String patch = turndiff("diff", "--turn", turn).expect(0).out();
    assertTrue(patch.contains("new file mode 100644\n"), "the new file's content: " + patch);
    assertTrue(patch.contains("+f\n"), patch);
    assertEquals(files(before), applied(turn, true), "git apply -R");

    CommandRun rewind = turndiff("rewind", "--turn", turn).expect(0);
    assertEquals(List.of("node"), texts(rewind.json().get("created_directories")), rewind.out());
    assertEquals(before, TreeContent.of(workspace.root()));
    assertEquals(files(after), applied(turn, false), "git apply");
    turndiff("rewind", "--turn", rewind.json().get("rewind_turn").asText()).expect(0);
    assertEquals(after, TreeContent.of(workspace.root()));
  }

  @Test
  void aTrackedFileDirectoryFileChainIsRewoundWithToAsEveryChangeWasATurns() throws Exception {
    workspace.file("node", "f\n").file("keep", "k\n");
    turndiff("track", "--workspace", workspace.root().toString()).expect(0);
    Map<String, String> before = TreeContent.of(workspace.root());
    String first = begin("a1");
    sh("rm node; mkdir -p node/sub; echo c > node/sub/child.txt");
    turndiff("turn", "finish", "--turn", first).expect(0);
    String second = begin("a2");
    sh("rm -r node; echo g > node");
    turndiff("turn", "finish", "--turn", second).expect(0);
    Map<String, String> last = TreeContent.of(workspace.root());

    CommandRun dry = turndiff("rewind", "--turn", first, "--to", "--dry-run").expect(0);
    assertEquals(List.of(), texts(dry.json().get("skipped")), "no chain_broken: " + dry.out());
    CommandRun rewind = turndiff("rewind", "--turn", first, "--to").expect(0);
    assertEquals(before, TreeContent.of(workspace.root()));
    turndiff("rewind", "--turn", rewind.json().get("rewind_turn").asText()).expect(0);
    assertEquals(last, TreeContent.of(workspace.root()));
  }

  @Test
  void aDirectoryASnapshotNamesIsADirectoryRecordRemovedOrMadeAgainByTheRewind() throws Exception {
    workspace.directory("gone");
    Map<String, String> before = TreeContent.of(workspace.root());
    String turn = begin("t4");
    turndiff("snapshot", "--turn", turn, "sub", "gone").expect(0);
    sh("mkdir sub; rmdir gone");
    JsonNode summary = turndiff("turn", "finish", "--turn", turn).expect(0).json();
    assertEquals(1, summary.get("changes").get("directory_created").asInt(), summary.toString());
    assertEquals(1, summary.get("changes").get("directory_removed").asInt(), summary.toString());
    assertEquals(0, summary.get("changes").get("added").asInt(), summary.toString());
    assertEquals(Map.of("gone", "directory_removed", "sub", "directory_created"), changes(turn));

    CommandRun dry = turndiff("rewind", "--turn", turn, "--dry-run").expect(0);
    CommandRun rewind = turndiff("rewind", "--turn", turn, "--force").expect(0);
    for (CommandRun run : List.of(dry, rewind)) {
      JsonNode report = run.json();
      assertTrue(report.get("complete").asBoolean(), run.out());
      assertEquals(List.of("sub"), texts(report.get("removed_directories")), run.out());
      assertEquals(List.of("gone"), texts(report.get("created_directories")), run.out());
      assertEquals(0, report.get("restored").size(), "no file entry: " + run.out());
    }
    assertEquals(before, TreeContent.of(workspace.root()));
    assertFalse(Files.exists(workspace.resolve("sub")));
  }
}
