package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.turndiff.model.WorkspacePath;
import io.turndiff.rewind.MergePreview;
import io.turndiff.rewind.RewindReport;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code rewind --dry-run --patch}'s text: the previews in path order, a cut one with its count.
 */
class MergePreviewPatchTest {

  private static final String A = "diff --git a/a.txt b/a.txt\n@@ -1 +1 @@\n-two\n+2\n";
  private static final String B = "diff --git a/b.txt b/b.txt\n@@ -1 +1 @@\n-x\n";

  @Test
  void thePreviewsInPathOrderACutOneSayingHowMuchWasLeftOut() {
    WorkspacePath a = WorkspacePath.of("a.txt");
    WorkspacePath b = WorkspacePath.of("b.txt");
    RewindReport plan =
        new RewindReport(
            "op-1",
            true,
            false,
            List.of("t1"),
            List.of(),
            List.of(a, b),
            List.of(),
            List.of(),
            Optional.empty(),
            List.of(),
            List.of(),
            List.of(),
            List.of(),
            List.of(),
            Map.of(),
            Optional.empty(),
            Map.of(),
            Optional.empty(),
            Map.of(a, new MergePreview(A, 1, 1, 0), b, new MergePreview(B, 0, 3001, 3000)),
            RewindReport.Durability.NOTHING_WRITTEN);
    assertEquals(
        A + B + "# turndiff: the preview of b.txt is cut here: 3000 more lines not shown\n",
        MergePreviewPatch.of(plan, Terminal.NONE));
  }
}
