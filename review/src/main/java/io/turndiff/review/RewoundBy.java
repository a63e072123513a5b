package io.turndiff.review;

import io.turndiff.store.StoredRewindOperation;
import java.util.Objects;
import java.util.Optional;

/**
 * A finished rewind operation that rewound a turn, or some of its paths.
 *
 * @param complete whether it left nothing behind: no path and no directory skipped
 * @param undoneBy the rewind turn of the rewind that undid it (rewound its rewind turn), while that
 *     undo stands; empty when the rewind stands
 */
public record RewoundBy(
    StoredRewindOperation operation, boolean complete, Optional<String> undoneBy) {

  public RewoundBy {
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(undoneBy, "undoneBy");
    if (!operation.done()) {
      throw new IllegalArgumentException(
          "operation '" + operation.externalId() + "' has not finished: it rewound nothing yet");
    }
  }
}
