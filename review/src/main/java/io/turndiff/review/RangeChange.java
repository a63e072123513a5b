package io.turndiff.review;

import io.turndiff.model.ChangeKind;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import java.util.List;

/**
 * What a stretch of turns did to one path: its first before-state and its last after-state in the
 * stretch.
 *
 * @param turns the turns of the stretch that recorded the path, oldest first
 */
public record RangeChange(
    WorkspacePath path,
    Snapshot before,
    Snapshot after,
    ChangeKind change,
    int added,
    int removed,
    List<String> turns) {}
