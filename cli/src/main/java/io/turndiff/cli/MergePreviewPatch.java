package io.turndiff.cli;

import io.turndiff.model.WorkspacePath;
import io.turndiff.rewind.MergePreview;
import io.turndiff.rewind.RewindReport;

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
