package io.turndiff.boundary;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Gathers what a read streams into chunks of {@link #CHUNK_BYTES} for a {@link ContentSink.Upload},
 * so the store gets few large chunks whatever sizes the reads return, and at most one chunk is held
 * in memory.
 */
final class UploadBuffer {

  static final int CHUNK_BYTES = 1 << 20;

  private final ContentSink.Upload upload;
  private byte[] chunk = new byte[CHUNK_BYTES];
  private int filled;

  UploadBuffer(ContentSink.Upload upload) {
    this.upload = upload;
  }

  void add(ByteBuffer bytes) {
    while (bytes.hasRemaining()) {
      int n = Math.min(bytes.remaining(), CHUNK_BYTES - filled);
      bytes.get(chunk, filled, n);
      filled += n;
      if (filled == CHUNK_BYTES) {
        upload.write(chunk);
        chunk = new byte[CHUNK_BYTES];
        filled = 0;
      }
    }
  }

  /** Hands over the last, partial chunk. */
  void flush() {
    if (filled > 0) {
      upload.write(Arrays.copyOf(chunk, filled));
      filled = 0;
    }
  }
}
