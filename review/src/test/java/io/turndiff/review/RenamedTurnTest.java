package io.turndiff.review;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.capture.CaptureService;
import io.turndiff.diff.Rename;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.PathInput;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.Store;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A turn that moved files, captured by the real capture service: the queries show each move as
 * {@code git diff -M} does, and the turn's patch is one the real {@code git apply} takes on a git
 * repository of the before-tree, giving the after-tree byte for byte. Every test checks the canary.
 */
class RenamedTurnTest {

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Store store;
  private CaptureService capture;
  private ReviewQueries queries;

  @BeforeEach
  void open() {
    workspace = TestWorkspace.in(temp);
    store = TestStore.freshIn(temp);
    capture = new CaptureService(store, BoundaryOptions.defaults());
    queries = new ReviewQueries(store);
  }

  @AfterEach
  void canary() {
    capture.close();
    workspace.assertNothingLeakedThenClose(store);
  }

  private static String lines(int from, int to) {
    return IntStream.rangeClosed(from, to)
        .mapToObj(n -> "def step_" + n + "(): return " + n + "  # as the agent wrote it\n")
        .collect(Collectors.joining());
  }

  /**
   * Moves {@code src/app.py} to {@code lib/app.py} with one line edited, moves {@code logo.bin}
   * unchanged, deletes {@code old.txt} and adds an unrelated {@code fresh.txt}.
   */
  private String moveTurn() throws Exception {
    workspace
        .file("src/app.py", lines(1, 40))
        .file("logo.bin", new byte[] {0, 1, 2, 3, 4, 5})
        .file("old.txt", "nothing like the new one\n");
    String turn =
        capture.beginTurn(workspace.root(), Optional.of("session-1"), Optional.empty()).turn();
    capture.snapshot(
        turn,
        Optional.of("mv-1"),
        List.of("src/app.py", "lib/app.py", "logo.bin", "img/logo.bin", "old.txt", "fresh.txt"));
    Files.createDirectories(workspace.resolve("lib"));
    Files.move(workspace.resolve("src/app.py"), workspace.resolve("lib/app.py"));
    Files.writeString(
        workspace.resolve("lib/app.py"),
        lines(1, 40).replace("return 7 ", "return 700 "),
        StandardCharsets.UTF_8);
    Files.createDirectories(workspace.resolve("img"));
    Files.move(workspace.resolve("logo.bin"), workspace.resolve("img/logo.bin"));
    Files.delete(workspace.resolve("old.txt"));
    workspace.file("fresh.txt", "a new file with other words in it\n");
    capture.finishTurn(turn);
    return turn;
  }

  @Test
  void theTurnsMovesAreRenamesAndTheRestDeletesAndAdds() throws Exception {
    String turn = moveTurn();
    List<Rename> renames = queries.renames(turn);
    assertEquals(2, renames.size(), renames.toString());
    assertEquals(
        new Rename(WorkspacePath.of("logo.bin"), WorkspacePath.of("img/logo.bin"), 100),
        renames.get(0));
    assertEquals(WorkspacePath.of("src/app.py"), renames.get(1).from());
    assertEquals(WorkspacePath.of("lib/app.py"), renames.get(1).to());
    assertTrue(renames.get(1).similarity() >= 90, renames.toString());

    String patch = queries.patch(turn, List.of());
    assertTrue(
        patch.contains(
            "diff --git a/src/app.py b/lib/app.py\nsimilarity index "
                + renames.get(1).similarity()
                + "%\nrename from src/app.py\nrename to lib/app.py\nindex "),
        patch);
    assertTrue(patch.contains("-def step_7(): return 7 "), patch);
    assertTrue(
        patch.contains(
            "diff --git a/logo.bin b/img/logo.bin\nsimilarity index 100%\n"
                + "rename from logo.bin\nrename to img/logo.bin\n"),
        patch);
    assertFalse(patch.contains("deleted file mode 100644\nindex 0"), "no move is a deletion");
    assertTrue(patch.contains("diff --git a/old.txt b/old.txt\ndeleted file mode"), patch);
    assertTrue(patch.contains("diff --git a/fresh.txt b/fresh.txt\nnew file mode"), patch);
    assertEquals(1, count(patch, "diff --git a/src/app.py"), patch);

    String fileDiff = queries.fileDiff(turn, PathInput.text("lib/app.py"));
    assertTrue(fileDiff.startsWith("diff --git a/src/app.py b/lib/app.py\nsimilarity"), fileDiff);
    assertTrue(
        queries.fileDiff(turn, PathInput.text("fresh.txt")).contains("new file mode"),
        "an add that is no rename keeps its stored diff");
  }

  @Test
  void theTurnsPatchTakesARepositoryOfTheBeforeTreeToTheAfterTree() throws Exception {
    Path repo = Files.createDirectory(temp.resolve("repo"));
    git(repo, "init", "-q");
    Files.createDirectories(repo.resolve("src"));
    Files.writeString(repo.resolve("src/app.py"), lines(1, 40), StandardCharsets.UTF_8);
    Files.write(repo.resolve("logo.bin"), new byte[] {0, 1, 2, 3, 4, 5});
    Files.writeString(repo.resolve("old.txt"), "nothing like the new one\n");
    git(repo, "add", "-A");
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "before");

    String turn = moveTurn();
    Path patchFile = temp.resolve("turn.patch");
    Files.writeString(patchFile, queries.patch(turn, List.of()), StandardCharsets.UTF_8);
    git(repo, "apply", "--index", patchFile.toString());
    for (String path : List.of("lib/app.py", "img/logo.bin", "fresh.txt")) {
      assertArrayEquals(
          Files.readAllBytes(workspace.resolve(path)),
          Files.readAllBytes(repo.resolve(path)),
          path);
    }
    for (String gone : List.of("src/app.py", "logo.bin", "old.txt")) {
      assertFalse(Files.exists(repo.resolve(gone)), gone);
    }
    String status = git(repo, "diff", "--cached", "-M", "--name-status");
    assertTrue(status.contains("R100\tlogo.bin\timg/logo.bin"), status);
    assertTrue(
        status.lines().anyMatch(line -> line.matches("R\\d+\tsrc/app.py\tlib/app.py")), status);
  }

  /**
   * {@code log} of the new name follows the file to its old name, as {@code git log --follow}: the
   * old path's turns come first, up to the turn that renamed it. Without following, the history
   * began at the rename and the edit before it was not in it.
   */
  @Test
  void theLogOfTheNewNameFollowsTheFileToItsOldName() throws Exception {
    workspace.file("src/app.py", lines(1, 39));
    String edit =
        capture.beginTurn(workspace.root(), Optional.of("session-1"), Optional.empty()).turn();
    capture.snapshot(edit, Optional.of("edit-1"), List.of("src/app.py"));
    Files.writeString(workspace.resolve("src/app.py"), lines(1, 40), StandardCharsets.UTF_8);
    capture.finishTurn(edit);
    String move = moveTurn();

    assertEquals(
        List.of(edit + " src/app.py", move + " src/app.py", move + " lib/app.py"),
        logOf("lib/app.py"));
    assertEquals(
        List.of(move + " fresh.txt"),
        logOf("fresh.txt"),
        "an added file that is no rename has its own history only");
  }

  /** The path's history as "turn path" per entry. */
  private List<String> logOf(String path) {
    return queries.log(workspace.root(), PathInput.text(path)).stream()
        .map(entry -> entry.turn().externalId() + " " + entry.change().path().display())
        .toList();
  }

  private static int count(String text, String part) {
    return text.split(Pattern.quote(part), -1).length - 1;
  }

  private static String git(Path dir, String... args) throws Exception {
    return PatchApplyProperties.git(dir, "", args);
  }
}
