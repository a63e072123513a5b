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
 * @param ignoredByGit a record of the stretch is one of a file git ignores ({@link
 *     io.turndiff.store.StoredFileChange#ignoredByGit}): its diff may hold secrets
 */
public record RangeChange(
    WorkspacePath path,
    Snapshot before,
    Snapshot after,
    ChangeKind change,
    int added,
    int removed,
    List<String> turns,
    boolean ignoredByGit) {}
