package io.turndiff.api.wire;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.turndiff.model.WorkspacePath;
import io.turndiff.rewind.RewindReport;
import java.util.List;

/**
 * A rewind's report, or its plan on a dry run; paths in the lists as text. {@code paths}: the paths
 * a rewind of some paths was asked for, {@code null} for a rewind of whole turns.
 */
public record WireRewindReport(
    String operation,
    boolean dryRun,
    boolean replayed,
    boolean complete,
    List<String> turns,
    List<String> restored,
    List<String> merged,
    List<Skipped> skipped,
    List<String> unchanged,
    List<String> createdDirectories,
    List<String> removedDirectories,
    List<String> directoryModes,
    String rewindTurn,
    List<String> paths) {

  /** A path the rewind did not put back, and why. */
  public record Skipped(@JsonUnwrapped WirePath path, String reason, String detail) {}

  public static WireRewindReport of(RewindReport report) {
    return new WireRewindReport(
        report.operation(),
        report.dryRun(),
        report.replayed(),
        report.complete(),
        report.turns(),
        texts(report.restored()),
        texts(report.merged()),
        report.skipped().stream()
            .map(skip -> new Skipped(WirePath.of(skip.path()), skip.reason(), skip.detail()))
            .toList(),
        texts(report.unchanged()),
        texts(report.createdDirectories()),
        texts(report.removedDirectories()),
        texts(report.directoryModes()),
        report.rewindTurn().orElse(null),
        report.paths().isEmpty() ? null : texts(report.paths()));
  }

  private static List<String> texts(List<WorkspacePath> paths) {
    return paths.stream().map(WorkspacePath::display).toList();
  }
}
