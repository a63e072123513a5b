package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.capture.track.TrackingOptions;
import io.turndiff.model.BoundaryKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A rewind puts back the exact tree, directories and their modes included: the directories a turn
 * created go, those it removed come back with their mode, and an undo does the reverse. Trees are
 * compared whole.
 */
class RewindDirectoriesTest extends HarnessTest {

  private void removeTree(String relative) throws Exception {
    try (Stream<Path> walk = Files.walk(file(relative))) {
      for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }

  @Test
  void theDirectoriesATurnCreatedGoAndItsUndoBringsThemBackWithTheirModes() throws Exception {
    h.workspace.file("keep.txt", "keep\n");
    Map<String, String> before = tree();
    String turn =
        h.turn(
            List.of("new/deep/f.txt"),
            () -> {
              h.workspace.file("new/deep/f.txt", "made by the agent\n");
              h.workspace.mode("new", "rwxr-x---").mode("new/deep", "rwx------");
            });
    Map<String, String> afterTurn = tree();

    RewindReport rewound = h.rewindTurn(turn);
    assertTrue(rewound.complete(), rewound.toString());
    assertEquals(List.of("new", "new/deep"), paths(rewound.removedDirectories()));
    assertEquals(before, tree(), "new/ is gone: the tree the turn started from");

    RewindReport undone = h.rewindTurn(rewound.rewindTurn().orElseThrow());
    assertTrue(undone.complete(), undone.toString());
    assertEquals(List.of("new", "new/deep"), paths(undone.createdDirectories()));
    assertEquals(afterTurn, tree(), "the file and its directories with their modes (0750, 0700)");
  }

  @Test
  void aDirectoryKeepsTheStateTheTurnFirstSawItIn() throws Exception {
    Map<String, String> before = tree();
    String turn =
        h.capture.beginTurn(h.workspace.root(), Optional.of("session-1"), Optional.empty()).turn();
    h.capture.snapshot(turn, Optional.of("write-a"), List.of("new/a.txt"));
    h.workspace.file("new/a.txt", "a\n");
    h.capture.snapshot(turn, Optional.of("write-b"), List.of("new/b.txt"));
    h.workspace.file("new/b.txt", "b\n");
    h.capture.finishTurn(turn);
    RewindReport report = h.rewindTurn(turn);
    assertTrue(report.complete(), report.toString());
    assertEquals(
        List.of("new"),
        paths(report.removedDirectories()),
        "new/ did not exist when the turn began");
    assertEquals(before, tree());
  }

  @Test
  void aRemovedDirectoryComesBackWithItsSubdirectoriesModes() throws Exception {
    h.workspace
        .file("dir/a.txt", "a\n")
        .file("dir/sub/b.txt", "b\n")
        .mode("dir/sub", "rwx------")
        .mode("dir", "rwxr-x--x");
    Map<String, String> before = tree();
    String turn = h.turn(List.of("dir/a.txt", "dir/sub/b.txt"), () -> removeTree("dir"));
    RewindReport report = h.rewindTurn(turn);
    assertTrue(report.complete(), report.toString());
    assertEquals(List.of("dir", "dir/sub"), paths(report.createdDirectories()));
    assertEquals(before, tree(), "dir/sub is 0700 again");
  }

  @Test
  void aDirectoryTheTurnCreatedThatHoldsSomethingElseIsLeftAndReported() throws Exception {
    String turn =
        h.turn(
            List.of("made/by-agent.txt"), () -> h.workspace.file("made/by-agent.txt", "agent\n"));
    h.workspace.file("made/by-user.txt", "the user's\n");
    RewindReport report = h.rewindTurn(turn);
    assertEquals(List.of("made/by-agent.txt"), paths(report.restored()));
    assertFalse(Files.exists(file("made/by-agent.txt")));
    assertEquals("the user's\n", h.workspace.readText("made/by-user.txt"), "never touched");
    assertFalse(
        report.complete(),
        "the tree is not the one the turn started from, and the report says why");
    RewindReport.Skipped kept = report.skipped().getFirst();
    assertEquals("made", kept.path().display());
    assertEquals("directory_not_empty", kept.reason());
    assertTrue(kept.detail().contains("by-user.txt"), kept.detail());
    assertEquals(List.of(), report.removedDirectories());
  }

  @Test
  void aDirectoryTheTurnRemovedWhoseNameAFileHoldsNowIsLeftAndReported() throws Exception {
    h.workspace.directory("empty").file("top.txt", "top\n");
    h.capture.tracker().track(h.workspace.root(), TrackingOptions.DEFAULTS);
    String turn =
        h.capture.beginTurn(h.workspace.root(), Optional.of("session-1"), Optional.empty()).turn();
    sh("rmdir empty");
    h.capture.finishTurn(turn);
    h.workspace.file("empty", "the user's file where the directory was\n");
    RewindReport report = h.rewindTurn(turn);
    assertEquals(
        "the user's file where the directory was\n",
        h.workspace.readText("empty"),
        "never touched");
    assertFalse(report.complete(), report.toString());
    assertEquals(
        List.of("empty:refused"),
        report.skipped().stream()
            .map(skipped -> skipped.path().display() + ":" + skipped.reason())
            .toList(),
        report.toString());
  }

  @Test
  void aDirectoryTheTurnCreatedWhoseNameAFileHoldsNowIsLeftAndReported() throws Exception {
    String turn = h.turn(List.of("gen/out.txt"), () -> h.workspace.file("gen/out.txt", "agent\n"));
    Files.delete(file("gen/out.txt"));
    Files.delete(file("gen"));
    h.workspace.file("gen", "the user's file\n");
    RewindReport plan =
        h.rewind.rewind(new RewindRequest(turn, false, Optional.empty(), true, false));
    assertTrue(
        plan.skipped().stream()
            .anyMatch(
                skipped ->
                    skipped.path().display().equals("gen") && skipped.reason().equals("refused")),
        "the dry run says so too: " + plan);
    RewindReport report = h.rewindTurn(turn);
    assertEquals("the user's file\n", h.workspace.readText("gen"), "never touched");
    assertFalse(report.complete(), report.toString());
    assertTrue(
        report.skipped().stream()
            .anyMatch(
                skipped ->
                    skipped.path().display().equals("gen") && skipped.reason().equals("refused")),
        report.toString());
  }

  @Test
  void aDirectoryTheTurnDidNotCreateIsNeverRemovedNorReported() throws Exception {
    String turn = h.turn(List.of("maybe/x.txt", "a.txt"), () -> h.workspace.file("a.txt", "a\n"));
    h.workspace.file("maybe/the-users.txt", "made after the turn\n");
    RewindReport report = h.rewindTurn(turn);
    assertTrue(report.complete(), "maybe/ was absent before and after the turn: " + report);
    assertEquals(List.of(), report.removedDirectories());
    assertTrue(Files.exists(file("maybe/the-users.txt")));
  }

  @Test
  void aDryRunNamesTheDirectoriesAndWritesNothing() throws Exception {
    h.workspace.file("old/a.txt", "a\n");
    String turn =
        h.turn(
            List.of("old/a.txt", "new/b.txt"),
            () -> {
              removeTree("old");
              h.workspace.file("new/b.txt", "b\n");
            });
    Map<String, String> afterTurn = tree();
    RewindReport plan = h.dryRun(turn);
    assertEquals(List.of("old"), paths(plan.createdDirectories()));
    assertEquals(List.of("new"), paths(plan.removedDirectories()));
    assertEquals(afterTurn, tree());
    RewindReport real = h.rewindTurn(turn);
    assertEquals(plan.createdDirectories(), real.createdDirectories());
    assertEquals(plan.removedDirectories(), real.removedDirectories());
  }

  @Test
  void shellTurnsOfATrackedWorkspaceCreateAndRemoveDirectoriesThatComeBackExactly()
      throws Exception {
    h.workspace
        .file("dir/a.txt", "a\n")
        .file("dir/sub/b.txt", "b\n")
        .mode("dir/sub", "rwx------")
        .directory("dir/empty")
        .mode("dir/empty", "rwx--x---")
        .file("top.txt", "top\n");
    h.capture.tracker().track(h.workspace.root(), TrackingOptions.DEFAULTS);
    Map<String, String> before = tree();
    String turn =
        h.capture.beginTurn(h.workspace.root(), Optional.of("session-1"), Optional.empty()).turn();
    sh("mkdir -p a/b && echo x > a/b/f && rm -r dir && mkdir -p build/out && chmod 700 a");
    h.capture.finishTurn(turn);
    Map<String, String> afterTurn = tree();

    RewindReport report = h.rewindTurn(turn);
    assertTrue(report.complete(), report.toString());
    assertEquals(
        before,
        tree(),
        "a/ and build/ gone; dir/, dir/sub (0700) and the empty dir/empty (0710) back");

    RewindReport undone = h.rewindTurn(report.rewindTurn().orElseThrow());
    assertTrue(undone.complete(), undone.toString());
    assertEquals(afterTurn, tree(), "the undo puts the turn's directories back, a/ with its 0700");
  }

  /** A tracked workspace with a/ (0755, holding files); returns its tree. */
  private Map<String, String> trackedWorkspace(RewindHarness harness) {
    h.workspace
        .file("a/x.txt", "x\n")
        .file("a/sub/y.txt", "y\n")
        .mode("a", "rwxr-xr-x")
        .file("top.txt", "top\n");
    harness.capture.tracker().track(h.workspace.root(), TrackingOptions.DEFAULTS);
    return tree();
  }

  /** A turn made of {@code script} run by the shell in the (tracked) workspace. */
  private String shellTurn(RewindHarness harness, String script) throws Exception {
    String turn =
        harness
            .capture
            .beginTurn(h.workspace.root(), Optional.of("session-1"), Optional.empty())
            .turn();
    sh(script);
    harness.capture.finishTurn(turn);
    return turn;
  }

  @ParameterizedTest
  @EnumSource(BoundaryKind.class)
  void aShellTurnsChmodOfADirectoryIsRewoundAndItsUndoChangesItBack(BoundaryKind kind)
      throws Exception {
    try (RewindHarness harness = h.over(kind)) {
      Map<String, String> before = trackedWorkspace(harness);
      String turn = shellTurn(harness, "chmod 700 a");
      Map<String, String> afterTurn = tree();
      assertEquals("dir rwx------", afterTurn.get("a"));

      RewindReport plan = harness.dryRun(turn);
      assertEquals(List.of("a"), paths(plan.directoryModes()), plan.toString());
      assertEquals(afterTurn, tree(), "a dry run changes nothing");

      RewindReport report = harness.rewindTurn(turn);
      assertTrue(report.complete(), report.toString());
      assertEquals(List.of("a"), paths(report.directoryModes()));
      assertEquals(before, tree(), "a/ is 0755 again, its files as they were");

      RewindReport undone = harness.rewindTurn(report.rewindTurn().orElseThrow());
      assertTrue(undone.complete(), undone.toString());
      assertEquals(List.of("a"), paths(undone.directoryModes()));
      assertEquals(afterTurn, tree(), "the undo gives a/ its 0700 again");
    }
  }

  @Test
  void aDirectoryWhoseModeChangedAgainSinceTheTurnIsLeftAndReportedUnlessForced() throws Exception {
    trackedWorkspace(h);
    String turn = shellTurn(h, "chmod 700 a && echo more >> top.txt");
    h.workspace.mode("a", "rwxr-x---"); // the user, after the turn
    Map<String, String> userTree = tree();

    RewindReport plan = h.dryRun(turn);
    RewindReport report = h.rewindTurn(turn);
    for (RewindReport shown : List.of(plan, report)) {
      assertFalse(shown.complete(), shown.toString());
      assertEquals(List.of(), shown.directoryModes());
      assertEquals(1, shown.skipped().size(), shown.toString());
      RewindReport.Skipped left = shown.skipped().getFirst();
      assertEquals("a", left.path().display());
      assertEquals("conflict", left.reason());
      assertTrue(left.detail().contains("0700 then, 0750 now"), left.detail());
    }
    assertEquals(List.of("top.txt"), paths(report.restored()));
    assertEquals("dir rwxr-x---", tree().get("a"), "the user's mode is left");
    assertEquals("top\n", h.workspace.readText("top.txt"));

    RewindReport forced = h.force(turn);
    assertTrue(forced.complete(), forced.toString());
    assertEquals(List.of("a"), paths(forced.directoryModes()));
    assertEquals("dir rwxr-xr-x", tree().get("a"), "--force puts the turn's before-mode back");
    RewindReport undone = h.rewindTurn(forced.rewindTurn().orElseThrow());
    assertTrue(undone.complete(), undone.toString());
    Map<String, String> expected = new TreeMap<>(userTree);
    expected.put("top.txt", tree().get("top.txt"));
    assertEquals(expected, tree(), "undoing the forced rewind gives the user's 0750 back");
  }

  @Test
  void aModeChangedBetweenTwoRewoundTurnsIsAChainBroken() throws Exception {
    trackedWorkspace(h);
    String first = shellTurn(h, "chmod 700 a");
    h.workspace.mode("a", "rwxr-x---"); // between the turns, outside them
    shellTurn(h, "echo again > a/x.txt");

    RewindReport report = h.rewindTo(first);
    assertEquals(List.of("a/x.txt"), paths(report.restored()));
    assertEquals(List.of(), report.directoryModes());
    assertEquals(
        List.of("a:chain_broken"),
        report.skipped().stream().map(skip -> skip.path().display() + ":" + skip.reason()).toList(),
        report.toString());
    assertEquals("dir rwxr-x---", tree().get("a"), "the mode set between the turns is left");
  }

  @Test
  void aDirectoryAToolNamedItselfGetsItsModeBack() throws Exception {
    h.workspace.file("dir/f.txt", "f\n").mode("dir", "rwx------");
    Map<String, String> before = tree();
    String turn = h.turn(List.of("dir"), () -> h.workspace.mode("dir", "rwxr-xr-x"));
    Map<String, String> afterTurn = tree();

    RewindReport report = h.rewindTurn(turn);
    assertTrue(report.complete(), "a directory is not a file the rewind skips: " + report);
    assertEquals(List.of("dir"), paths(report.directoryModes()));
    assertEquals(before, tree());
    RewindReport undone = h.rewindTurn(report.rewindTurn().orElseThrow());
    assertTrue(undone.complete(), undone.toString());
    assertEquals(afterTurn, tree());
  }
}
