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
   * {@code content} (whose hash is {@code sha256}) as the blob table keeps it, compressed with
   * {@code dictionary}, a workspace's: what a track stores its baseline's files with.
   */
  public static EncodedBlob encode(Sha256 sha256, byte[] content, ContentDictionary dictionary) {
    BlobCodec.Encoded encoded = withCodec(codec -> codec.encode(content, dictionary));
    return new EncodedBlob(
        sha256,
        content.length,
        Optional.of(
            new EncodedBlob.Whole(encoded.encoding(), encoded.data(), encoded.dictionary())),
        Optional.empty());
  }

  /**
   * {@code content} (whose hash is {@code sha256}) kept as it is, uncompressed: what a snapshot
   * call appends to the before log, whose fold compresses it ({@link #compressedIfRaw}), off the
   * call.
   */
  public static EncodedBlob unencoded(Sha256 sha256, byte[] content) {
    return new EncodedBlob(sha256, content.length, BlobCodec.RAW, content);
  }

  /**
   * {@code blob} as the blob table keeps it: a whole content kept raw ({@link #unencoded}) is
   * compressed when that makes it smaller, as {@link #encode} does; any other is as it was.
   */
  static EncodedBlob compressedIfRaw(EncodedBlob blob) {
    return blob.whole()
        .filter(whole -> whole.encoding().equals(BlobCodec.RAW) && blob.delta().isEmpty())
        .map(whole -> encode(blob.sha256(), whole.data()))
        .orElse(blob);
  }

  /**
   * A delta at most this many times smaller than its content is stored without compressing the
   * content on its own as well. zstd at level 3 makes this repository's sources 2.9 times smaller
   * on their own ({@link BlobCodec}); a delta eight times smaller than the content is smaller than
   * that for any source text but the most repetitive, so the whole encoding would only be thrown
   * away. It is a changed file's after-state against its before-state with a few lines edited: a
   * delta of tens of bytes against tens of kilobytes. A delta larger than that (a file mostly
   * rewritten, or small) is compared with the whole, as before, and the smaller kept.
   */
  static final int DELTA_ALONE_RATIO = 8;

  /**
   * {@code content} (whose hash is {@code sha256}) as the blob table keeps it, compressed against
   * {@code base} when there is one the store takes deltas of ({@link DeltaBase#takesDeltas}): the
   * delta alone when it is {@link #DELTA_ALONE_RATIO} times smaller than the content and the base
   * is known to be stored ({@link DeltaBase#storedDepth}), else the delta and the content on its
   * own, the smaller kept by the store ({@link Blobs#put(EncodedBlob)}). So a file a few lines of
   * which changed is compressed once, and a base at the chain bound is not compressed against.
   */
  public static EncodedBlob encode(Sha256 sha256, byte[] content, Optional<DeltaBase> base) {
    Optional<DeltaBase> usable =
        base.filter(
            candidate ->
                candidate.content().length > 0
                    && !candidate.sha256().equals(sha256)
                    && candidate.takesDeltas());
    if (usable.isEmpty()) {
      return encode(sha256, content);
    }
    return withCodec(
        codec -> {
          EncodedBlob.Delta delta =
              new EncodedBlob.Delta(
                  usable.get().sha256(), codec.encodeDelta(content, usable.get().content()));
          if (usable.get().storedDepth().isPresent()
              && (long) delta.data().length * DELTA_ALONE_RATIO <= content.length) {
            return EncodedBlob.ofDelta(sha256, content.length, delta);
          }
          BlobCodec.Encoded whole = codec.encode(content);
          return new EncodedBlob(
              sha256,
              content.length,
              Optional.of(new EncodedBlob.Whole(whole.encoding(), whole.data())),
              Optional.of(delta));
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
