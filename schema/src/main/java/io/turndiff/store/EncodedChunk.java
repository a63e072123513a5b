package io.turndiff.store;

/**
 * One chunk of a content stored in chunks, compressed off the store's lock by a {@link
 * BlobEncoder}.
 */
public record EncodedChunk(int size, String encoding, byte[] data) {

  public EncodedChunk {
    if (size <= 0) {
      throw new IllegalArgumentException("a chunk holds at least one byte");
    }
  }

  /**
   * Whether this chunk is decoded with the chunk at the same seq of its content's base ({@code
   * same} or {@code delta}).
   */
  public boolean refersToBase() {
    return BlobCodec.SAME.equals(encoding) || BlobCodec.DELTA.equals(encoding);
  }
}
