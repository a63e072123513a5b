package io.turndiff.cli;

import io.turndiff.model.WorkspacePath;
import io.turndiff.rewind.RewindReport;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * A rewind's report, or its plan, for a person: a line per path with what happens to it (or
 * happened), each skipped path with its reason, and how to undo what was done. The JSON report says
 * the same for programs ({@code --json}, or any output that is not a terminal).
 */
final class RewindReportText {

  private final Terminal terminal;

  RewindReportText(Terminal terminal) {
    this.terminal = terminal;
  }

  String of(RewindReport report) {
    boolean plan = report.dryRun();
    StringBuilder text = new StringBuilder();
    report
        .beforeToolCall()
        .ifPresent(
            call ->
                text.append("To before tool call ")
                    .append(Terminal.printable(call))
                    .append(
                        ": it and every later call of the turn; earlier calls' changes stay.\n"));
    report
        .hunk()
        .ifPresent(
            hunk ->
                text.append("Hunk ")
                    .append(hunk)
                    .append(" of ")
                    .append(Terminal.printable(report.paths().getFirst().display()))
                    .append(" alone: the turn's other hunks stay.\n"));
    // a file the turns created goes: said apart from those put back as they were
    lines(
        text,
        "put back",
        report.restored().stream().filter(path -> !report.deleted().contains(path)).toList(),
        Terminal.GREEN);
    report
        .notes()
        .forEach(
            (path, note) ->
                text.append(" ".repeat(14))
                    .append(Terminal.printable(path.display()))
                    .append(": ")
                    .append(Terminal.printable(note))
                    .append('\n'));
    lines(text, plan ? "delete" : "deleted", report.deleted(), Terminal.YELLOW);
    lines(text, plan ? "merge" : "merged", report.merged(), Terminal.GREEN);
    lines(text, plan ? "make dir" : "made dir", report.createdDirectories(), Terminal.GREEN);
    lines(text, plan ? "remove dir" : "removed dir", report.removedDirectories(), Terminal.GREEN);
    lines(text, "dir mode", report.directoryModes(), Terminal.GREEN);
    lines(text, "unchanged", report.unchanged(), Terminal.DIM);
    for (RewindReport.Skipped skipped : report.skipped()) {
      text.append("  ")
          .append(terminal.paint(Terminal.RED, pad("skip")))
          .append(Terminal.printable(skipped.path().display()))
          .append(": ")
          .append(skipped.reason())
          .append(
              skipped.detail() == null || skipped.detail().isEmpty()
                  ? ""
                  : " (" + Terminal.printable(skipped.detail()) + ")")
          .append('\n');
      if (skipped.reason().equals("conflict")) {
        text.append(" ".repeat(14)).append(whoChanged(report, skipped.path())).append('\n');
      }
    }
    int handled =
        report.restored().size()
            + report.merged().size()
            + report.createdDirectories().size()
            + report.removedDirectories().size()
            + report.directoryModes().size();
    String deleting =
        report.deleted().isEmpty()
            ? ""
            : (plan ? ", deleting " : ", deleted ")
                + RelativeTime.count(report.deleted().size(), "file")
                + " the turns created";
    text.append(
        plan
            ? "Would put back "
                + RelativeTime.count(handled, "path")
                + deleting
                + " (nothing is written yet)."
            : (report.replayed() ? "Done before: " : "Put back ")
                + RelativeTime.count(handled, "path")
                + deleting
                + ".");
    if (!report.complete()) {
      text.append(' ')
          .append(
              terminal.paint(
                  Terminal.YELLOW,
                  RelativeTime.count(report.skipped().size(), "path")
                      + (plan ? " would be left" : " left")
                      + " as "
                      + (report.skipped().size() == 1 ? "it is" : "they are")
                      + " (exit 3)."));
    }
    text.append('\n');
    if (!plan && handled == 0 && report.rewindTurn().isEmpty()) {
      text.append("Nothing was written, and no rewind turn was recorded.\n");
    }
    report
        .rewindTurn()
        .ifPresent(
            turn ->
                text.append("Recorded as rewind turn ")
                    .append(turn)
                    .append(": turndiff rewind --turn ")
                    .append(turn)
                    .append(" puts it all back.\n"));
    if (report.durability() == RewindReport.Durability.IN_PLACE) {
      // the command syncs once it has printed this (RewindService.makeDurable): what the report
      // says is true of the files now, and on the disk a moment later
      text.append(
          "In place; not yet known to be on the disk: synced right after this report. A power loss"
              + " before that is repaired from the store by the next rewind in this workspace.\n");
    }
    return text.toString();
  }

  /**
   * Who made a conflict: the newest later turn that changed the path (and how to rewind to it), the
   * turn outside any turn that recorded the user's own edit, or no turn at all.
   */
  private static String whoChanged(RewindReport report, WorkspacePath path) {
    RewindReport.ChangedBy by = report.changedBy().get(path);
    if (by == null) {
      return "changed outside any turn";
    }
    String turn =
        "turn "
            + by.seq()
            + " of session "
            + Terminal.printable(by.session())
            + " at "
            + CLOCK.format(by.at().atZone(ZoneId.systemDefault()));
    // the user's own edit, recorded at the next turn's begin: it is named, so that it can be seen
    // (turndiff show) and put back out deliberately (turndiff rewind --turn), never by --to
    return by.outside()
        ? "changed outside any turn (" + turn + ": turndiff show --turn " + by.turn() + ")"
        : "changed by " + turn + " (rewind to here: turndiff rewind --to --turn " + by.turn() + ")";
  }

  private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm");

  private void lines(StringBuilder text, String verb, List<WorkspacePath> paths, String colour) {
    for (WorkspacePath path : paths) {
      text.append("  ")
          .append(terminal.paint(colour, pad(verb)))
          .append(Terminal.printable(path.display()))
          .append('\n');
    }
  }

  private static String pad(String verb) {
    return verb + " ".repeat(Math.max(1, 12 - verb.length()));
  }
}
