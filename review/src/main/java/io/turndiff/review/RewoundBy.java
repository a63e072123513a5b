package io.turndiff.review;

import io.turndiff.store.StoredRewindOperation;
import java.util.Objects;

/**
 * A finished rewind operation that rewound a turn, or some of its paths.
 *
 * @param complete whether it left nothing behind: no path and no directory skipped
 */
public record RewoundBy(StoredRewindOperation operation, boolean complete) {

  public RewoundBy {
    Objects.requireNonNull(operation, "operation");
    if (!operation.done()) {
      throw new IllegalArgumentException(
          "operation '" + operation.externalId() + "' has not finished: it rewound nothing yet");
    }
  }
}
