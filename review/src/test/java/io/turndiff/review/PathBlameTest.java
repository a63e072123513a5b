package io.turndiff.review;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.boundary.Observation;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.capture.CaptureService;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.PathInput;
import io.turndiff.model.RequestException;
import io.turndiff.store.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code turndiff blame}'s pass over real turns on a real store: each line goes to the turn whose
 * change wrote it, to no turn when it was there before the first or written between turns or since
 * the last, and the file now is read once, through the boundary.
 */
class PathBlameTest {

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Store store;
  private CaptureService capture;
  private ReviewQueries queries;
  private final AtomicInteger reads = new AtomicInteger();

  /** A 64-byte size limit: a longer file is fingerprinted, not stored. */
  private static final BoundaryOptions OPTIONS = BoundaryOptions.builder().sizeLimit(64).build();

  @BeforeEach
  void open() {
    workspace = TestWorkspace.in(temp).file("a.txt", "one\ntwo\nthree\n");
    store = TestStore.freshIn(temp);
    capture = new CaptureService(store, OPTIONS);
    queries = new ReviewQueries(store);
  }

  @AfterEach
  void canary() {
    capture.close();
    workspace.canary().assertNotInStore(store);
    store.close();
  }

  private String turn(String session, String path, String content) throws Exception {
    String turn =
        capture.beginTurn(workspace.root(), Optional.of(session), Optional.empty()).turn();
    capture.snapshot(turn, Optional.empty(), List.of(path));
    Files.writeString(workspace.resolve(path), content);
    capture.finishTurn(turn);
    return turn;
  }

  /** The file now, read through a boundary of its own, counted. */
  private FileBlame blame(String path) {
    return queries.blame(
        workspace.root(),
        PathInput.text(path),
        (stored, key) -> {
          reads.incrementAndGet();
          try (WorkspaceBoundary boundary =
              WorkspaceBoundary.open(Path.of(stored.rootReal()), OPTIONS)) {
            Observation seen = boundary.observeExact(key);
            return new CurrentFile.Now(seen.snapshot(), seen.content());
          }
        });
  }

  /** Each line as "origin:turn" ("turn:T", "before", "outside", "unknown"). */
  private static List<String> origins(FileBlame blame) {
    List<String> shown = new ArrayList<>();
    for (FileBlame.BlamedLine line : blame.lines()) {
      shown.add(
          switch (line.origin().kind()) {
            case TURN -> "turn:" + line.origin().storedTurn().orElseThrow().externalId();
            case BEFORE_ANY_TURN -> "before";
            case OUTSIDE_ANY_TURN -> "outside";
            case NOT_KNOWN -> "unknown";
          });
    }
    return shown;
  }

  @Test
  void eachLineGoesToTheLastStepThatWroteIt() throws Exception {
    String first = turn("s1", "a.txt", "one\nTWO\nthree\n");
    // between the turns, no turn records: written outside any turn
    Files.writeString(workspace.resolve("a.txt"), "zero\none\nTWO\nthree\n");
    String second = turn("s2", "a.txt", "zero\none\nTWO\nthree\nfour\nfive\n");
    String third = turn("s1", "a.txt", "zero\none\nTWO\nthree\nFOUR\nfive\n");
    // since the last turn
    Files.writeString(workspace.resolve("a.txt"), "zero\none\nTWO\nthree\nFOUR\nfive\nsix");

    FileBlame blame = blame("a.txt");

    assertEquals(
        List.of(
            "outside",
            "before",
            "turn:" + first,
            "before",
            "turn:" + third,
            "turn:" + second,
            "outside"),
        origins(blame));
    assertEquals(
        List.of("zero", "one", "TWO", "three", "FOUR", "five", "six"),
        blame.lines().stream().map(FileBlame.BlamedLine::text).toList());
    assertEquals(
        List.of(first, second, third),
        blame.turns().stream().map(turn -> turn.turn().externalId()).toList());
    assertEquals("s2", blame.turns().get(1).turn().sessionExternalId());
    assertEquals(Optional.empty(), blame.turns().get(1).prompt());
    assertEquals(1, reads.get(), "the file now is read once");
  }

  @Test
  void aDeletedAndRecreatedFileStartsOverAndATurnThatOnlyMovedLinesWroteNone() throws Exception {
    String moved = turn("s1", "a.txt", "one\ntwo\nthree\n\nfour\n");
    String deleted = turn("s1", "b.txt", "x\n"); // another path: not in a.txt's history
    turn("s1", "a.txt", "");
    String recreated = turn("s1", "a.txt", "one\nnew\n");

    assertEquals(List.of("turn:" + recreated, "turn:" + recreated), origins(blame("a.txt")));
    assertTrue(
        blame("a.txt").turns().stream().noneMatch(t -> t.turn().externalId().equals(deleted)));
    assertTrue(blame("a.txt").turns().stream().anyMatch(t -> t.turn().externalId().equals(moved)));
  }

  @Test
  void aStateThatWasNotCapturedLeavesTheNextLinesNotKnown() throws Exception {
    // over the 64-byte size limit: fingerprinted, not stored
    String big = "x".repeat(100) + "\n";
    turn("s1", "a.txt", big);
    String after = turn("s1", "a.txt", "small\nlines\n");
    assertEquals(List.of("unknown", "unknown"), origins(blame("a.txt")));
    String edit = turn("s1", "a.txt", "small\nlines\nmore\n");
    assertEquals(List.of("unknown", "unknown", "turn:" + edit), origins(blame("a.txt")));
    assertTrue(blame("a.txt").turns().stream().anyMatch(t -> t.turn().externalId().equals(after)));
  }

  @Test
  void anOpenTurnOwnsWhatItWroteSoFar() throws Exception {
    String open = capture.beginTurn(workspace.root(), Optional.of("s1"), Optional.empty()).turn();
    capture.snapshot(open, Optional.empty(), List.of("a.txt"));
    Files.writeString(workspace.resolve("a.txt"), "one\ntwo\nthree\nfour\n");
    assertEquals(List.of("before", "before", "before", "turn:" + open), origins(blame("a.txt")));
  }

  @Test
  void aFileNoTurnRecordedWasWrittenOutsideAnyTurn() throws Exception {
    turn("s1", "a.txt", "one\n");
    workspace.file("b.txt", "b\nb\n");
    assertEquals(List.of("outside", "outside"), origins(blame("b.txt")));
  }

  @Test
  void whatCannotBeShownAsLinesIsRefusedNamingThePath() throws Exception {
    turn("s1", "a.txt", "one\n");
    workspace.file("bin", new byte[] {1, 0, 2});
    workspace.symlink("leak", workspace.secret().toString());
    assertRefused("'bin' is binary", "bin");
    assertRefused("'gone' does not exist now", "gone");
    workspace.symlink("inside", "a.txt");
    assertRefused("'inside' is a symlink", "inside");
    assertRefused("'leak' cannot be read now (escapes_workspace", "leak");
    Files.writeString(workspace.resolve("a.txt"), "y".repeat(100));
    assertRefused("'a.txt' cannot be read now (too_large", "a.txt");
    assertRefused("outside the workspace", workspace.secret().toString());
  }

  private void assertRefused(String message, String path) {
    RequestException refused = assertThrows(RequestException.class, () -> blame(path));
    assertTrue(
        refused.getMessage().contains(message), () -> refused.getMessage() + " lacks " + message);
  }
}
