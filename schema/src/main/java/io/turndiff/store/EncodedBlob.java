package io.turndiff.store;

import io.turndiff.model.Sha256;
import java.util.Optional;

/**
 * Content already compressed for the blob table (off the store's lock, by a {@link BlobEncoder}):
 * on its own ({@code encoding}, {@code data}), and, when it has a base, also as a delta against it.
 * Which of the two is stored is decided where it is stored ({@link Blobs#put(EncodedBlob)}): the
 * delta when it is smaller and its base is still stored and within the chain bound.
 */
public record EncodedBlob(
    Sha256 sha256, long size, String encoding, byte[] data, Optional<Delta> delta) {

  /** The content compressed against the whole content of the stored blob {@code base}. */
  public record Delta(Sha256 base, byte[] data) {}

  /** Content compressed on its own, with no base. */
  public EncodedBlob(Sha256 sha256, long size, String encoding, byte[] data) {
    this(sha256, size, encoding, data, Optional.empty());
  }
}
