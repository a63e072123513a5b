package io.turndiff.capture.track;

import io.turndiff.model.WorkspacePath;
import io.turndiff.store.StoredTurn;
import java.util.List;
import java.util.Map;

/**
 * What changed in a tracked workspace since its index was written, like {@code git status
 * --porcelain}, and which open turns each change could belong to (issue 27): every agent turn open
 * in the workspace, or the one whose tool call named the path; none while no turn is open (a change
 * between turns is the user's).
 */
public record WorkspaceStatus(
    String workspace,
    List<PathChange> changes,
    boolean partial,
    List<WorkspacePath> leftOut,
    long elapsedNanos,
    Map<WorkspacePath, List<StoredTurn>> couldBelongTo,
    IgnoredFilesSeen ignoredFiles) {

  public WorkspaceStatus {
    changes = List.copyOf(changes);
    leftOut = List.copyOf(leftOut);
    couldBelongTo = Map.copyOf(couldBelongTo);
  }

  /** The open turns the change at {@code path} could belong to, oldest first. */
  public List<StoredTurn> couldBelongTo(WorkspacePath path) {
    return couldBelongTo.getOrDefault(path, List.of());
  }
}
