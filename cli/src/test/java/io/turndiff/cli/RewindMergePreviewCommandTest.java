package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.fixtures.CommandRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@code turndiff rewind --dry-run} of a file to merge (the turn changed line 2, the user line 11
 * since), in this JVM over a real store: the JSON plan carries the merge's preview, {@code --patch}
 * prints it as a patch that {@code git apply} turns into the bytes the run then writes, and {@code
 * --patch} without {@code --dry-run} is refused with nothing written; {@code undo --dry-run
 * --patch} the same, for the last turn of the workspace.
 */
class RewindMergePreviewCommandTest extends InProcessCommandsTest {

  private static final String LINES =
      IntStream.rangeClosed(1, 12).mapToObj(Integer::toString).collect(Collectors.joining("\n"))
          + "\n";

  private static final String USERS =
      LINES.replace("\n2\n", "\ntwo\n").replace("\n11\n", "\neleven (user)\n");

  private String turnThenALaterEdit() throws Exception {
    workspace.file("a.txt", LINES);
    finishedTurn("s1", "t1", "a.txt", LINES.replace("\n2\n", "\ntwo\n"));
    Files.writeString(workspace.resolve("a.txt"), USERS);
    return "t1";
  }

  @Test
  void theJsonPlanCarriesEachMergesPreview() throws Exception {
    String turn = turnThenALaterEdit();
    CommandRun plan = turndiff("rewind", "--turn", turn, "--dry-run").expect(0);
    JsonNode preview = plan.json().get("merge_previews").get("a.txt");
    assertEquals("[\"a.txt\"]", plan.json().get("merged").toString(), plan.out());
    assertTrue(preview.get("patch").asText().contains("\n-two\n+2\n"), plan.out());
    assertEquals(1, preview.get("added").asInt(), plan.out());
    assertEquals(0, preview.get("omitted_lines").asInt(), plan.out());
    assertEquals(USERS, workspace.readText("a.txt"), "a plan writes nothing");
  }

  @Test
  void thePatchPipedAppliesToWhatTheRunWrites() throws Exception {
    String turn = turnThenALaterEdit();
    CommandRun patch = turndiff("rewind", "--turn", turn, "--dry-run", "--patch").expect(0);
    Path copy = appliedToACopy(patch);
    JsonNode run = turndiff("rewind", "--turn", turn).expect(0).json();
    assertEquals("[\"a.txt\"]", run.get("merged").toString());
    assertTrue(run.get("merge_previews").isNull(), "a receipt previews nothing: " + run);
    assertEquals(workspace.readText("a.txt"), Files.readString(copy.resolve("a.txt")));
    assertEquals(LINES.replace("\n11\n", "\neleven (user)\n"), workspace.readText("a.txt"));
  }

  /**
   * The piped {@code patch} (plain, a git patch) applied with {@code git apply} to a copy of the
   * workspace's a.txt as the user left it; the copy's folder.
   */
  private Path appliedToACopy(CommandRun patch) throws Exception {
    assertTrue(patch.out().startsWith("diff --git a/a.txt b/a.txt\n"), patch.out());
    assertFalse(patch.out().contains("\u001b["), "no colour through a pipe: " + patch.out());

    Path copy = Files.createDirectories(temp.resolve("copy"));
    Files.writeString(copy.resolve("a.txt"), USERS);
    Files.writeString(temp.resolve("preview.patch"), patch.out());
    Process git =
        new ProcessBuilder("git", "apply", temp.resolve("preview.patch").toString())
            .directory(copy.toFile())
            .redirectErrorStream(true)
            .start();
    String said = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(git.waitFor(30, TimeUnit.SECONDS));
    assertEquals(0, git.exitValue(), said);
    return copy;
  }

  @Test
  void undoPreviewsItsMergeAsRewindDoesAndThePatchAppliesToWhatItWrites() throws Exception {
    turnThenALaterEdit();
    String root = workspace.root().toString();
    CommandRun patch = turndiff("undo", "--workspace", root, "--dry-run", "--patch").expect(0);
    Path copy = appliedToACopy(patch);
    assertEquals(USERS, workspace.readText("a.txt"), "a plan writes nothing");

    JsonNode run = turndiff("undo", "--workspace", root, "--yes").expect(0).json();
    assertEquals("[\"a.txt\"]", run.get("merged").toString());
    assertEquals(workspace.readText("a.txt"), Files.readString(copy.resolve("a.txt")));
  }

  @Test
  void undoRefusesPatchWithoutDryRunOrWithJsonAndWritesNothing() throws Exception {
    turnThenALaterEdit();
    String root = workspace.root().toString();
    CommandRun refused = turndiff("undo", "--workspace", root, "--yes", "--patch").expect(2);
    assertTrue(refused.err().contains("it goes with --dry-run"), refused.err());
    CommandRun both =
        turndiff("undo", "--workspace", root, "--dry-run", "--patch", "--json").expect(2);
    assertTrue(both.err().contains("give one of them"), both.err());
    assertEquals(USERS, workspace.readText("a.txt"));
  }

  @Test
  void patchWithoutDryRunIsRefusedAndNothingIsWritten() throws Exception {
    String turn = turnThenALaterEdit();
    CommandRun refused = turndiff("rewind", "--turn", turn, "--patch").expect(2);
    assertTrue(refused.err().contains("--patch"), refused.err());
    turndiff("rewind", "--turn", turn, "--dry-run", "--patch", "--json").expect(2);
    assertEquals(USERS, workspace.readText("a.txt"));
  }
}
