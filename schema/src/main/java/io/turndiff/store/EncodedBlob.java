package io.turndiff.store;

import io.turndiff.model.Sha256;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Content already compressed for the blob table (off the store's lock, by a {@link BlobEncoder}):
 * on its own ({@code whole}), as a delta against a base ({@code delta}), or both. Which one is
 * stored is decided where it is stored ({@link Blobs#put(EncodedBlob)}): the delta when it is the
 * smaller (or the only one) and its base is still stored and within the chain bound, else the
 * whole.
 *
 * <p>A content encoded only as a delta is one whose delta is so much smaller than the content that
 * compressing it on its own as well would be work thrown away ({@link BlobEncoder#encode(Sha256,
 * byte[], Optional)}); should the store find its base unusable after all, it decodes the delta and
 * compresses the content whole itself.
 */
public record EncodedBlob(Sha256 sha256, long size, Optional<Whole> whole, Optional<Delta> delta) {

  /**
   * The content compressed on its own: {@code zstd}, or {@code raw} when that is no smaller; a zstd
   * frame may have been compressed with a workspace's dictionary, which it names.
   */
  public record Whole(String encoding, byte[] data, OptionalLong dictionary) {
    public Whole(String encoding, byte[] data) {
      this(encoding, data, OptionalLong.empty());
    }
  }

  /** The content compressed against the whole content of the stored blob {@code base}. */
  public record Delta(Sha256 base, byte[] data) {}

  public EncodedBlob {
    if (whole.isEmpty() && delta.isEmpty()) {
      throw new IllegalArgumentException(
          "blob " + sha256 + " is encoded neither whole nor as a delta");
    }
  }

  /** Content compressed on its own, with no base. */
  public EncodedBlob(Sha256 sha256, long size, String encoding, byte[] data) {
    this(sha256, size, Optional.of(new Whole(encoding, data)), Optional.empty());
  }

  /** Content compressed only against {@code delta}'s base. */
  static EncodedBlob ofDelta(Sha256 sha256, long size, Delta delta) {
    return new EncodedBlob(sha256, size, Optional.empty(), Optional.of(delta));
  }

  /**
   * The delta when it is the encoding to store if its base allows: the only one, or smaller than
   * the whole.
   */
  Optional<Delta> preferredDelta() {
    return delta.filter(some -> whole.isEmpty() || some.data().length < whole.get().data().length);
  }
}
