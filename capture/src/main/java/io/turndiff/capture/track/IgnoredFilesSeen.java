package io.turndiff.capture.track;

import io.turndiff.model.WorkspacePath;
import java.util.List;

/**
 * What a scan did with the files git ignores in the directories it walked: what the workspace keeps
 * of them, the cap, how many it took into the index, and those it left out for their size (named,
 * since a rewind cannot give back what was never indexed).
 */
public record IgnoredFilesSeen(
    IgnoredFiles kept, long maxBytes, int indexed, List<WorkspacePath> overCap) {

  public IgnoredFilesSeen {
    overCap = List.copyOf(overCap);
  }

  static IgnoredFilesSeen of(Scan scan, long maxBytes) {
    return new IgnoredFilesSeen(
        scan.keptOfIgnored(),
        maxBytes,
        scan.ignoredFiles().size(),
        scan.ignoredOverCap().stream().sorted().toList());
  }
}
