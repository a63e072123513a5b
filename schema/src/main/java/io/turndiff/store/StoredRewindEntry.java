package io.turndiff.store;

import io.turndiff.model.RewindStatus;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import java.util.Optional;

/**
 * One path of a rewind: the before-state it puts back, the after-state expected on disk, and where it stands.
 */
public record StoredRewindEntry(long id, WorkspacePath path, Snapshot target, Optional<Snapshot> expected,
                                RewindStatus status, Optional<String> reason, Optional<String> detail,
                                Optional<Sha256> merged) {
}
