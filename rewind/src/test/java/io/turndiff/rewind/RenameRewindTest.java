package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.PathInput;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A rewind of the new name of a file the turn renamed ({@code rewind --turn T --path NEW}): a
 * rename is one change, so the old path comes back byte for byte and the new one goes, and the plan
 * says both before anything is written. Before rename detection the rewind removed the new file and
 * left the old one gone: the file was nowhere in the workspace.
 */
class RenameRewindTest extends HarnessTest {

  private static final String BODY =
      IntStream.rangeClosed(1, 40)
          .mapToObj(n -> "fn step" + n + "() { return " + n + "; } // written by the agent\n")
          .collect(Collectors.joining());

  private static RewindRequest request(String turn, boolean dryRun, String... paths) {
    return new RewindRequest(
        turn, false, Optional.empty(), dryRun, false, PathInput.texts(List.of(paths)));
  }

  /** Moves src/app.js to lib/app.js with one line edited, and edits other.txt. */
  private String renameTurn() {
    h.workspace.file("src/app.js", BODY).file("other.txt", "other before\n");
    return h.turn(
        List.of("src/app.js", "lib/app.js", "other.txt"),
        () -> {
          Files.createDirectories(file("lib"));
          Files.move(file("src/app.js"), file("lib/app.js"));
          Files.writeString(
              file("lib/app.js"), BODY.replace("return 9;", "return 99;"), StandardCharsets.UTF_8);
          Files.writeString(file("other.txt"), "other after\n");
        });
  }

  @Test
  void rewindingTheNewNameBringsBackTheOldOneAndThePlanSaysSo() throws Exception {
    String turn = renameTurn();
    Map<String, String> before = tree();

    RewindReport plan = h.rewind.rewind(request(turn, true, "lib/app.js"));
    assertEquals(List.of("lib/app.js", "src/app.js"), paths(plan.paths()), plan.toString());
    assertEquals(List.of("lib/app.js", "src/app.js"), paths(plan.restored()), plan.toString());
    assertEquals(List.of("lib/app.js"), paths(plan.deleted()), plan.toString());
    assertEquals(before, tree(), "the plan writes nothing");

    RewindReport run = h.rewind.rewind(request(turn, false, "lib/app.js"));
    assertTrue(run.complete(), run.toString());
    assertEquals(paths(plan.restored()), paths(run.restored()), "the run is its plan");
    assertEquals(paths(plan.deleted()), paths(run.deleted()));
    assertArrayEquals(
        BODY.getBytes(StandardCharsets.UTF_8), Files.readAllBytes(file("src/app.js")));
    assertFalse(Files.exists(file("lib/app.js")), "the new name is gone");
    assertEquals("other after\n", h.workspace.readText("other.txt"), "the other change stays");
  }

  @Test
  void theUndoPutsTheRenameBackAsTheTurnLeftIt() throws Exception {
    String turn = renameTurn();
    Map<String, String> afterTurn = tree();
    RewindReport run = h.rewind.rewind(request(turn, false, "lib/app.js"));
    RewindReport undo = h.rewindTurn(run.rewindTurn().orElseThrow());
    assertTrue(undo.complete(), undo.toString());
    assertEquals(afterTurn, tree());
  }

  @Test
  void rewindingTheOldNameAloneRestoresOnlyItAsBefore() throws Exception {
    String turn = renameTurn();
    RewindReport run = h.rewind.rewind(request(turn, false, "src/app.js"));
    assertEquals(List.of("src/app.js"), paths(run.restored()), run.toString());
    assertTrue(Files.exists(file("lib/app.js")), "naming the old path asks for it alone");
  }
}
