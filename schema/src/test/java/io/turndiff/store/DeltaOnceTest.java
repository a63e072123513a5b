package io.turndiff.store;

import static io.turndiff.store.CapturedFiles.file;
import static io.turndiff.store.DeltaBlobsTest.edited;
import static io.turndiff.store.DeltaBlobsTest.putAgainst;
import static io.turndiff.store.DeltaBlobsTest.text;
import static io.turndiff.store.DialectStores.connect;
import static io.turndiff.store.DialectStores.fresh;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A finish compresses each changed file once (issue 23 item 4): the before-states read from the
 * store with their depths ({@link Blobs#deltaBasesOf}, a few {@code IN} queries for any number of
 * them and their chains), an after-state a few lines of which changed compressed as the delta
 * alone, one against a base at the chain bound compressed whole alone, and every content so stored
 * read back byte-exact from a reopened store, on both dialects.
 */
class DeltaOnceTest {

  @TempDir Path temp;

  /** The blob row of {@code sha}: encoding, base (or "whole") and depth. */
  private static String stored(StoreAddress address, Sha256 sha) throws SQLException {
    try (Connection connection = connect(address);
        Statement statement = connection.createStatement();
        ResultSet row =
            statement.executeQuery(
                "SELECT encoding, coalesce(base_sha256, 'whole'), depth FROM blob WHERE sha256 = '"
                    + sha.hex()
                    + "'")) {
      return row.next()
          ? row.getString(1) + " " + row.getString(2) + " " + row.getLong(3)
          : "not stored";
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void anEditedAfterStateIsCompressedOnceAsTheDeltaOfItsStoredBeforeState(String dialect)
      throws Exception {
    StoreAddress address = fresh(dialect, temp);
    Random random = new Random(11);
    List<byte[]> versions = new ArrayList<>(List.of(text(random, 20_000)));
    for (int turn = 1; turn <= Blobs.MAX_DEPTH + 2; turn++) {
      versions.add(edited(versions.getLast(), random));
    }
    try (Store store = Store.open(address)) {
      store.write(tx -> tx.blobs().put(versions.getFirst()));
      for (int turn = 1; turn < versions.size(); turn++) {
        byte[] before = versions.get(turn - 1);
        byte[] after = versions.get(turn);
        DeltaBase base =
            store
                .read(tx -> tx.blobs().deltaBasesOf(List.of(file("src/A.java", before))))
                .get(Sha256.of(before));
        assertArrayEquals(before, base.content(), "turn " + turn);
        long depth = (turn - 1) % (Blobs.MAX_DEPTH + 1);
        assertEquals(OptionalLong.of(depth), base.storedDepth(), "turn " + turn);
        EncodedBlob encoded = BlobEncoder.encode(Sha256.of(after), after, Optional.of(base));
        if (depth < Blobs.MAX_DEPTH) {
          // a few lines changed: the delta alone, tens of bytes, no whole compression beside it
          assertTrue(encoded.whole().isEmpty(), "turn " + turn + ": compressed once, as a delta");
          assertTrue(encoded.delta().orElseThrow().data().length * 8 <= after.length);
        } else {
          // the base is at the chain bound: the store would not take a delta of it
          assertTrue(encoded.delta().isEmpty(), "turn " + turn + ": compressed once, whole");
        }
        store.write(tx -> tx.blobs().put(encoded));
        String expected =
            depth < Blobs.MAX_DEPTH
                ? "delta " + Sha256.of(before).hex() + " " + (depth + 1)
                : "zstd whole 0";
        assertEquals(expected, stored(address, Sha256.of(after)), "turn " + turn);
      }
    }
    try (Store reopened = Store.open(address)) {
      List<Snapshot> snapshots = new ArrayList<>();
      for (int i = 0; i < versions.size(); i++) {
        snapshots.add(file("src/A" + i + ".java", versions.get(i)));
      }
      Map<Sha256, byte[]> contents = reopened.read(tx -> tx.blobs().contentsOf(snapshots));
      for (byte[] version : versions) {
        assertArrayEquals(version, contents.get(Sha256.of(version)));
        assertArrayEquals(version, reopened.read(tx -> tx.blobs().require(Sha256.of(version))));
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void aRewrittenFileIsStillOfferedWholeAndTheSmallerKept(String dialect) throws Exception {
    StoreAddress address = fresh(dialect, temp);
    byte[] before = text(new Random(12), 12_000);
    byte[] rewritten = text(new Random(13), 12_000);
    try (Store store = Store.open(address)) {
      store.write(tx -> tx.blobs().put(before));
      DeltaBase base =
          store
              .read(tx -> tx.blobs().deltaBasesOf(List.of(file("a.txt", before))))
              .get(Sha256.of(before));
      EncodedBlob encoded = BlobEncoder.encode(Sha256.of(rewritten), rewritten, Optional.of(base));
      assertTrue(encoded.whole().isPresent() && encoded.delta().isPresent(), "both offered");
      store.write(tx -> tx.blobs().put(encoded));
      assertArrayEquals(rewritten, store.read(tx -> tx.blobs().require(Sha256.of(rewritten))));
      long smaller =
          Math.min(
              encoded.whole().orElseThrow().data().length,
              encoded.delta().orElseThrow().data().length);
      try (Connection connection = connect(address);
          Statement statement = connection.createStatement();
          ResultSet row =
              statement.executeQuery(
                  "SELECT length(data) FROM blob WHERE sha256 = '"
                      + Sha256.of(rewritten).hex()
                      + "'")) {
        row.next();
        assertEquals(smaller, row.getLong(1));
      }
    }
  }

  /**
   * A delta alone whose base the store will not take after all (here: at the chain bound, which the
   * encoder was not told) is decoded against its base and stored whole; one whose base is gone is
   * refused with the base named, nothing stored.
   */
  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void aDeltaAloneOnABaseTheStoreWillNotTakeIsStoredWhole(String dialect) throws Exception {
    StoreAddress address = fresh(dialect, temp);
    Random random = new Random(14);
    List<byte[]> chain = new ArrayList<>(List.of(text(random, 10_000)));
    for (int i = 1; i <= Blobs.MAX_DEPTH + 1; i++) {
      chain.add(edited(chain.getLast(), random));
    }
    byte[] deepest = chain.get(Blobs.MAX_DEPTH);
    byte[] next = chain.getLast();
    try (Store store = Store.open(address)) {
      store.write(tx -> tx.blobs().put(chain.getFirst()));
      for (int i = 1; i <= Blobs.MAX_DEPTH; i++) {
        putAgainst(store, chain.get(i), Optional.of(chain.get(i - 1)));
      }
      assertEquals(
          "delta " + Sha256.of(chain.get(Blobs.MAX_DEPTH - 1)).hex() + " " + Blobs.MAX_DEPTH,
          stored(address, Sha256.of(deepest)));
      EncodedBlob deltaAlone =
          EncodedBlob.ofDelta(
              Sha256.of(next),
              next.length,
              BlobEncoder.encode(
                      Sha256.of(next),
                      next,
                      Optional.of(new DeltaBase(Sha256.of(deepest), deepest)))
                  .delta()
                  .orElseThrow());
      byte[] beside = text(random, 3_000);
      store.write(
          tx -> {
            // the batch a finish stores, and the one-blob look-up and insert
            tx.blobs().putAll(List.of(deltaAlone, BlobEncoder.encode(Sha256.of(beside), beside)));
            return null;
          });
      assertEquals("zstd whole 0", stored(address, Sha256.of(next)));
      assertEquals("zstd whole 0", stored(address, Sha256.of(beside)));

      byte[] neverStored = text(random, 10_000);
      byte[] orphan = edited(neverStored, random);
      EncodedBlob onNothing =
          EncodedBlob.ofDelta(
              Sha256.of(orphan),
              orphan.length,
              BlobEncoder.encode(
                      Sha256.of(orphan),
                      orphan,
                      Optional.of(new DeltaBase(Sha256.of(neverStored), neverStored)))
                  .delta()
                  .orElseThrow());
      StoreException refused =
          assertThrows(StoreException.class, () -> store.write(tx -> tx.blobs().put(onNothing)));
      assertTrue(refused.getMessage().contains(Sha256.of(neverStored).hex()), refused.getMessage());
    }
    try (Store reopened = Store.open(address)) {
      assertArrayEquals(next, reopened.read(tx -> tx.blobs().require(Sha256.of(next))));
    }
  }

  /**
   * The contents of more snapshots than one {@code IN} list holds, on chains of deltas that share
   * bases, read in one call: each byte-exact, a content stored in chunks left out, the same content
   * named twice read once, and a content that is not stored refused by its hash.
   */
  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void manyContentsOnSharedChainsReadBackInOneCall(String dialect) throws Exception {
    StoreAddress address = fresh(dialect, temp);
    Random random = new Random(15);
    List<byte[]> contents = new ArrayList<>();
    List<Snapshot> snapshots = new ArrayList<>();
    try (Store store = Store.open(address)) {
      // 60 roots, each with a chain of 9 versions: 600 contents, 540 of them deltas up to 8 deep
      for (int root = 0; root < 60; root++) {
        byte[] first = text(random, 2_000);
        store.write(tx -> tx.blobs().put(first));
        contents.add(first);
        byte[] version = first;
        for (int i = 1; i < 10; i++) {
          byte[] base = version;
          version = edited(base, random);
          putAgainst(store, version, Optional.of(base));
          contents.add(version);
        }
      }
      long chunkedUpload = store.write(tx -> tx.blobs().beginChunks());
      byte[] big = text(random, 3_000);
      store.write(
          tx -> {
            tx.blobs().putChunk(chunkedUpload, 0, BlobEncoder.encodeChunk(big));
            return tx.blobs().completeChunks(chunkedUpload, Sha256.of(big), big.length);
          });
      for (int i = 0; i < contents.size(); i++) {
        snapshots.add(file("src/F" + i + ".java", contents.get(i)));
      }
      snapshots.add(file("src/again.java", contents.get(7)));
      snapshots.add(file("src/big.bin", big));
    }
    try (Store reopened = Store.open(address)) {
      Map<Sha256, byte[]> read = reopened.read(tx -> tx.blobs().contentsOf(snapshots));
      Map<Sha256, DeltaBase> bases = reopened.read(tx -> tx.blobs().deltaBasesOf(snapshots));
      assertEquals(contents.size(), read.size(), "every content in one piece, not the chunked");
      assertEquals(contents.size(), bases.size());
      for (int i = 0; i < contents.size(); i++) {
        Sha256 sha = Sha256.of(contents.get(i));
        assertArrayEquals(contents.get(i), read.get(sha), "content " + i);
        assertArrayEquals(contents.get(i), bases.get(sha).content(), "content " + i);
        assertEquals(
            Long.parseLong(stored(address, sha).split(" ")[2]),
            bases.get(sha).storedDepth().getAsLong(),
            "content " + i);
      }
      byte[] missing = text(random, 500);
      StoreException refused =
          assertThrows(
              StoreException.class,
              () ->
                  reopened.read(
                      tx -> tx.blobs().contentsOf(List.of(snapshots.get(3), file("m", missing)))));
      assertTrue(refused.getMessage().contains(Sha256.of(missing).hex()), refused.getMessage());
    }
  }
}
