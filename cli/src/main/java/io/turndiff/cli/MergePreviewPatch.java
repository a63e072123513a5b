package io.turndiff.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.model.WorkspacePath;
import io.turndiff.rewind.MergePreview;
import io.turndiff.rewind.RewindReport;
import java.io.PrintWriter;

/**
 * A rewind plan's merge previews ({@code rewind --dry-run --patch}) as one patch: for each file to
 * merge, the change from the file as it is now to what the rewind writes there, in path order. On a
 * terminal it is coloured as {@code turndiff diff} colours a patch ({@link ColouredPatch}); piped
 * it is the plain text, which {@code git apply} applies to the workspace to get what the rewind
 * would write. A preview cut for its size ends with a comment line saying how many lines were left
 * out.
 */
final class MergePreviewPatch {

  private MergePreviewPatch() {}

  /**
   * Refuses {@code --patch} where it means nothing ({@code rewind} and {@code undo} alike), before
   * the store is opened: without {@code --dry-run} there is no plan to preview (the run's report is
   * a receipt), and with {@code --json} the plan already holds the previews as {@code
   * merge_previews}, so that two outputs would be asked of one stream.
   */
  static void refuseOutsideAPlan(boolean patch, boolean dryRun, boolean json) {
    if (patch && (!dryRun || json)) {
      throw new CliException(
          ExitCode.USAGE,
          dryRun
              ? "--patch prints the merge previews as a patch, --json the plan (which holds them"
                  + " as merge_previews): give one of them"
              : "--patch shows what a rewind would merge: it goes with --dry-run");
    }
  }

  /**
   * Prints {@code plan} with its previews: on a terminal {@code intro} (which turn, which
   * workspace), the plan in words, then the coloured patch, all through the pager as {@code
   * turndiff diff} is; through a pipe the plain patch alone, so that {@code git apply} takes it.
   */
  static void print(RewindReport plan, String intro, Terminal terminal, PrintWriter out) {
    if (terminal.interactive()) {
      terminal.page(intro + new RewindReportText(terminal).of(plan) + of(plan, terminal), out);
    } else {
      out.print(of(plan, terminal));
      out.flush();
    }
  }

  static String of(RewindReport plan, Terminal terminal) {
    StringBuilder text = new StringBuilder();
    for (WorkspacePath path : plan.merged()) {
      MergePreview preview = plan.mergePreviews().get(path);
      if (preview == null) {
        continue; // a receipt: what was merged is in the rewind turn (turndiff diff --turn)
      }
      text.append(ColouredPatch.of(preview.patch(), terminal));
      if (preview.cut()) {
        text.append(
                terminal.paint(
                    Terminal.DIM,
                    "# turndiff: the preview of "
                        + Terminal.printable(path.display())
                        + " is cut here: "
                        + RelativeTime.count(preview.omittedLines(), "more line")
                        + " not shown"))
            .append('\n');
      }
    }
    return text.toString();
  }
}
