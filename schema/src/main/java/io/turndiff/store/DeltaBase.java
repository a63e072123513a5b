package io.turndiff.store;

import io.turndiff.model.Sha256;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A content that a new one may be compressed against: a file's before-state for its after-state, or
 * an after-state for the diff between the two. {@code storedDepth} is its depth in the blob table
 * ({@link Blobs#MAX_DEPTH}) when the caller read it from there ({@link Blobs#deltaBasesOf}), empty
 * when that is not known (an after-state not stored yet): knowing it, the encoder knows whether the
 * store will take a delta of it before it compresses anything ({@link BlobEncoder#encode(Sha256,
 * byte[], java.util.Optional)}).
 */
public record DeltaBase(Sha256 sha256, byte[] content, OptionalLong storedDepth) {

  public DeltaBase {
    Objects.requireNonNull(sha256);
    Objects.requireNonNull(content);
    Objects.requireNonNull(storedDepth);
  }

  /** A base whose depth in the store is not known (it may not be stored yet). */
  public DeltaBase(Sha256 sha256, byte[] content) {
    this(sha256, content, OptionalLong.empty());
  }

  /** Whether the store takes a delta of this base: it is not at the chain bound, if stored. */
  boolean takesDeltas() {
    return storedDepth.isEmpty() || storedDepth.getAsLong() < Blobs.MAX_DEPTH;
  }
}
