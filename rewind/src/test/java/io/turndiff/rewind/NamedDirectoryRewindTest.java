package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.capture.TurnSummary;
import io.turndiff.model.ChangeKind;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A directory is never a file change: one a snapshot names that is a directory before and after is
 * compared on its mode alone (never {@code unknown}), counts in no {@code not_restorable}, and
 * makes no rewind incomplete; the directories' rewind puts its mode back.
 */
class NamedDirectoryRewindTest extends HarnessTest {

  private record Finished(String turn, TurnSummary summary) {}

  private Finished turn(List<String> paths, RewindHarness.ThrowingRunnable edit) throws Exception {
    String turn =
        h.capture.beginTurn(h.workspace.root(), Optional.of("session-1"), Optional.empty()).turn();
    h.capture.snapshot(turn, Optional.of("tool-1"), paths);
    edit.run();
    return new Finished(turn, h.capture.finishTurn(turn));
  }

  private Map<String, ChangeKind> changes(String turn) {
    return h.queries.records(turn).changes().stream()
        .collect(
            Collectors.toMap(
                change -> change.path().display(), change -> change.change().orElseThrow()));
  }

  @Test
  void aNamedDirectoryThatStaysADirectoryIsUnchangedAndTheRewindIsComplete() throws Exception {
    h.workspace.file("src/a.txt", "a\n");
    Map<String, String> before = tree();
    Finished finished =
        turn(List.of("src", "src/a.txt"), () -> h.workspace.file("src/a.txt", "b\n"));
    assertEquals(
        Map.of("src", ChangeKind.UNCHANGED, "src/a.txt", ChangeKind.MODIFIED),
        changes(finished.turn()));
    assertEquals(0, finished.summary().notRestorable(), finished.summary().toString());
    assertEquals(0, finished.summary().changes().getOrDefault(ChangeKind.UNKNOWN, 0));

    RewindReport report = h.rewindTurn(finished.turn());
    assertTrue(report.complete(), "src/ is a directory before and after: " + report);
    assertEquals(List.of("src/a.txt"), paths(report.restored()));
    assertEquals(before, tree());
  }

  @Test
  void aNamedDirectoryWhoseModeTheTurnChangedIsModifiedAndItsModeComesBack() throws Exception {
    h.workspace.directory("bin");
    Map<String, String> before = tree();
    Finished finished =
        turn(
            List.of("bin"),
            () ->
                Files.setPosixFilePermissions(
                    h.workspace.resolve("bin"), PosixFilePermissions.fromString("rwx------")));
    assertEquals(
        Map.of("bin", ChangeKind.MODIFIED),
        changes(finished.turn()),
        "its mode is all its record knows");
    assertEquals(0, finished.summary().notRestorable(), "the directories' rewind puts a mode back");

    RewindReport report = h.rewindTurn(finished.turn());
    assertTrue(report.complete(), report.toString());
    assertEquals(List.of("bin"), paths(report.directoryModes()));
    assertEquals(before, tree(), "bin/ is 0755 again");
  }
}
