package io.turndiff.capture.record;

import io.turndiff.boundary.Observation;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.model.Reason;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.Store;
import java.util.Optional;

/**
 * How a finish reads the after-state of a path its turn changed: as a capture records it, a file
 * too large to hold in memory streamed into the store against the path's before-state ({@link
 * BlobSink#storingAgainst}), so that a big file a few lines of which changed costs about one chunk.
 *
 * <p>A tracked workspace's scan may have read the path already; it reads without a store to stream
 * into, so a big file it only fingerprinted ({@link Reason#TOO_LARGE}) is read again here, and
 * stored when it is within the size limit. Any other state the scan took is the after-state.
 */
public final class AfterStateRead {

  private final Store store;
  private final WorkspaceBoundary boundary;

  public AfterStateRead(Store store, WorkspaceBoundary boundary) {
    this.store = store;
    this.boundary = boundary;
  }

  /** The after-state of {@code path}, which the turn found as {@code before}. */
  public Observation of(WorkspacePath path, Snapshot before) {
    return boundary.observeCapturing(path, BlobSink.storingAgainst(store, before.storedContent()));
  }

  /** As {@link #of(WorkspacePath, Snapshot)}, unless {@code scanned} holds it already. */
  public Observation of(WorkspacePath path, Snapshot before, Optional<Observation> scanned) {
    return scanned
        .filter(seen -> seen.snapshot().reason().filter(Reason.TOO_LARGE::equals).isEmpty())
        .orElseGet(() -> of(path, before));
  }
}
