package io.turndiff.capture;

import io.turndiff.model.BoundaryKind;
import java.nio.file.Path;

/**
 * A turn that was just begun: its id, its session's id, its number in the session, the workspace's
 * real root and the boundary that reads it.
 */
public record BeganTurn(
    String session,
    String turn,
    long seq,
    Path workspace,
    boolean newSession,
    BoundaryKind boundary) {}
