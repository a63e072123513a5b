package io.turndiff.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.Sha256;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * For generated contents (text and binary, empty to tens of KB) and random edits of them (bytes
 * replaced, inserted and removed anywhere, runs moved), a delta against the original decodes to the
 * edited content exactly, through the codec and through the store, whichever encoding the store
 * keeps.
 */
class DeltaRoundTripTest {

  private static Path folder;
  private static Store store;

  @BeforeContainer
  static void openStore() throws IOException {
    folder = Files.createTempDirectory("turndiff-delta");
    store = Store.open(folder.resolve("turndiff.db"));
  }

  @AfterContainer
  static void closeStore() throws IOException {
    store.close();
    try (var walk = Files.walk(folder)) {
      walk.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
  }

  /** One edit: at a fraction of the content's length, remove some bytes and insert others. */
  record Edit(double at, int remove, byte[] insert, boolean moveRun) {}

  @Provide
  Arbitrary<byte[]> contents() {
    Arbitrary<byte[]> binary = Arbitraries.bytes().array(byte[].class).ofMaxSize(40_000);
    Arbitrary<byte[]> text =
        Arbitraries.longs()
            .map(seed -> DeltaBlobsTest.text(new Random(seed), new Random(seed).nextInt(30_000)));
    Arbitrary<byte[]> mixed =
        Arbitraries.longs()
            .map(
                seed -> {
                  Random random = new Random(seed);
                  byte[] content = DeltaBlobsTest.text(random, 1 + random.nextInt(20_000));
                  for (int i = 0; i < content.length; i += 1 + random.nextInt(500)) {
                    content[i] = (byte) random.nextInt(256);
                  }
                  return content;
                });
    return Arbitraries.oneOf(binary, text, mixed, Arbitraries.just(new byte[0]));
  }

  @Provide
  Arbitrary<List<Edit>> edits() {
    Arbitrary<Edit> edit =
        Combinators.combine(
                Arbitraries.doubles().between(0, 1),
                Arbitraries.integers().between(0, 300),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(300),
                Arbitraries.of(true, false))
            .as(Edit::new);
    return edit.list().ofMaxSize(12);
  }

  static byte[] applied(byte[] content, List<Edit> edits) {
    byte[] current = content;
    for (Edit edit : edits) {
      int at = (int) (edit.at() * current.length);
      int remove = Math.min(edit.remove(), current.length - at);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.write(current, 0, at);
      out.writeBytes(edit.insert());
      if (edit.moveRun()) {
        // the removed run goes to the end: a block moved within the file
        out.write(current, at + remove, current.length - at - remove);
        out.write(current, at, remove);
      } else {
        out.write(current, at + remove, current.length - at - remove);
      }
      current = out.toByteArray();
    }
    return current;
  }

  @Property(tries = 300)
  void aDeltaDecodesAgainstItsBaseToTheExactContent(
      @ForAll("contents") byte[] base, @ForAll("edits") List<Edit> edits) {
    byte[] after = applied(base, edits);
    try (BlobCodec codec = new BlobCodec()) {
      byte[] delta = codec.encodeDelta(after, base);
      assertArrayEquals(after, BlobCodec.decodeDelta(delta, after.length, base));
    }
  }

  @Property(tries = 150)
  void theStoreReadsBackEveryEditedContentExactlyUnderItsOwnHash(
      @ForAll("contents") byte[] base, @ForAll("edits") List<Edit> edits) throws IOException {
    byte[] after = applied(base, edits);
    Sha256 baseSha = store.write(tx -> tx.blobs().put(base));
    EncodedBlob encoded =
        BlobEncoder.encode(Sha256.of(after), after, Optional.of(new DeltaBase(baseSha, base)));
    Sha256 afterSha = store.write(tx -> tx.blobs().put(encoded));
    assertEquals(Sha256.of(after), afterSha);
    assertArrayEquals(after, store.read(tx -> tx.blobs().require(afterSha)));
    assertArrayEquals(base, store.read(tx -> tx.blobs().require(baseSha)));
    try (InputStream in = store.openContent(afterSha)) {
      assertArrayEquals(after, in.readAllBytes());
    }
  }

  @Example
  void aDeltaDecodedAgainstAnotherBaseFailsInsteadOfGivingOtherBytes() {
    Random random = new Random(7);
    byte[] base = DeltaBlobsTest.text(random, 20_000);
    byte[] after = DeltaBlobsTest.edited(base, random);
    byte[] other = DeltaBlobsTest.edited(base, random);
    try (BlobCodec codec = new BlobCodec()) {
      byte[] delta = codec.encodeDelta(after, base);
      assertTrue(delta.length < 1_000, "a delta of a few lines: " + delta.length);
      assertThrows(StoreException.class, () -> BlobCodec.decodeDelta(delta, after.length, other));
    }
  }
}
