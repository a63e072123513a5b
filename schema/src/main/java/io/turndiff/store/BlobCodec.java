package io.turndiff.store;

import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdDictContentType;
import com.github.luben.zstd.ZstdException;
import java.util.OptionalLong;

/**
 * How blob bytes are kept: zstd at level 3, or raw when compression does not make them smaller
 * (already compressed binaries). On this repository's sources, compressing each file on its own,
 * level 3 gives 2.87x against 2.79x at level 1 and deflate's 3.08x, at about 150 MB/s with a reused
 * context (a fresh context per blob costs twice as much). One codec belongs to one store and is
 * used under its lock.
 *
 * <p>A content can also be compressed against another one, its base ({@link #DELTA}): zstd's
 * "patch-from", the base's whole content loaded as a raw-content dictionary, so that what the two
 * share costs a few bytes. Decoding needs the very same base; the frame carries zstd's checksum, so
 * that decoding against any other content fails instead of giving wrong bytes.
 */
final class BlobCodec implements AutoCloseable {

  static final String RAW = "raw";
  static final String ZSTD = "zstd";

  /** A blob whose content is in the content_chunk table, each chunk encoded raw or zstd. */
  static final String CHUNKED = "chunked";

  /** A zstd frame compressed against the whole content of the blob's base ({@code base_sha256}). */
  static final String DELTA = "delta";

  /**
   * A chunk whose bytes are those of the chunk at the same seq of its content's base (data empty).
   */
  static final String SAME = "same";

  private static final int LEVEL = 3;

  private final ZstdCompressCtx context = new ZstdCompressCtx().setLevel(LEVEL);

  /** Made when first needed: a loaded dictionary stays with a context, so deltas have their own. */
  private ZstdCompressCtx deltaContext;

  /** Made when first needed: the context that compresses with a workspace's dictionary. */
  private ZstdCompressCtx dictionaryContext;

  /** The dictionary {@link #dictionaryContext} holds now. */
  private ContentDictionary loaded;

  /**
   * Bytes as a blob row keeps them: {@code encoding}, {@code data}, and the dictionary a zstd frame
   * was compressed with (none: alone).
   */
  record Encoded(String encoding, byte[] data, OptionalLong dictionary) {
    Encoded(String encoding, byte[] data) {
      this(encoding, data, OptionalLong.empty());
    }
  }

  Encoded encode(byte[] content) {
    byte[] compressed = context.compress(content);
    return compressed.length < content.length
        ? new Encoded(ZSTD, compressed)
        : new Encoded(RAW, content);
  }

  /**
   * {@code content} compressed with {@code dictionary} (its frame names the dictionary's own id),
   * or raw when that is no smaller.
   */
  Encoded encode(byte[] content, ContentDictionary dictionary) {
    if (dictionaryContext == null) {
      dictionaryContext = new ZstdCompressCtx();
    }
    if (loaded != dictionary) {
      dictionaryContext.loadDict(dictionary.forCompression());
      loaded = dictionary;
    }
    byte[] compressed = dictionaryContext.compress(content);
    return compressed.length < content.length
        ? new Encoded(ZSTD, compressed, OptionalLong.of(dictionary.id()))
        : new Encoded(RAW, content);
  }

  /** {@code content} as a zstd frame compressed against {@code base}. */
  byte[] encodeDelta(byte[] content, byte[] base) {
    if (deltaContext == null) {
      deltaContext = new ZstdCompressCtx().setLevel(LEVEL).setChecksum(true);
    }
    deltaContext.loadDict(base, ZstdDictContentType.RAW_CONTENT);
    return deltaContext.compress(content);
  }

  /**
   * The {@code size} bytes that {@link #encodeDelta} compressed against {@code base}.
   *
   * @throws StoreException when the frame does not decode against that base (damage)
   */
  static byte[] decodeDelta(byte[] data, long size, byte[] base) {
    try (ZstdDecompressCtx context = new ZstdDecompressCtx()) {
      context.loadDict(base, ZstdDictContentType.RAW_CONTENT);
      byte[] content = context.decompress(data, Math.toIntExact(size));
      if (content.length != size) {
        throw new StoreException(
            "a delta decoded to " + content.length + " bytes, not the " + size + " stored");
      }
      return content;
    } catch (ZstdException e) {
      throw new StoreException("a delta does not decode against its base: " + e.getMessage(), e);
    }
  }

  /**
   * A decompression context a thread reuses for the frames it decodes without a dictionary: {@code
   * Zstd.decompress} makes one a frame, and making one (its window buffers) cost as much as
   * decompressing a source file's frame (a finish's profile: 25 of 45 samples of its decoding).
   * Never given a dictionary, so a frame decodes as it would in a fresh one ({@link #decodeDelta}
   * keeps its own).
   */
  private static final ThreadLocal<ZstdDecompressCtx> DECOMPRESSION =
      ThreadLocal.withInitial(ZstdDecompressCtx::new);

  static byte[] decode(String encoding, byte[] data, long size) {
    return switch (encoding) {
      case RAW -> data;
      case ZSTD -> decompress(data, size);
      default -> throw new StoreException("unknown blob encoding: " + encoding);
    };
  }

  /**
   * A context a thread reuses for the frames it decodes with a dictionary, given the frame's own
   * before each (a reference to its digested form: no copy).
   */
  private static final ThreadLocal<ZstdDecompressCtx> DICTIONARY_DECOMPRESSION =
      ThreadLocal.withInitial(ZstdDecompressCtx::new);

  /**
   * A whole zstd frame compressed with {@code dictionary}, decompressed; a frame made with another
   * dictionary, or none, does not decode (zstd checks the id the frame names) and is named.
   */
  static byte[] decode(byte[] data, long size, ContentDictionary dictionary) {
    try {
      ZstdDecompressCtx context = DICTIONARY_DECOMPRESSION.get();
      context.loadDict(dictionary.forDecompression());
      byte[] content = context.decompress(data, Math.toIntExact(size));
      if (content.length != size) {
        throw new StoreException(
            "a frame decoded to " + content.length + " bytes, not the " + size + " stored");
      }
      return content;
    } catch (ZstdException e) {
      throw new StoreException(
          "a zstd frame does not decode with content dictionary "
              + dictionary.id()
              + ": "
              + e.getMessage(),
          e);
    }
  }

  /** A whole zstd frame decompressed; a frame that does not decode is a store's fault, named. */
  private static byte[] decompress(byte[] data, long size) {
    try {
      return DECOMPRESSION.get().decompress(data, Math.toIntExact(size));
    } catch (ZstdException e) {
      throw new StoreException("a zstd frame does not decode: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    context.close();
    if (deltaContext != null) {
      deltaContext.close();
    }
    if (dictionaryContext != null) {
      dictionaryContext.close();
    }
  }
}
