package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.track.TrackingOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A rewind puts back the exact tree, directories and their modes included: the directories a turn created
 * go, those it removed come back with their mode, and an undo does the reverse. Trees are compared whole.
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
    String turn = h.turn(List.of("new/deep/f.txt"), () -> {
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
    String turn = h.capture.beginTurn(h.workspace.root(), Optional.of("session-1"), Optional.empty()).turn();
    h.capture.snapshot(turn, Optional.of("write-a"), List.of("new/a.txt"));
    h.workspace.file("new/a.txt", "a\n");
    h.capture.snapshot(turn, Optional.of("write-b"), List.of("new/b.txt"));
    h.workspace.file("new/b.txt", "b\n");
    h.capture.finishTurn(turn);
    RewindReport report = h.rewindTurn(turn);
    assertTrue(report.complete(), report.toString());
    assertEquals(List.of("new"), paths(report.removedDirectories()), "new/ did not exist when the turn began");
    assertEquals(before, tree());
  }

  @Test
  void aRemovedDirectoryComesBackWithItsSubdirectoriesModes() throws Exception {
    h.workspace.file("dir/a.txt", "a\n").file("dir/sub/b.txt", "b\n").mode("dir/sub", "rwx------")
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
    String turn = h.turn(List.of("made/by-agent.txt"), () -> h.workspace.file("made/by-agent.txt", "agent\n"));
    h.workspace.file("made/by-user.txt", "the user's\n");
    RewindReport report = h.rewindTurn(turn);
    assertEquals(List.of("made/by-agent.txt"), paths(report.restored()));
    assertFalse(Files.exists(file("made/by-agent.txt")));
    assertEquals("the user's\n", h.workspace.readText("made/by-user.txt"), "never touched");
    assertFalse(report.complete(), "the tree is not the one the turn started from, and the report says why");
    RewindReport.Skipped kept = report.skipped().getFirst();
    assertEquals("made", kept.path().display());
    assertEquals("directory_not_empty", kept.reason());
    assertTrue(kept.detail().contains("by-user.txt"), kept.detail());
    assertEquals(List.of(), report.removedDirectories());
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
    String turn = h.turn(List.of("old/a.txt", "new/b.txt"), () -> {
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
  void shellTurnsOfATrackedWorkspaceCreateAndRemoveDirectoriesThatComeBackExactly() throws Exception {
    h.workspace.file("dir/a.txt", "a\n").file("dir/sub/b.txt", "b\n").mode("dir/sub", "rwx------")
        .directory("dir/empty").mode("dir/empty", "rwx--x---").file("top.txt", "top\n");
    h.capture.tracker().track(h.workspace.root(), TrackingOptions.DEFAULTS);
    Map<String, String> before = tree();
    String turn = h.capture.beginTurn(h.workspace.root(), Optional.of("session-1"), Optional.empty()).turn();
    sh("mkdir -p a/b && echo x > a/b/f && rm -r dir && mkdir -p build/out && chmod 700 a");
    h.capture.finishTurn(turn);
    Map<String, String> afterTurn = tree();

    RewindReport report = h.rewindTurn(turn);
    assertTrue(report.complete(), report.toString());
    assertEquals(before, tree(), "a/ and build/ gone; dir/, dir/sub (0700) and the empty dir/empty (0710) back");

    RewindReport undone = h.rewindTurn(report.rewindTurn().orElseThrow());
    assertTrue(undone.complete(), undone.toString());
    assertEquals(afterTurn, tree(), "the undo puts the turn's directories back, a/ with its 0700");
  }
}
