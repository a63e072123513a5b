package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.TurnKind;
import io.turndiff.model.WorkspacePath;
import io.turndiff.rewind.RewindReport;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The human rewind preview and report ({@code rewind --dry-run}, {@code undo}) on a terminal. */
class RewindReportTextTest {

  private static WorkspacePath path(String text) {
    return WorkspacePath.of(text);
  }

  /**
   * A report of turn {@code t1} that recorded no rewind turn: a plan, or a run that wrote nothing.
   */
  private static RewindReport report(
      boolean dryRun,
      List<WorkspacePath> restored,
      List<WorkspacePath> deleted,
      List<RewindReport.Skipped> skipped,
      List<WorkspacePath> removedDirectories,
      Map<WorkspacePath, RewindReport.ChangedBy> changedBy) {
    return report(dryRun, restored, deleted, skipped, removedDirectories, changedBy, List.of());
  }

  private static RewindReport report(
      boolean dryRun,
      List<WorkspacePath> restored,
      List<WorkspacePath> deleted,
      List<RewindReport.Skipped> skipped,
      List<WorkspacePath> removedDirectories,
      Map<WorkspacePath, RewindReport.ChangedBy> changedBy,
      List<WorkspacePath> hunkOf) {
    return new RewindReport(
        "op-1",
        dryRun,
        false,
        List.of("t1"),
        restored,
        List.of(),
        skipped,
        List.of(),
        Optional.empty(),
        List.of(),
        removedDirectories,
        List.of(),
        hunkOf,
        deleted,
        changedBy,
        Optional.empty(),
        Map.of(),
        hunkOf.isEmpty() ? Optional.empty() : Optional.of(2),
        Map.of(),
        dryRun || restored.isEmpty()
            ? RewindReport.Durability.NOTHING_WRITTEN
            : RewindReport.Durability.IN_PLACE);
  }

  @Test
  void aHunkRewindSaysWhichHunkOfWhichFile() {
    RewindReport plan =
        report(
            true,
            List.of(path("f.txt")),
            List.of(),
            List.of(),
            List.of(),
            Map.of(),
            List.of(path("f.txt")));
    assertTrue(
        new RewindReportText(Terminal.NONE)
            .of(plan)
            .startsWith("Hunk 2 of f.txt alone: the turn's other hunks stay.\n"),
        new RewindReportText(Terminal.NONE).of(plan));
  }

  @Test
  void filesTheTurnCreatedAreListedApartAsDeletions() {
    RewindReport plan =
        report(
            true,
            List.of(path("edited.txt"), path("new.txt")),
            List.of(path("new.txt")),
            List.of(),
            List.of(path("new")),
            Map.of());
    assertEquals(
        """
          put back    edited.txt
          delete      new.txt
          remove dir  new
        Would put back 3 paths, deleting 1 file the turns created (nothing is written yet).
        """,
        new RewindReportText(Terminal.NONE).of(plan));
  }

  @Test
  void aRewindThatPutNothingBackSaysNothingWasWrittenAndThatNoTurnMadeTheConflict() {
    RewindReport run =
        report(
            false,
            List.of(),
            List.of(),
            List.of(new RewindReport.Skipped(path("a.txt"), "conflict", "it changed")),
            List.of(),
            Map.of());
    assertEquals(
        """
          skip        a.txt: conflict (it changed)
                      changed outside any turn
        Put back 0 paths. 1 path left as it is (exit 3).
        Nothing was written, and no rewind turn was recorded.
        """,
        new RewindReportText(Terminal.NONE).of(run));
  }

  @Test
  void aRunThatWroteSaysItsFilesAreInPlaceAndNotYetKnownOnTheDisk() {
    RewindReport run =
        report(false, List.of(path("a.txt")), List.of(), List.of(), List.of(), Map.of());
    assertEquals(
        """
          put back    a.txt
        Put back 1 path.
        In place; not yet known to be on the disk: synced right after this report. A power loss \
        before that is repaired from the store by the next rewind in this workspace.
        """,
        new RewindReportText(Terminal.NONE).of(run));
  }

  private static final Instant AT = Instant.parse("2026-12-02T13:12:00Z");

  /** The text of a plan whose one path is a conflict that {@code by} explains. */
  private static String conflictExplainedBy(RewindReport.ChangedBy by) {
    RewindReport plan =
        report(
            true,
            List.of(),
            List.of(),
            List.of(new RewindReport.Skipped(path("a.txt"), "conflict", "it changed")),
            List.of(),
            Map.of(path("a.txt"), by));
    return new RewindReportText(Terminal.NONE).of(plan);
  }

  private static String clock() {
    return DateTimeFormatter.ofPattern("HH:mm").format(AT.atZone(ZoneId.systemDefault()));
  }

  /**
   * A later agent turn is named with how to rewind to it; the user's own edit, recorded outside any
   * turn, is named with how to see it, and no rewind to it is offered (a rewind --to leaves it).
   */
  @Test
  void aConflictNamesTheLaterTurnThatChangedItOrTheUsersEditOutsideAnyTurn() {
    String byAgent =
        conflictExplainedBy(new RewindReport.ChangedBy("t5", "s1", 5, AT, TurnKind.AGENT));
    String byUser =
        conflictExplainedBy(new RewindReport.ChangedBy("t4", "s1", 4, AT, TurnKind.OUTSIDE));
    assertTrue(
        byAgent.contains(
            "changed by turn 5 of session s1 at "
                + clock()
                + " (rewind to here: turndiff rewind --to --turn t5)"),
        byAgent);
    assertTrue(
        byUser.contains(
            "changed outside any turn (turn 4 of session s1 at "
                + clock()
                + ": turndiff show --turn t4)"),
        byUser);
    assertTrue(!byUser.contains("rewind --to"), byUser);
  }
}
