package io.turndiff.cli;

import io.turndiff.model.WorkspacePath;
import io.turndiff.rewind.RewindReport;
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
    lines(text, "put back", report.restored(), Terminal.GREEN);
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
    }
    int handled =
        report.restored().size()
            + report.merged().size()
            + report.createdDirectories().size()
            + report.removedDirectories().size()
            + report.directoryModes().size();
    text.append(
        plan
            ? "Would put back " + RelativeTime.count(handled, "path") + " (nothing is written yet)."
            : (report.replayed() ? "Done before: " : "Put back ")
                + RelativeTime.count(handled, "path")
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
    report
        .rewindTurn()
        .ifPresent(
            turn ->
                text.append("Recorded as rewind turn ")
                    .append(turn)
                    .append(": turndiff rewind --turn ")
                    .append(turn)
                    .append(" puts it all back.\n"));
    return text.toString();
  }

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
