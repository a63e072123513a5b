package io.turndiff.review;

import io.turndiff.store.StoredRewindOperation;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How a turn stands to rewinds: the finished operations that rewound it (or some of its paths),
 * oldest first, and, for a turn of kind {@code rewind}, the operation it records.
 */
public record TurnRewinds(List<RewoundBy> rewoundBy, Optional<StoredRewindOperation> rewinds) {

  /** An agent turn no rewind has touched. */
  public static final TurnRewinds NONE = new TurnRewinds(List.of(), Optional.empty());

  public TurnRewinds {
    rewoundBy = List.copyOf(rewoundBy);
    Objects.requireNonNull(rewinds, "rewinds");
  }
}
