package io.turndiff.rewind;

import static io.turndiff.rewind.PatchAndRewindChecks.appliesBothWays;
import static io.turndiff.rewind.PatchAndRewindChecks.copy;
import static io.turndiff.rewind.PatchAndRewindChecks.outcome;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.capture.TurnSummary;
import io.turndiff.capture.track.TrackingOptions;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.DirectoryState;
import io.turndiff.model.PathInput;
import io.turndiff.model.TestHook;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.StoredDirectoryChange;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A path that turns from a file into a directory, or back, or into a symlink to a directory, alone,
 * nested, or named as a directory itself: the turn's patch says what git's does ({@code git apply}
 * gives the after-tree, {@code git apply -R} the before-tree), its rewind gives back the tree the
 * turn started from byte for byte, and rewinding that rewind the tree the turn left; the dry run
 * says exactly what the run then does. Each in a workspace whose tools announce their paths and in
 * a tracked one whose shell changes only the scan finds, with and without {@code --force}.
 */
// The file system's side of type changes: the store only keeps the states, through the same few
// queries RewindServiceTest and RewindPathsTest run on PostgreSQL, so the PostgreSQL run leaves
// this class out (it took a minute of CI there); the posix run keeps it
@Tag("store-independent")
class TypeChangeRewindTest extends HarnessTest {

  /** How the turn's changes are found. */
  enum Mode {
    /** The tools announce their paths (snapshot calls); nothing is tracked. */
    ANNOUNCED,
    /** A tracked workspace, changed by the shell alone: the scan at finish finds every change. */
    TRACKED
  }

  static Stream<Arguments> modes() {
    return Stream.of(Mode.values())
        .flatMap(mode -> Stream.of(Arguments.of(mode, false), Arguments.of(mode, true)));
  }

  /** One tool call: the paths it announces (in the announced mode), then what it does. */
  private record Call(List<String> announced, String script) {

    static Call of(String script, String... announced) {
      return new Call(List.of(announced), script);
    }
  }

  /** A finished turn, the tree before it (and a copy of it), the tree after it, its patch. */
  private record Turned(
      String turn,
      TurnSummary summary,
      Path beforeCopy,
      Map<String, String> before,
      Map<String, String> after,
      String patch) {}

  private int turns;

  private Turned turn(Mode mode, Call... calls) throws Exception {
    if (mode == Mode.TRACKED && turns == 0) {
      h.capture.tracker().track(h.workspace.root(), TrackingOptions.DEFAULTS);
    }
    Path beforeCopy = copy(h.workspace.root(), temp.resolve("before-" + turns++));
    Map<String, String> before = tree();
    String turn =
        h.capture.beginTurn(h.workspace.root(), Optional.of("session-1"), Optional.empty()).turn();
    for (Call call : calls) {
      if (mode == Mode.ANNOUNCED && !call.announced().isEmpty()) {
        h.capture.snapshot(turn, Optional.of("tool-" + turns), call.announced());
      }
      sh(call.script());
    }
    TurnSummary summary = h.capture.finishTurn(turn);
    Map<String, String> after = tree();
    String patch = h.queries.patch(turn, List.of());
    appliesBothWays(temp, patch, beforeCopy, after);
    return new Turned(turn, summary, beforeCopy, before, after, patch);
  }

  private Map<String, ChangeKind> changes(String turn) {
    return h.queries.records(turn).changes().stream()
        .collect(
            Collectors.toMap(
                change -> change.path().display(),
                change -> change.change().orElseThrow(),
                (a, b) -> a,
                TreeMap::new));
  }

  private RewindReport rewind(String turn, boolean to, boolean dryRun, boolean force) {
    return h.rewind.rewind(new RewindRequest(turn, to, Optional.empty(), dryRun, force));
  }

  /**
   * Rewinds {@code turned} (with {@code --to}: it and every later turn): the dry run first, which
   * must say what the run then does; the run gives back {@code turned}'s before-tree byte for byte;
   * rewinding the rewind turn gives back {@code after}. Returns the run's report.
   */
  private RewindReport rewindsExactly(
      Turned turned, boolean to, boolean force, Map<String, String> after) {
    RewindReport dry = rewind(turned.turn(), to, true, force);
    assertEquals(after, tree(), "a dry run writes nothing");
    RewindReport report = rewind(turned.turn(), to, false, force);
    assertEquals(outcome(dry), outcome(report), "the dry run is the run: " + dry);
    assertTrue(report.complete(), report.toString());
    assertEquals(turned.before(), tree(), report.toString());

    RewindReport undo = h.rewindTurn(report.rewindTurn().orElseThrow());
    assertTrue(undo.complete(), undo.toString());
    assertEquals(after, tree(), "undoing the rewind gives back the tree the turns left: " + undo);
    return report;
  }

  @ParameterizedTest
  @MethodSource("modes")
  void aFileThatBecomesADirectoryIsDeletedInThePatchAndComesBackOnceTheDirectoryIsRemoved(
      Mode mode, boolean force) throws Exception {
    h.workspace.file("node", "f\n").file("keep.txt", "k\n");
    Turned turned =
        turn(
            mode,
            Call.of("rm node && mkdir node && echo c > node/child.txt", "node", "node/child.txt"));
    assertEquals(
        Map.of("node", ChangeKind.TYPE_CHANGED, "node/child.txt", ChangeKind.ADDED),
        changes(turned.turn()));
    assertEquals(0, turned.summary().notRestorable(), turned.summary().toString());
    assertTrue(
        turned.patch().startsWith("diff --git a/node b/node\ndeleted file mode 100644\n"),
        "git's delete of node, then the file under it: " + turned.patch());

    RewindReport report = rewindsExactly(turned, false, force, turned.after());
    assertEquals(List.of("node", "node/child.txt"), paths(report.restored()));
    assertEquals(List.of("node"), paths(report.removedDirectories()));
  }

  @ParameterizedTest
  @MethodSource("modes")
  void aDirectoryThatBecomesAFileIsAddedInThePatchAndTheDirectoryComesBackWithItsFiles(
      Mode mode, boolean force) throws Exception {
    h.workspace
        .file("node/child.txt", "c\n")
        .file("node/other.txt", "o\n")
        .mode("node", "rwx--x---");
    Turned turned =
        turn(
            mode,
            Call.of(
                "rm -r node && printf 'g\\n' > node", "node", "node/child.txt", "node/other.txt"));
    assertEquals(
        Map.of(
            "node",
            mode == Mode.ANNOUNCED ? ChangeKind.TYPE_CHANGED : ChangeKind.ADDED,
            "node/child.txt",
            ChangeKind.DELETED,
            "node/other.txt",
            ChangeKind.DELETED),
        changes(turned.turn()),
        "as a file, node was nothing before (the scan indexes files): added, or a directory turned"
            + " file");
    assertEquals(0, turned.summary().notRestorable(), turned.summary().toString());
    assertTrue(
        turned.patch().startsWith("diff --git a/node b/node\nnew file mode 100644\n"),
        turned.patch());

    RewindReport report = rewindsExactly(turned, false, force, turned.after());
    assertEquals(List.of("node", "node/child.txt", "node/other.txt"), paths(report.restored()));
    assertEquals(List.of("node"), paths(report.createdDirectories()), "made again, mode 0710");
  }

  @ParameterizedTest
  @MethodSource("modes")
  void aFileThatBecomesATreeOfDirectoriesComesBackOnceTheyAreRemovedDeepestFirst(
      Mode mode, boolean force) throws Exception {
    h.workspace.file("node", "f\n");
    Turned turned =
        turn(
            mode,
            Call.of(
                "rm node && mkdir -p node/a/b node/d && echo c > node/a/b/c.txt"
                    + " && echo e > node/a/e.txt && chmod 700 node/a",
                "node",
                "node/a/b/c.txt",
                "node/a/e.txt",
                "node/d"));
    RewindReport report = rewindsExactly(turned, false, force, turned.after());
    assertEquals(
        List.of("node", "node/a", "node/a/b", "node/d"),
        paths(report.removedDirectories()).stream().sorted().toList());
    assertEquals(List.of("node", "node/a/b/c.txt", "node/a/e.txt"), paths(report.restored()));
  }

  @ParameterizedTest
  @MethodSource("modes")
  void aSymlinkToADirectoryThatBecomesADirectoryComesBackAsTheLink(Mode mode, boolean force)
      throws Exception {
    h.workspace.file("real/x.txt", "x\n").symlink("node", "real");
    // the tool first replaces the link, then writes into the directory it made: the second call
    // announces a path under a directory the turn made, which it saw as a link first
    Turned turned =
        turn(
            mode,
            Call.of("rm node && mkdir node", "node"),
            Call.of("echo y > node/y.txt", "node/y.txt"));
    assertEquals(
        Map.of("node", ChangeKind.TYPE_CHANGED, "node/y.txt", ChangeKind.ADDED),
        changes(turned.turn()));
    RewindReport report = rewindsExactly(turned, false, force, turned.after());
    assertEquals(List.of("node"), paths(report.removedDirectories()));
  }

  @ParameterizedTest
  @MethodSource("modes")
  void aDirectoryThatBecomesASymlinkToADirectoryComesBackWithItsFiles(Mode mode, boolean force)
      throws Exception {
    h.workspace.file("real/x.txt", "x\n").file("node/y.txt", "y\n");
    Turned turned = turn(mode, Call.of("rm -r node && ln -s real node", "node", "node/y.txt"));
    assertTrue(turned.patch().contains("new file mode 120000"), turned.patch());
    RewindReport report = rewindsExactly(turned, false, force, turned.after());
    assertEquals(List.of("node"), paths(report.createdDirectories()));
    assertEquals(List.of("node", "node/y.txt"), paths(report.restored()));
  }

  @ParameterizedTest
  @MethodSource("modes")
  void aDirectoryNamedByASnapshotIsADirectoryRecordAndItsRewindTheDirectoriesRewind(
      Mode mode, boolean force) throws Exception {
    h.workspace.directory("gone").mode("gone", "rwxr-x---");
    Turned turned = turn(mode, Call.of("mkdir made && rmdir gone", "made", "gone"));
    if (mode == Mode.ANNOUNCED) {
      assertEquals(
          Map.of("gone", ChangeKind.DIRECTORY_REMOVED, "made", ChangeKind.DIRECTORY_CREATED),
          changes(turned.turn()),
          "a directory is never a file change");
      assertEquals(
          0,
          turned.summary().changes().getOrDefault(ChangeKind.ADDED, 0)
              + turned.summary().changes().getOrDefault(ChangeKind.DELETED, 0));
      assertEquals(0, turned.summary().notRestorable());
    }
    Map<String, String> records = directoryRecords(turned.turn());
    assertEquals(List.of("gone", "made"), List.copyOf(records.keySet()), records.toString());
    assertEquals("1 0750 -> 0", records.get("gone"), "recorded with the turn's directories");
    assertTrue(records.get("made").startsWith("0 -> 1 "), records.toString());
    assertFalse(turned.patch().contains("diff --git"), turned.patch());

    RewindReport report = rewindsExactly(turned, false, force, turned.after());
    assertEquals(List.of(), paths(report.restored()), "no file entry: " + report);
    assertEquals(List.of("made"), paths(report.removedDirectories()));
    assertEquals(List.of("gone"), paths(report.createdDirectories()));
  }

  /** The turn's directory records: {@code path -> "present mode -> present mode"}. */
  private Map<String, String> directoryRecords(String turn) {
    long id = h.store.read(tx -> tx.turns().byExternalId(turn)).orElseThrow().id();
    Map<String, String> records = new TreeMap<>();
    for (StoredDirectoryChange row : h.store.read(tx -> tx.directoryChanges().ofTurn(id))) {
      if (!row.after().equals(Optional.of(row.before()))) {
        records.put(
            row.path().display(),
            state(row.before())
                + " -> "
                + row.after().map(TypeChangeRewindTest::state).orElse("?"));
      }
    }
    return records;
  }

  private static String state(DirectoryState state) {
    return state.present() ? "1 " + String.format("%04o", state.mode()) : "0";
  }

  @ParameterizedTest
  @MethodSource("modes")
  void whatTheUserPutInTheDirectoryTheTurnMadeKeepsItAndTheFileIsAConflictNamed(
      Mode mode, boolean force) throws Exception {
    h.workspace.file("node", "f\n");
    Turned turned =
        turn(
            mode,
            Call.of("rm node && mkdir node && echo c > node/child.txt", "node", "node/child.txt"));
    h.workspace.file("node/user.txt", "the user's\n");
    Map<String, String> withTheUsers = tree();

    RewindReport dry = rewind(turned.turn(), false, true, force);
    RewindReport report = rewind(turned.turn(), false, false, force);
    assertEquals(outcome(dry), outcome(report), "the dry run is the run");
    assertEquals(
        List.of(
            "restored node/child.txt",
            "skipped node conflict: the turns made it a directory, which is still there: it holds"
                + " what the turns did not make (see the directory's own entry); the file is not"
                + " put back",
            "skipped node directory_not_empty: the turns created it, and it still holds user.txt;"
                + " it is left as it is"),
        outcome(report));
    Map<String, String> expected = new TreeMap<>(withTheUsers);
    expected.remove("node/child.txt");
    assertEquals(expected, tree(), "only the turn's own file went; the user's is kept");
  }

  @ParameterizedTest
  @MethodSource("modes")
  void aFileTheUserEditedWhereTheDirectoryGoesBackIsNeverDeletedAndTheDirectoryIsLeft(
      Mode mode, boolean force) throws Exception {
    h.workspace.file("node/child.txt", "c\n");
    Turned turned =
        turn(mode, Call.of("rm -r node && printf 'g\\n' > node", "node", "node/child.txt"));
    h.workspace.file("node", "the user's edit\n");
    Map<String, String> edited = tree();

    RewindReport dry = rewind(turned.turn(), false, true, force);
    RewindReport report = rewind(turned.turn(), false, false, force);
    assertEquals(outcome(dry), outcome(report), "the dry run is the run");
    List<String> skipped =
        report.skipped().stream()
            .map(skip -> skip.path().display() + " " + skip.reason())
            .sorted()
            .toList();
    assertEquals(
        List.of("node conflict", "node refused", "node/child.txt refused"),
        skipped,
        report.toString());
    assertEquals(edited, tree(), "the user's file is kept, even with --force");
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aRewindThatFailsAfterTheFileIsBackWhereTheDirectoryWasIsResumedCompleteAsRemovedAndRestored(
      Mode mode) throws Exception {
    h.workspace.file("node", "f\n");
    Turned turned =
        turn(
            mode,
            Call.of("rm node && mkdir node && echo c > node/child.txt", "node", "node/child.txt"));
    // the second step's paths (node/child.txt's deletion is the first) are node, put back once
    // the directory was removed: the run fails after that rename, before node is journaled done
    AtomicInteger steps = new AtomicInteger();
    TestHook failing =
        point -> {
          if (point == TestHook.Point.BEFORE_REWIND_JOURNALED_DONE
              && steps.incrementAndGet() == 2) {
            throw new IllegalStateException("the rewind fails after the file is back");
          }
        };
    List<String> ids = new ArrayList<>();
    assertThrows(
        IllegalStateException.class,
        () ->
            new RewindService(h.store, h.handles, failing)
                .rewind(
                    new RewindRequest(turned.turn(), false, Optional.empty(), false, false),
                    (id, resumed) -> ids.add(id)));
    assertEquals(turned.before(), tree(), "the directory was removed and the file is back");

    RewindReport resumed = h.rewindTurn(turned.turn());
    assertEquals(ids.getFirst(), resumed.operation());
    assertTrue(resumed.complete(), "the file is the rewind's, not one in the way: " + resumed);
    assertEquals(List.of("node"), paths(resumed.removedDirectories()), resumed.toString());
    assertEquals(List.of("node", "node/child.txt"), paths(resumed.restored()));
    assertEquals(turned.before(), tree());
  }

  /** A turn that replaces the file {@code node} by {@code node/sub/child.txt}. */
  private Turned fileIntoNestedDirectories(Mode mode) throws Exception {
    return turn(
        mode,
        Call.of(
            "rm node && mkdir -p node/sub && echo c > node/sub/child.txt",
            "node",
            "node/sub/child.txt"));
  }

  @ParameterizedTest
  @MethodSource("modes")
  void aChainOfTypesOverSeveralTurnsIsFollowedAndRewoundToItsStartInOneGo(Mode mode, boolean force)
      throws Exception {
    h.workspace.file("node", "f\n").file("real/x.txt", "x\n");
    Turned first = fileIntoNestedDirectories(mode);
    turn(mode, Call.of("rm -r node && ln -s real node", "node", "node/sub/child.txt"));
    turn(mode, Call.of("rm node && printf 'g\\n' > node", "node"));
    turn(mode, Call.of("rm node && mkdir node && echo z > node/z.txt", "node", "node/z.txt"));
    Map<String, String> last = tree();

    RewindReport report = rewindsExactly(first, true, force, last);
    assertFalse(
        report.skipped().stream().anyMatch(skip -> skip.reason().equals("chain_broken")),
        "every change was a turn's: " + report);
  }

  @ParameterizedTest
  @MethodSource("modes")
  void aKnownAbsenceOfTheFileIsNoLongerAChainBreakAcrossADirectory(Mode mode, boolean force)
      throws Exception {
    // issue 28's tracked case: file -> directory (with a directory in it) -> file, rewound with
    // --to
    h.workspace.file("node", "f\n").file("keep", "k\n");
    Turned first = fileIntoNestedDirectories(mode);
    turn(mode, Call.of("rm -r node && echo g > node", "node", "node/sub/child.txt"));
    RewindReport dry = rewind(first.turn(), true, true, force);
    assertTrue(dry.complete(), dry.toString());
    assertEquals(List.of("node"), paths(dry.restored()), "g back to f, as one file's chain");
    assertEquals(List.of("node/sub/child.txt"), paths(dry.unchanged()));
    rewindsExactly(first, true, force, tree());
  }

  @ParameterizedTest
  @MethodSource("modes")
  void rewindingTheNamedPathOfATypeChangeRewindsWhatIsUnderItToo(Mode mode, boolean force)
      throws Exception {
    h.workspace.file("node", "f\n").file("other.txt", "o\n");
    Turned turned =
        turn(
            mode,
            Call.of(
                "rm node && mkdir node && echo c > node/child.txt && echo p > other.txt",
                "node",
                "node/child.txt",
                "other.txt"));
    RewindReport report =
        h.rewind.rewind(
            new RewindRequest(
                turned.turn(),
                false,
                Optional.empty(),
                false,
                force,
                PathInput.texts(List.of("node"))));
    assertTrue(report.complete(), report.toString());
    Map<String, String> expected = new TreeMap<>(turned.before());
    expected.put("other.txt", turned.after().get("other.txt"));
    assertEquals(expected, tree(), "node is a file again; other.txt stays as the turn left it");
    assertEquals(List.of(WorkspacePath.of("node")), report.removedDirectories());
    assertTrue(Files.isRegularFile(file("node")));
  }
}
