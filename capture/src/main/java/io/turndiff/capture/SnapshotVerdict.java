package io.turndiff.capture;

import io.turndiff.model.GivenPath;
import io.turndiff.model.Snapshot;
import java.util.Optional;

/**
 * What a snapshot call did for one recorded path.
 *
 * @param input the path as the call gave it
 * @param snapshot the state seen now
 * @param recorded true when this call recorded the path's before-state; false when an earlier call in the
 *     turn already had (the first before-state wins, and this call is only noted as having asked)
 */
public record SnapshotVerdict(GivenPath input, Snapshot snapshot, Optional<GivenPath> via, boolean recorded) {
}
