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
}
