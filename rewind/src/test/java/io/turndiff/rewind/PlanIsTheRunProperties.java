package io.turndiff.rewind;

import static io.turndiff.rewind.PatchAndRewindChecks.outcome;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.capture.track.TrackingOptions;
import io.turndiff.diff.FilePatch;
import io.turndiff.diff.GitPatchWriter;
import io.turndiff.diff.HunkReversal;
import io.turndiff.diff.PatchSide;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.PathInput;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.Store;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The dry run is the run: for generated histories of a few files in nested directories the turns
 * create and empty, with the user's own edits between turns (a file changed, deleted, or added
 * beside the turns' in a directory they created), a rewind of any one turn or of a turn and every
 * later one, forced or not, reports exactly what its dry run said, line by line, directories
 * included, when nothing changed in between. Unlike {@link TypeChangeProperties}, which checks that
 * a rewind of an untouched history puts everything back, these rewinds may leave paths (a conflict,
 * a directory that still holds the user's file): the plan must say so too.
 */
class PlanIsTheRunProperties {

  private static Path base;
  private static Store store;
  private static int runs;

  @BeforeContainer
  static void openStore() throws IOException {
    base = Files.createTempDirectory("turndiff-plan-is-the-run");
    store = TestStore.freshIn(base);
  }

  @AfterContainer
  static void closeStore() throws IOException {
    store.close();
    try (Stream<Path> walk = Files.walk(base)) {
      walk.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
  }

  /** The files the turns write and delete, in directories they create and remove. */
  private static final List<String> FILES = List.of("f", "t/a", "t/b", "t/fx/c", "t/fx/d");

  /** The size limit of the boundary: content over it is fingerprinted, not stored. */
  private static final long SIZE_LIMIT = 32;

  private static final String OVER_THE_LIMIT = "a file over the size limit, ".repeat(3);

  /** The directories above them, deepest first (a turn that prunes removes the empty ones). */
  private static final List<String> DIRECTORIES = List.of("t/fx", "t");

  /** What a turn (or the user) does to one file: nothing, write this text, or delete it. */
  sealed interface Edit {}

  record Keep() implements Edit {}

  record Write(String text) implements Edit {}

  record Delete() implements Edit {}

  /** A symlink: to a sibling, or out of the workspace (recorded as the link, never followed). */
  record Link(String target) implements Edit {}

  /**
   * One turn: an edit per file (in {@link #FILES} order), whether it removes the directories it
   * emptied ({@code rm -r}), and what the user does after it, outside any turn (an edit of one
   * path, which may be a file no turn names).
   */
  record Turn(List<Edit> edits, boolean prunes, Optional<UserEdit> user) {}

  record UserEdit(String path, Edit edit) {}

  @Provide
  Arbitrary<List<Turn>> histories() {
    Arbitrary<Edit> edit =
        Arbitraries.frequencyOf(
            Tuple.of(3, Arbitraries.just(new Keep())),
            Tuple.of(
                4,
                Arbitraries.of("one\n", "two\n", "three\nlines\n", OVER_THE_LIMIT).map(Write::new)),
            Tuple.of(2, Arbitraries.just(new Delete())),
            Tuple.of(1, Arbitraries.of("a", "../../../outside").map(Link::new)));
    Arbitrary<UserEdit> user =
        Combinators.combine(
                Arbitraries.of("t/a", "t/fx/c", "t/fx/mine", "t/mine", "f"),
                Arbitraries.oneOf(
                    Arbitraries.of("user's\n").map(Write::new), Arbitraries.just(new Delete())))
            .as(UserEdit::new);
    Arbitrary<Turn> turn =
        Combinators.combine(
                edit.list().ofSize(FILES.size()), Arbitraries.of(true, false), user.optional(0.4))
            .as(Turn::new);
    return turn.list().ofMinSize(1).ofMaxSize(3);
  }

  @Property(tries = 20)
  void aRewindReportsWhatItsDryRunSaid(
      @ForAll("histories") List<Turn> history,
      @ForAll boolean tracked,
      @ForAll boolean to,
      @ForAll boolean force,
      @ForAll("which") int which)
      throws Exception {
    Path run = Files.createDirectory(base.resolve("r" + runs++));
    TestWorkspace workspace = TestWorkspace.in(run);
    String session = "s" + runs;
    try (RewindHarness harness =
        new RewindHarness(
            workspace, store, session, BoundaryOptions.builder().sizeLimit(SIZE_LIMIT).build())) {
      if (tracked) {
        harness.capture.tracker().track(workspace.root(), TrackingOptions.DEFAULTS);
      }
      List<String> turns = new ArrayList<>();
      for (Turn turn : history) {
        String id =
            harness
                .capture
                .beginTurn(workspace.root(), Optional.of(session), Optional.empty())
                .turn();
        if (!tracked) {
          harness.capture.snapshot(id, Optional.of("tool"), FILES);
        }
        for (int i = 0; i < FILES.size(); i++) {
          apply(workspace, FILES.get(i), turn.edits().get(i));
        }
        if (turn.prunes()) {
          pruneEmptyDirectories(workspace);
        }
        harness.capture.finishTurn(id);
        turns.add(id);
        if (turn.user().isPresent()) {
          apply(workspace, turn.user().get().path(), turn.user().get().edit());
        }
      }
      String rewound = turns.get(which % turns.size());
      RewindReport dry =
          harness.rewind.rewind(new RewindRequest(rewound, to, Optional.empty(), true, force));
      RewindReport report =
          harness.rewind.rewind(new RewindRequest(rewound, to, Optional.empty(), false, force));
      assertEquals(outcome(dry), outcome(report), "the dry run is the run: " + history);
    }
    workspace.assertOutsideUnchanged();
  }

  /**
   * The history the property found in CI (seed 8342407234776182888, the posix execution): the first
   * turn makes t/fx/d (and t, t/fx), the user then adds t/a beside it, the second turn deletes t/a.
   * Rewinding both puts t/a back before the created directories go, so t stays; the plan said it
   * would be removed (issue 22 item 2's "removed_directories" that the run reported as
   * directory_not_empty).
   */
  @Example
  void aFileTheRewindPutsBackKeepsTheDirectoryTheTurnsCreatedInThePlanToo() throws Exception {
    List<Turn> history =
        List.of(
            new Turn(
                List.of(new Keep(), new Keep(), new Keep(), new Keep(), new Write("one\n")),
                true,
                Optional.of(new UserEdit("t/a", new Write("user's\n")))),
            new Turn(
                List.of(new Keep(), new Delete(), new Keep(), new Keep(), new Keep()),
                true,
                Optional.empty()));
    for (boolean tracked : List.of(false, true)) {
      for (boolean force : List.of(false, true)) {
        aRewindReportsWhatItsDryRunSaid(history, tracked, true, force, 0);
      }
    }
  }

  /**
   * The same for a rewind of one hunk (issue 22 item 8): a turn rewrites some of 24 lines of a file
   * (a line replaced or one inserted before it), the user may then change some lines (inside a
   * hunk, in its context, or far from it) or delete the file, and a rewind of any one of the turn's
   * hunks reports exactly what its dry run said: restored, merged, or a conflict.
   */
  @Property(tries = 12)
  void aHunkRewindReportsWhatItsDryRunSaid(
      @ForAll("lineEdits") List<Integer> turnEdits,
      @ForAll("lineEdits") List<Integer> userEdits,
      @ForAll boolean userDeletes,
      @ForAll("which") int which)
      throws Exception {
    Path run = Files.createDirectory(base.resolve("h" + runs++));
    TestWorkspace workspace = TestWorkspace.in(run);
    String session = "s" + runs;
    String before = numberedLines("line ", List.of());
    String after = numberedLines("line ", turnEdits);
    try (RewindHarness harness = new RewindHarness(workspace, store, session)) {
      workspace.file("f.txt", before);
      String turn = harness.turn(List.of("f.txt"), () -> workspace.file("f.txt", after));
      if (userDeletes) {
        Files.delete(workspace.resolve("f.txt"));
      } else {
        String now = after;
        for (int line : userEdits) {
          now = now.replace("line " + line + "\n", "user's " + line + "\n");
        }
        workspace.file("f.txt", now);
      }
      int hunks =
          HunkReversal.count(
                  before.getBytes(StandardCharsets.UTF_8), after.getBytes(StandardCharsets.UTF_8))
              .orElseThrow();
      int number = 1 + which % hunks;
      PathInput path = PathInput.text("f.txt");
      Optional<byte[]> previewed =
          userDeletes
              ? Optional.empty()
              : Optional.of(Files.readAllBytes(workspace.resolve("f.txt")));
      RewindReport dry =
          harness.rewind.rewind(RewindRequest.ofHunk(turn, Optional.empty(), true, path, number));
      RewindReport report =
          harness.rewind.rewind(RewindRequest.ofHunk(turn, Optional.empty(), false, path, number));
      assertEquals(
          outcome(dry),
          outcome(report),
          "the dry run is the run: hunk " + number + " of " + turnEdits + ", user " + userEdits);
      MergePreview preview = dry.mergePreviews().get(WorkspacePath.of("f.txt"));
      if (preview != null) {
        // the merge's preview is the patch from the bytes previewed to the bytes the run wrote
        int mode = (int) Files.getAttribute(workspace.resolve("f.txt"), "unix:mode") & 07777;
        FilePatch written =
            new GitPatchWriter(GitPatchWriter.BinaryStyle.SUMMARY)
                .write(
                    WorkspacePath.of("f.txt"),
                    new PatchSide.File(previewed.orElseThrow(), mode),
                    new PatchSide.File(Files.readAllBytes(workspace.resolve("f.txt")), mode));
        assertEquals(written.text(), preview.patch(), "the preview is what the run wrote");
      }
    }
    workspace.assertOutsideUnchanged();
  }

  /**
   * 24 numbered lines; each of {@code edits} rewrites one: even numbers replace the line, odd ones
   * insert a line before it.
   */
  private static String numberedLines(String prefix, List<Integer> edits) {
    StringBuilder text = new StringBuilder();
    for (int line = 1; line <= 24; line++) {
      if (edits.contains(line)) {
        text.append(line % 2 == 0 ? "changed " + line : "inserted\n" + prefix + line).append('\n');
      } else {
        text.append(prefix).append(line).append('\n');
      }
    }
    return text.toString();
  }

  @Provide
  Arbitrary<List<Integer>> lineEdits() {
    return Arbitraries.integers().between(1, 24).set().ofMinSize(1).ofMaxSize(4).map(List::copyOf);
  }

  @Provide
  Arbitrary<Integer> which() {
    return Arbitraries.integers().between(0, 2);
  }

  private static void apply(TestWorkspace workspace, String path, Edit edit) throws IOException {
    Path file = workspace.resolve(path);
    switch (edit) {
      case Keep keep -> {}
      case Write write -> {
        // a link is replaced, not written through
        Files.deleteIfExists(file);
        workspace.file(path, write.text());
      }
      case Delete delete -> Files.deleteIfExists(file);
      case Link link -> {
        Files.createDirectories(file.getParent());
        Files.deleteIfExists(file);
        Files.createSymbolicLink(file, Path.of(link.target()));
      }
    }
  }

  private static void pruneEmptyDirectories(TestWorkspace workspace) throws IOException {
    for (String directory : DIRECTORIES) {
      Path path = workspace.resolve(directory);
      if (Files.isDirectory(path)) {
        try (Stream<Path> entries = Files.list(path)) {
          if (entries.findAny().isEmpty()) {
            Files.delete(path);
          }
        }
      }
    }
  }
}
