package io.turndiff.capture.track;

import io.turndiff.model.WorkspacePath;
import java.util.List;

/**
 * What changed in a tracked workspace since its index was written, like {@code git status
 * --porcelain}.
 */
public record WorkspaceStatus(
    String workspace,
    List<PathChange> changes,
    boolean partial,
    List<WorkspacePath> leftOut,
    long elapsedNanos) {}
