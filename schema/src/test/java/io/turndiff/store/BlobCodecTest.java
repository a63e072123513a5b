package io.turndiff.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;

/**
 * The blob compression choice, on this repository's own source files: zstd level 3 must compress
 * source text at least about as well as deflate's default level (speed is measured by the
 * benchmark, not here).
 */
class BlobCodecTest {

  private final BlobCodec codec = new BlobCodec();

  private static List<byte[]> sourceFiles() throws Exception {
    Path sources = Path.of("..").toAbsolutePath().normalize();
    try (Stream<Path> walk = Files.walk(sources)) {
      return walk.filter(
              path -> path.toString().endsWith(".java") && path.toString().contains("/src/main/"))
          .map(
              path -> {
                try {
                  return Files.readAllBytes(path);
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              })
          .toList();
    }
  }

  @Test
  void zstdCompressesSourceTextAboutAsWellAsDeflate() throws Exception {
    List<byte[]> files = sourceFiles();
    assertTrue(files.size() > 20, "found the repository's sources");
    long raw = 0;
    long zstd = 0;
    long deflate = 0;
    for (byte[] file : files) {
      raw += file.length;
      zstd += codec.encode(file).data().length;
      deflate += deflate(file).length;
    }
    double zstdRatio = (double) raw / zstd;
    double deflateRatio = (double) raw / deflate;
    System.out.printf(
        "blob compression on %d source files, %d bytes: zstd-3 %.2fx, deflate-6 %.2fx%n",
        files.size(), raw, zstdRatio, deflateRatio);
    assertTrue(zstdRatio > 2.5, "zstd ratio " + zstdRatio);
    assertTrue(zstdRatio > deflateRatio * 0.9, "zstd " + zstdRatio + " vs deflate " + deflateRatio);
  }

  @Test
  void incompressibleContentIsKeptRaw() {
    byte[] random = new byte[4096];
    new Random(1).nextBytes(random);
    BlobCodec.Encoded encoded = codec.encode(random);
    assertEquals(BlobCodec.RAW, encoded.encoding());
    assertArrayEquals(random, BlobCodec.decode(encoded.encoding(), encoded.data(), random.length));
  }

  @Test
  void compressedContentRoundTrips() {
    byte[] text = "class A {}\n".repeat(500).getBytes();
    BlobCodec.Encoded encoded = codec.encode(text);
    assertEquals(BlobCodec.ZSTD, encoded.encoding());
    assertArrayEquals(text, BlobCodec.decode(encoded.encoding(), encoded.data(), text.length));
  }

  private static byte[] deflate(byte[] content) {
    Deflater deflater = new Deflater(6);
    deflater.setInput(content);
    deflater.finish();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    while (!deflater.finished()) {
      out.write(buffer, 0, deflater.deflate(buffer));
    }
    deflater.end();
    return out.toByteArray();
  }
}
