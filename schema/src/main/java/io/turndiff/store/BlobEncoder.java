package io.turndiff.store;

import io.turndiff.model.Sha256;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;

/**
 * Compresses content for the blob table the way the store does, on the caller's thread: many files
 * can be compressed in parallel, off the store's lock, and then stored in one transaction.
 *
 * <p>A compression context is costly to make (a fresh one per blob halves the speed), so contexts
 * are kept in a small process-wide pool: each call borrows one, and at most one per processor is
 * kept idle.
 */
public final class BlobEncoder {

  private static final ConcurrentLinkedQueue<BlobCodec> IDLE = new ConcurrentLinkedQueue<>();
  private static final int KEPT_IDLE = Runtime.getRuntime().availableProcessors();

  private BlobEncoder() {}

  /** {@code content} (whose hash is {@code sha256}) as the blob table keeps it. */
  public static EncodedBlob encode(Sha256 sha256, byte[] content) {
    BlobCodec.Encoded encoded = withCodec(codec -> codec.encode(content));
    return new EncodedBlob(sha256, content.length, encoded.encoding(), encoded.data());
  }

  /**
   * {@code content} (whose hash is {@code sha256}) as the blob table keeps it, compressed both on
   * its own and against {@code base} when there is one: the store keeps the smaller ({@link
   * Blobs#put(EncodedBlob)}).
   */
  public static EncodedBlob encode(Sha256 sha256, byte[] content, Optional<DeltaBase> base) {
    Optional<DeltaBase> usable =
        base.filter(
            candidate -> candidate.content().length > 0 && !candidate.sha256().equals(sha256));
    if (usable.isEmpty()) {
      return encode(sha256, content);
    }
    return withCodec(
        codec -> {
          BlobCodec.Encoded whole = codec.encode(content);
          byte[] delta = codec.encodeDelta(content, usable.get().content());
          return new EncodedBlob(
              sha256,
              content.length,
              whole.encoding(),
              whole.data(),
              Optional.of(new EncodedBlob.Delta(usable.get().sha256(), delta)));
        });
  }

  /** One chunk of a content stored in chunks, as the chunk table keeps it. */
  public static EncodedChunk encodeChunk(byte[] chunk) {
    return encodeChunk(chunk, Optional.empty());
  }

  /**
   * One chunk of a content stored in chunks against {@code base}, the chunk at the same seq of the
   * content's base (its before-state): by reference when the bytes are the same, else compressed
   * both on its own and against it, the smaller kept. A few lines changed in the middle of a big
   * file so cost one small delta chunk; lines inserted or removed shift the chunks after them by as
   * many bytes, which patch-from finds in the base chunk all the same.
   */
  public static EncodedChunk encodeChunk(byte[] chunk, Optional<byte[]> base) {
    if (base.isPresent() && Arrays.equals(chunk, base.get())) {
      return new EncodedChunk(chunk.length, BlobCodec.SAME, new byte[0]);
    }
    return withCodec(
        codec -> {
          BlobCodec.Encoded whole = codec.encode(chunk);
          if (base.isPresent() && base.get().length > 0) {
            byte[] delta = codec.encodeDelta(chunk, base.get());
            if (delta.length < whole.data().length) {
              return new EncodedChunk(chunk.length, BlobCodec.DELTA, delta);
            }
          }
          return new EncodedChunk(chunk.length, whole.encoding(), whole.data());
        });
  }

  private static <T> T withCodec(Function<BlobCodec, T> work) {
    BlobCodec codec = IDLE.poll();
    if (codec == null) {
      codec = new BlobCodec();
    }
    try {
      return work.apply(codec);
    } finally {
      if (IDLE.size() < KEPT_IDLE) {
        IDLE.add(codec);
      } else {
        codec.close();
      }
    }
  }
}
