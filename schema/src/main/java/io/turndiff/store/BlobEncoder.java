package io.turndiff.store;

import io.turndiff.model.Sha256;

/**
 * Compresses content for the blob table the way the store does, on the caller's thread: many files can be
 * compressed in parallel and then stored in one transaction. One encoder per thread; close it after.
 */
public final class BlobEncoder implements AutoCloseable {

  private final BlobCodec codec = new BlobCodec();

  public EncodedBlob encode(Sha256 sha256, byte[] content) {
    BlobCodec.Encoded encoded = codec.encode(content);
    return new EncodedBlob(sha256, content.length, encoded.encoding(), encoded.data());
  }

  @Override
  public void close() {
    codec.close();
  }
}
