package io.turndiff.store;

import io.turndiff.model.RewindStatus;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import java.util.Optional;

/**
 * One path of a rewind: the before-state it puts back, the after-state expected on disk, and where
 * it stands.
 *
 * @param temporaryName the name beside the path that the rewind last journaled to stage its new
 *     content under (journaled before the file is created: a file there is the rewind's own)
 */
public record StoredRewindEntry(
    long id,
    WorkspacePath path,
    Snapshot target,
    Optional<Snapshot> expected,
    RewindStatus status,
    Optional<String> reason,
    Optional<String> detail,
    Optional<Sha256> merged,
    Optional<String> temporaryName) {}
