package io.turndiff.api.wire;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.turndiff.capture.track.WorkspaceStatus;
import io.turndiff.model.WorkspacePath;
import java.util.List;

/** What changed in a tracked workspace since its index was written. */
public record WireStatus(
    String workspace,
    boolean partial,
    List<String> leftOut,
    List<Change> changes,
    double elapsedMs,
    WireIgnoredFiles ignoredFiles) {

  /**
   * One changed path, with its change kind, its porcelain letter, and the open turns it could
   * belong to (none while no turn is open: a change between turns is the user's).
   */
  public record Change(
      @JsonUnwrapped WirePath path, String change, String status, List<WireTurnRef> openTurns) {}

  public static WireStatus of(WorkspaceStatus status) {
    return new WireStatus(
        status.workspace(),
        status.partial(),
        status.leftOut().stream().map(WorkspacePath::display).toList(),
        status.changes().stream()
            .map(
                change ->
                    new Change(
                        WirePath.of(change.path()),
                        change.kind().code(),
                        String.valueOf(change.letter()),
                        WireTurnRef.ofTurns(status.couldBelongTo(change.path()))))
            .toList(),
        status.elapsedNanos() / 1e6,
        WireIgnoredFiles.of(status.ignoredFiles()));
  }
}
