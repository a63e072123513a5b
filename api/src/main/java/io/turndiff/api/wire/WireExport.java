package io.turndiff.api.wire;

import io.turndiff.export.TurnExport;
import java.util.List;

/**
 * {@code turndiff export --commit}: the branch and the commit written, its parent (null: the first
 * commit of the repository) and tree, the paths it put in or took out, and each path of the turns
 * left out with why.
 */
public record WireExport(
    String branch,
    String commit,
    String parent,
    String tree,
    List<String> paths,
    List<LeftOut> leftOut) {

  public record LeftOut(String path, String reason) {}

  public static WireExport of(TurnExport.Exported exported) {
    return new WireExport(
        exported.branch(),
        exported.commit(),
        exported.parent().orElse(null),
        exported.tree(),
        exported.paths().stream().map(path -> path.display()).toList(),
        exported.leftOut().stream()
            .map(out -> new LeftOut(out.path().display(), out.reason()))
            .toList());
  }
}
