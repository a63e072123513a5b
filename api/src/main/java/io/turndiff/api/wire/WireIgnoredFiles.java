package io.turndiff.api.wire;

import io.turndiff.capture.track.IgnoredFilesSeen;
import io.turndiff.model.WorkspacePath;
import java.util.List;

/**
 * What a tracked workspace keeps of the files git ignores ({@code none}, {@code metadata} or {@code
 * small}), the size cap, how many the scan took into the index, and those it left out for their
 * size.
 */
public record WireIgnoredFiles(String kept, long maxBytes, int indexed, List<String> overCap) {

  public static WireIgnoredFiles of(IgnoredFilesSeen seen) {
    return new WireIgnoredFiles(
        seen.kept().code(),
        seen.maxBytes(),
        seen.indexed(),
        seen.overCap().stream().map(WorkspacePath::display).toList());
  }
}
