package io.turndiff.boundary;

import io.turndiff.model.GivenPath;
import io.turndiff.model.Snapshot;
import java.util.Optional;

/**
 * One snapshot the boundary took, with the content it read (only for a captured regular file) and
 * the given path it was reached through when that differs from the snapshot's path.
 *
 * @param streamed the content of this captured file is in the store already: it was over the size
 *     limit and streamed there while it was read ({@link OverLimit.Capture}), so it does not travel
 *     in {@code content}
 */
public record Observation(
    Snapshot snapshot, Optional<GivenPath> via, Optional<byte[]> content, boolean streamed) {

  public Observation {
    if (streamed && (content.isPresent() || snapshot.storedContent().isEmpty())) {
      throw new IllegalArgumentException("a streamed content is stored, and is not carried");
    }
    if (!streamed && content.isPresent() != snapshot.storedContent().isPresent()) {
      throw new IllegalArgumentException(
          "content travels with exactly the snapshots that store it");
    }
  }

  public Observation(Snapshot snapshot, Optional<GivenPath> via, Optional<byte[]> content) {
    this(snapshot, via, content, false);
  }

  Observation withVia(Optional<GivenPath> given) {
    return new Observation(snapshot, given, content, streamed);
  }
}
