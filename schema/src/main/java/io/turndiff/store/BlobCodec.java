package io.turndiff.store;

import com.github.luben.zstd.Zstd;

/**
 * How blob bytes are kept: zstd at level 3, or raw when compression does not make them smaller (already
 * compressed binaries). Level 3 compresses source text about as well as deflate's default level at several
 * times its speed (measured in {@code BlobCodecTest}).
 */
final class BlobCodec {

  static final String RAW = "raw";
  static final String ZSTD = "zstd";
  private static final int LEVEL = 3;

  private BlobCodec() {
  }

  record Encoded(String encoding, byte[] data) {
  }

  static Encoded encode(byte[] content) {
    byte[] compressed = Zstd.compress(content, LEVEL);
    return compressed.length < content.length ? new Encoded(ZSTD, compressed) : new Encoded(RAW, content);
  }

  static byte[] decode(String encoding, byte[] data, long size) {
    return switch (encoding) {
      case RAW -> data;
      case ZSTD -> Zstd.decompress(data, Math.toIntExact(size));
      default -> throw new StoreException("unknown blob encoding: " + encoding);
    };
  }
}
