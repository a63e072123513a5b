package io.turndiff.store;

import io.turndiff.model.Sha256;
import java.util.Objects;

/**
 * A stored content that a new one may be compressed against: a file's before-state for its
 * after-state, or an after-state for the diff between the two.
 */
public record DeltaBase(Sha256 sha256, byte[] content) {

  public DeltaBase {
    Objects.requireNonNull(sha256);
    Objects.requireNonNull(content);
  }
}
