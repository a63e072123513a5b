package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.turndiff.model.WorkspacePath;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A rewind reads and hashes each path once to decide it: the run decides on what its dry run read a
 * moment before, not on a second read (docs/rewind-protocol.md, section 4). The check right before
 * the rename still reads the path and puts nothing in place unless it holds exactly what was
 * decided on, so an edit made after the dry run's read is never overwritten, even one that keeps
 * the file's size and modification time.
 *
 * <p>The edit is made when the rewind names its operation ({@link RewindStarted}), after its dry
 * run and before the run's first step, by a real write to the file.
 */
class DecidedOnTheDryRunsReadTest extends HarnessTest {

  private static String lines(int changed, String as, int also, String alsoAs) {
    return IntStream.rangeClosed(1, 20)
        .mapToObj(n -> n == changed ? as : n == also ? alsoAs : "line " + n)
        .collect(Collectors.joining("\n", "", "\n"));
  }

  /** Rewinds {@code turn}, running {@code edit} once the operation is named. */
  private RewindReport rewindEditingAfterTheDryRun(String turn, Runnable edit) {
    return h.rewind.rewind(
        new RewindRequest(turn, false, Optional.empty(), false, false),
        (operation, resumed) -> edit.run());
  }

  private void write(String relative, String content) {
    try {
      Files.writeString(h.workspace.resolve(relative), content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void anEditMadeAfterTheDryRunsReadIsAConflictNotMergedOnASecondRead() throws Exception {
    h.workspace.file("a.txt", lines(0, "", 0, "")).file("b.txt", "before b\n");
    String turn =
        h.turn(
            List.of("a.txt", "b.txt"),
            () -> {
              write("a.txt", lines(3, "the turn's line 3", 0, ""));
              write("b.txt", "after b\n");
            });
    String usersEdit = lines(3, "the turn's line 3", 18, "the user's line 18");

    RewindReport report = rewindEditingAfterTheDryRun(turn, () -> write("a.txt", usersEdit));

    // read a second time, the edit would have been merged (line 3 given back, line 18 kept): the
    // run decided on the dry run's read, and the check before the rename found the path changed
    assertEquals(List.of(WorkspacePath.of("b.txt")), report.restored(), report.toString());
    assertEquals(List.of(), report.merged(), report.toString());
    assertEquals(
        List.of(
            new RewindReport.Skipped(
                WorkspacePath.of("a.txt"), "conflict", "it changed while the rewind ran")),
        report.skipped());
    assertEquals(usersEdit, h.workspace.readText("a.txt"), "the edit is never overwritten");
    assertEquals("before b\n", h.workspace.readText("b.txt"));
    assertNoStagedFileLeft();
    // the path is left as it was: rewinding again now decides on the edit, and merges it
    RewindReport again = h.rewindTurn(turn);
    assertEquals(List.of(WorkspacePath.of("a.txt")), again.merged(), again.toString());
    assertEquals(lines(0, "", 18, "the user's line 18"), h.workspace.readText("a.txt"));
  }

  @Test
  void anEditThatKeepsTheSizeAndTheModificationTimeIsStillCaught() throws Exception {
    h.workspace.file("a.txt", "before a\n");
    String turn = h.turn(List.of("a.txt"), () -> write("a.txt", "after a\n"));
    Path a = h.workspace.resolve("a.txt");
    FileTime mtime = Files.getLastModifiedTime(a);

    RewindReport report =
        rewindEditingAfterTheDryRun(
            turn,
            () -> {
              // the same size, and the modification time put back: only the content tells
              write("a.txt", "AFTER A\n");
              try {
                Files.setLastModifiedTime(a, mtime);
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });

    assertEquals(List.of(), report.restored(), report.toString());
    assertEquals(
        List.of(
            new RewindReport.Skipped(
                WorkspacePath.of("a.txt"), "conflict", "it changed while the rewind ran")),
        report.skipped());
    assertEquals("AFTER A\n", h.workspace.readText("a.txt"), "the edit is never overwritten");
    assertNoStagedFileLeft();
  }

  private void assertNoStagedFileLeft() throws IOException {
    try (Stream<Path> files = Files.list(h.workspace.root())) {
      assertEquals(
          List.of(),
          files.filter(p -> p.getFileName().toString().startsWith(".turndiff-")).toList());
    }
  }
}
