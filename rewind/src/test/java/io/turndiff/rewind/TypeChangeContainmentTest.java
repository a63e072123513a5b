package io.turndiff.rewind;

import static io.turndiff.rewind.PatchAndRewindChecks.outcome;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A rewind of a path whose type the turn changed never follows a link out of the workspace: not to
 * delete what the turn put in a directory the user has since replaced by a link to an outside
 * directory, nor to put back a directory the turn replaced by such a link. The canary (the outside
 * tree unchanged, the secret's bytes in no store file) is checked after every test.
 */
class TypeChangeContainmentTest extends HarnessTest {

  private Path outsideDirectory() {
    return h.workspace.outside().resolve("dir");
  }

  private RewindReport rewind(String turn, boolean dryRun, boolean force) {
    return h.rewind.rewind(new RewindRequest(turn, false, Optional.empty(), dryRun, force));
  }

  /**
   * The canary in what a rewind says: no report (its skips' details included) holds the secret's
   * bytes. The outside tree and the store are checked after each test ({@link HarnessTest}).
   */
  private void secretNotIn(RewindReport... reports) {
    for (RewindReport report : reports) {
      h.workspace.canary().assertNotIn("the report", report.toString());
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aDirectoryTheTurnMadeThatIsNowALinkOutIsNeitherEnteredNorRemoved(boolean force)
      throws Exception {
    h.workspace.file("node", "the file\n");
    // the turn's file has the name of the outside secret: through the link it would be the secret
    String turn =
        h.turn(
            List.of("node", "node/secret.txt"),
            () -> {
              Files.delete(file("node"));
              h.workspace.file("node/secret.txt", "the turn's\n");
            });
    sh("rm -r node && ln -s '" + outsideDirectory() + "' node");

    RewindReport dry = rewind(turn, true, force);
    RewindReport report = rewind(turn, false, force);
    secretNotIn(dry, report);
    assertEquals(outcome(dry), outcome(report), "the dry run is the run");
    assertFalse(report.complete(), report.toString());
    assertTrue(
        outcome(report).contains("restored node/secret.txt"),
        "as an exact path, nothing is under a link: the turn's file is gone, and the outside one"
            + " is never looked at: "
            + report);
    assertTrue(
        report.skipped().stream()
            .anyMatch(
                skip -> skip.path().display().equals("node") && skip.reason().equals("refused")),
        "the link is no directory of the turn's to remove: " + report);
    if (force) {
      assertEquals(List.of("node", "node/secret.txt"), paths(report.restored()), report.toString());
      assertEquals("the file\n", h.workspace.readText("node"), "the link replaced as a name");
    } else {
      assertTrue(Files.isSymbolicLink(file("node")), "a conflict without --force");
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aDirectoryTheTurnReplacedByALinkOutComesBackWithoutTheLinkBeingFollowed(boolean force)
      throws Exception {
    h.workspace.file("node/secret.txt", "the workspace's own\n");
    Map<String, String> before = tree();
    String turn =
        h.turn(
            List.of("node", "node/secret.txt"),
            () -> sh("rm -r node && ln -s '" + outsideDirectory() + "' node"));
    Map<String, String> after = tree();

    RewindReport dry = rewind(turn, true, force);
    RewindReport report = rewind(turn, false, force);
    secretNotIn(dry, report);
    assertEquals(outcome(dry), outcome(report), "the dry run is the run");
    assertTrue(report.complete(), report.toString());
    assertEquals(before, tree(), "the directory and its file, written inside the workspace");

    RewindReport undo = h.rewindTurn(report.rewindTurn().orElseThrow());
    secretNotIn(undo);
    assertTrue(undo.complete(), undo.toString());
    assertEquals(after, tree(), "the link out again, as a link");
    assertTrue(Files.isSymbolicLink(file("node")));
  }
}
