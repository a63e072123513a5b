package io.turndiff.boundary;

/**
 * What a read does with a regular file over the size limit, whose content is not held in memory.
 */
public sealed interface OverLimit {

  /**
   * A bounded fingerprint: the file's stat and a hash of a fixed number of sampled blocks, however
   * large it is. It can show that the content changed, never that it did not.
   */
  record Sample() implements OverLimit {}

  /** Read it all for its SHA-256, keeping no content. */
  record Hash() implements OverLimit {}

  /** Read it all into {@code sink}, streaming, so that its state is captured whatever its size. */
  record Capture(ContentSink sink) implements OverLimit {}

  /**
   * What a capture does: a file too large to hold in memory but within {@code upTo} bytes (the size
   * limit) is read into {@code sink}, streaming, so that its state is captured; one over it is read
   * as {@code beyond} says (sampled or hashed, its content not stored).
   */
  record Stream(ContentSink sink, long upTo, OverLimit beyond) implements OverLimit {

    public Stream {
      if (beyond instanceof Stream || beyond instanceof Capture) {
        throw new IllegalArgumentException("beyond the size limit a file is sampled or hashed");
      }
    }
  }
}
