package io.turndiff.boundary;

import io.turndiff.model.Sha256;
import java.util.Optional;

/**
 * Where a read that captures whatever the size ({@link OverLimit.Capture}) puts the content of a
 * file over the size limit: streamed chunk by chunk, never held whole in memory. The boundary first
 * hashes the file; a content the sink {@link #holds} already is not read again.
 */
public interface ContentSink {

  /** Whether the content with this SHA-256 is stored completely already. */
  boolean holds(Sha256 sha256);

  /**
   * Begins storing one content; empty when this sink only looks (the state then stays uncaptured).
   */
  Optional<Upload> begin();

  /** One content being stored: its chunks in order, then exactly one of complete or abandon. */
  interface Upload {

    /** The next chunk of the content (the array is the chunk, and is not reused by the caller). */
    void write(byte[] chunk);

    /** All of it was written, and it hashed to {@code sha256}. */
    void complete(Sha256 sha256, long size);

    /** The file moved while it was read: what was written is dropped. */
    void abandon();
  }
}
