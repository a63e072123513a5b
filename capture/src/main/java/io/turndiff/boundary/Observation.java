package io.turndiff.boundary;

import io.turndiff.model.GivenPath;
import io.turndiff.model.Snapshot;
import java.util.Optional;

/**
 * One snapshot the boundary took, with the content it read (only for a captured regular file) and the
 * given path it was reached through when that differs from the snapshot's path.
 */
public record Observation(Snapshot snapshot, Optional<GivenPath> via, Optional<byte[]> content) {

  public Observation {
    if (content.isPresent() != snapshot.storedContent().isPresent()) {
      throw new IllegalArgumentException("content travels with exactly the snapshots that store it");
    }
  }

  Observation withVia(Optional<GivenPath> given) {
    return new Observation(snapshot, given, content);
  }
}
