package io.turndiff.review;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.capture.CaptureService;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.PathInput;
import io.turndiff.model.RequestException;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.Store;
import io.turndiff.store.StoredFileChange;
import io.turndiff.store.WorkspaceListing;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The review queries over a real store; the workspace is deleted before querying: answers come from
 * the store.
 */
class ReviewQueriesTest {

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Store store;
  private CaptureService capture;
  private ReviewQueries queries;
  private String first;
  private String second;
  private String third;

  @BeforeEach
  void threeTurns() throws Exception {
    workspace = TestWorkspace.in(temp).file("a.txt", "a1\n").file("b.txt", "b1\n");
    workspace.symlink("leak.txt", workspace.secret().toString());
    store = TestStore.freshIn(temp);
    capture = new CaptureService(store, BoundaryOptions.defaults());
    queries = new ReviewQueries(store);
    first =
        turn(
            List.of("a.txt", "leak.txt"),
            () -> Files.writeString(workspace.resolve("a.txt"), "a2\n"));
    second =
        turn(
            List.of("a.txt", "b.txt"),
            () -> {
              Files.writeString(workspace.resolve("a.txt"), "a3\n");
              Files.delete(workspace.resolve("b.txt"));
            });
    // an absolute path outside: recorded under its name with metadata only, never opened
    third =
        turn(
            List.of("c.txt", workspace.secret().toString()),
            () -> Files.writeString(workspace.resolve("c.txt"), "c\nc\n"));
    capture.close();
    // from here on, everything comes from the store
    try (Stream<Path> walk = Files.walk(workspace.root())) {
      walk.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
  }

  private String turn(List<String> paths, Edit edit) throws Exception {
    String turn = capture.beginTurn(workspace.root(), Optional.of("s1"), Optional.empty()).turn();
    capture.snapshot(turn, Optional.empty(), paths);
    edit.run();
    capture.finishTurn(turn);
    return turn;
  }

  interface Edit {
    void run() throws Exception;
  }

  @AfterEach
  void canary() {
    workspace.canary().assertNotInStore(store);
    store.close();
  }

  /** What the panel's live update of a snapshot call reads: the named paths' changes alone. */
  @Test
  void theRecordsAtSomePathsAreThoseOfTheWholeTurnsRecordsAtThem() {
    TurnRecords whole = queries.records(second);

    PathRecords some = queries.recordsAt(second, List.of(WorkspacePath.of("b.txt")));

    assertEquals(whole.turn(), some.turn());
    assertEquals(whole.workspaceRoot(), some.workspaceRoot());
    assertEquals(
        whole.changes().stream().filter(c -> c.path().equals(WorkspacePath.of("b.txt"))).toList(),
        some.changes());
    assertEquals(1, some.changes().size(), "of the turn's two changes, b.txt's");
    assertEquals(
        whole.changes(),
        queries
            .recordsAt(second, List.of(WorkspacePath.of("b.txt"), WorkspacePath.of("a.txt")))
            .changes(),
        "ordered by path, as the whole turn's");
    assertEquals(
        List.of(), queries.recordsAt(second, List.of(WorkspacePath.of("c.txt"))).changes());
    // a path reached through a symlink (the first turn's leak.txt) and one outside the workspace
    // (the third turn's), each asked alone, as its call's update asks it
    List<StoredFileChange> asked = new ArrayList<>();
    for (String turn : List.of(first, third)) {
      for (StoredFileChange change : queries.records(turn).changes()) {
        assertEquals(
            List.of(change), queries.recordsAt(turn, List.of(change.path())).changes(), turn);
        asked.add(change);
      }
    }
    assertEquals(4, asked.size(), "a.txt and leak.txt, c.txt and the outside path");
    assertTrue(asked.stream().anyMatch(change -> change.path().isOutside()), asked.toString());
  }

  @Test
  void sessionsOfAWorkspace() {
    List<SessionListing> sessions = queries.sessions(workspace.root());
    assertEquals(1, sessions.size());
    assertEquals("s1", sessions.getFirst().session().externalId());
    assertEquals(3, sessions.getFirst().turns());
  }

  @Test
  void turnsOfASessionWithTheirCountsPageByPage() {
    TurnPage page = queries.turns("s1", 0, 2);
    assertEquals(
        List.of(first, second),
        page.turns().stream().map(listed -> listed.listing().turn().externalId()).toList());
    assertEquals(Optional.of(2L), page.nextAfter());
    assertEquals(2, page.turns().get(1).listing().files());
    assertEquals(2, page.turns().get(1).listing().changed());
    assertEquals(1, page.turns().get(1).listing().linesAdded());
    assertEquals(2, page.turns().get(1).listing().linesRemoved());
    TurnPage rest = queries.turns("s1", page.nextAfter().get(), 2);
    assertEquals(
        List.of(third),
        rest.turns().stream().map(listed -> listed.listing().turn().externalId()).toList());
    assertEquals(Optional.empty(), rest.nextAfter());
    assertEquals(
        2,
        queries.turns("s1", 0, 10).turns().getFirst().listing().changed(),
        "a link out of the workspace is never counted unchanged: what the turn did through it was not read");
  }

  @Test
  void aRangeIsTheFirstBeforeAndTheLastAfterOfEachPath() {
    RangeDiff range = queries.range(first, second);
    List<String> paths = range.changes().stream().map(change -> change.path().display()).toList();
    assertEquals(List.of("a.txt", "b.txt", "leak.txt"), paths);
    RangeChange a = range.changes().getFirst();
    assertEquals(ChangeKind.MODIFIED, a.change());
    assertEquals(List.of(first, second), a.turns());
    assertTrue(range.patch().contains("-a1\n+a3\n"), range.patch());
    assertTrue(range.patch().contains("deleted file mode 100644"), range.patch());
    workspace.canary().assertNotIn("the range patch", range.patch());
  }

  @Test
  void aRangesFileIsThatPathsSectionOfTheRange() {
    RangeDiff range = queries.range(first, second);
    String a = queries.rangeFileDiff(first, second, PathInput.text("a.txt"));
    assertTrue(a.contains("-a1\n+a3\n"), a);
    assertTrue(range.patch().contains(a), range.patch());
    assertTrue(
        queries
            .rangeFileDiff(first, second, PathInput.text("b.txt"))
            .contains("deleted file mode"));
    assertEquals(
        RequestException.Problem.BAD_INPUT,
        assertThrows(
                RequestException.class,
                () -> queries.rangeFileDiff(first, second, PathInput.text("c.txt")))
            .problem(),
        "c.txt is recorded by the third turn only");
  }

  @Test
  void theWorkspacesListCountsSessionsAndTurnsFromTheStore() {
    List<WorkspaceListing> listed = queries.workspaces();
    assertEquals(1, listed.size());
    assertEquals(1, listed.getFirst().sessions());
    assertEquals(3, listed.getFirst().turns());
    assertFalse(listed.getFirst().tracked());
    assertEquals(
        queries.records(third).turn().beganAt(), listed.getFirst().lastTurnAt(), "the newest turn");
    assertEquals(
        Optional.of(listed.getFirst().lastTurnAt()),
        queries.sessions(workspace.root()).getFirst().lastTurnAt());
  }

  @Test
  void aRangeAcrossSessionsOrBackwardsIsRefused() {
    assertEquals(
        RequestException.Problem.BAD_INPUT,
        assertThrows(RequestException.class, () -> queries.range(second, first)).problem());
  }

  @Test
  void aPathsHistoryListsEveryTurnThatTouchedIt() {
    List<HistoryEntry> history = queries.log(workspace.root(), PathInput.text("a.txt"));
    assertEquals(
        List.of(first, second), history.stream().map(entry -> entry.turn().externalId()).toList());
    assertEquals(1, history.get(1).change().linesAdded());
    assertEquals(List.of(), queries.log(workspace.root(), PathInput.text("never.txt")));
  }

  /**
   * How {@code log PATH} (and {@code /v1/history?path=}) reads a path: {root} and {secret} stand
   * for the workspace root and the outside file recorded by the third turn; 1, 2, 3 for the turns.
   * The path goes through the one parser ({@code PathParser.recorded}) against the stored roots:
   * {@code .} and {@code ..} are applied to the name (before, {@code ./a.txt} and {@code
   * x/../a.txt} were refused as "not a workspace path"), a text holding U+FFFD is refused as a
   * snapshot's is (before, it was looked up and found nothing), and an absolute path outside finds
   * the metadata-only records made under it.
   */
  @ParameterizedTest(name = "log {0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      textBlock =
          """
      a.txt                 | turns 1,2
      {root}/a.txt          | turns 1,2
      never.txt             | no turns
      ./a.txt               | turns 1,2
      x/../a.txt            | turns 1,2
      {root}/./x/../a.txt   | turns 1,2
      {root}//a.txt         | turns 1,2
      a.txt/                | refused: path 'a.txt/' ends with '/': it names a directory, and snapshots are of files
      {secret}              | turns 3
      ../outside/secret.txt | turns 3
      caf\uFFFD.txt         | refused: path 'caf\uFFFD.txt' contains U+FFFD: a name that was not valid UTF-8 before it reached turndiff; give its bytes instead (base64)
      .                     | refused: path '.' names the workspace root, a directory
      {root}                | refused: path '{root}' is the workspace root, a directory
      ""                    | refused: path '' is empty
      """)
  void aPathsHistoryIsLookedUpAs(String path, String outcome) {
    String given = named(path);
    String shown;
    try {
      shown =
          queries.log(workspace.root(), PathInput.text(given)).stream()
              .map(entry -> turnName(entry.turn().externalId()))
              .collect(Collectors.joining(","));
      shown = shown.isEmpty() ? "no turns" : "turns " + shown;
    } catch (RequestException e) {
      assertEquals(RequestException.Problem.BAD_INPUT, e.problem());
      shown = "refused: " + e.getMessage();
    }
    assertEquals(outcome, unnamed(shown));
  }

  /**
   * How {@code diff --turn T PATH} (and {@code /v1/turns/T/file?path=}) picks a recorded path of
   * turn 2: parsed as {@code log} parses it (before, only the exact display form matched: {@code
   * ./a.txt} and {@code {root}/a.txt} were "not recorded").
   */
  @ParameterizedTest(name = "diff --turn 2 {0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
      a.txt         | files a.txt
      b.txt         | files b.txt
      ./a.txt       | files a.txt
      {root}/a.txt  | files a.txt
      caf\uFFFD.txt | refused: path 'caf\uFFFD.txt' contains U+FFFD: a name that was not valid UTF-8 before it reached turndiff; give its bytes instead (base64)
      never.txt     | refused: path 'never.txt' is not recorded in turn '2'
      """)
  void aTurnsPathIsPickedAs(String path, String outcome) {
    String shown;
    try {
      shown =
          "files "
              + queries
                  .patch(second, List.of(PathInput.text(named(path))))
                  .lines()
                  .filter(line -> line.startsWith("diff --git a/"))
                  .map(line -> line.substring(13, line.indexOf(' ', 13)))
                  .collect(Collectors.joining(","));
    } catch (RequestException e) {
      assertEquals(RequestException.Problem.BAD_INPUT, e.problem());
      shown = "refused: " + e.getMessage();
    }
    assertEquals(outcome, unnamed(shown));
  }

  private String named(String path) {
    return path.replace("{root}", workspace.root().toString())
        .replace("{secret}", workspace.secret().toString());
  }

  private String unnamed(String shown) {
    return shown
        .replace(first, "1")
        .replace(second, "2")
        .replace(third, "3")
        .replace(workspace.secret().toString(), "{secret}")
        .replace(workspace.root().toString(), "{root}");
  }

  private String turnName(String turnId) {
    return turnId.equals(first)
        ? "1"
        : turnId.equals(second) ? "2" : turnId.equals(third) ? "3" : turnId;
  }

  @Test
  void oneFilesDiffIsItsStoredDiff() {
    String diff = queries.fileDiff(second, PathInput.text("a.txt"));
    assertTrue(diff.startsWith("diff --git a/a.txt b/a.txt\n"), diff);
    assertTrue(diff.contains("-a2\n+a3\n"), diff);
    String leak = queries.fileDiff(first, PathInput.text("leak.txt"));
    assertTrue(
        leak.startsWith("# turndiff: leak.txt: before-state not captured (escapes_workspace)"),
        leak);
    assertFalse(
        leak.contains("diff --git"), "no content is shown for a path that leads outside: " + leak);
    workspace.canary().assertNotIn("the diff of the link out", leak);
  }

  @Test
  void theTurnPatchNeverHoldsTheSecret() {
    String patch = queries.patch(first, List.of());
    assertTrue(patch.contains("+a2"), patch);
    workspace.canary().assertNotIn("the turn patch", patch);
  }
}
