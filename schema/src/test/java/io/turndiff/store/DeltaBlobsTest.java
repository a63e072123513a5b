package io.turndiff.store;

import static io.turndiff.store.DialectStores.COLLECT_NOW;
import static io.turndiff.store.DialectStores.connect;
import static io.turndiff.store.DialectStores.fresh;
import static io.turndiff.store.DialectStores.referTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.Zstd;
import io.turndiff.model.Sha256;
import io.turndiff.model.TestHook;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Contents stored as zstd deltas against other contents, on both dialects: what is stored, that
 * every content reads back byte-exact after the store is reopened, the bound on a chain, and that a
 * collection never takes a base a kept delta needs.
 */
class DeltaBlobsTest {

  @TempDir Path temp;

  /** What the blob row of {@code sha} holds: encoding, base, depth, stored bytes. */
  private record StoredRow(String encoding, Optional<Sha256> base, long depth, long bytes) {}

  private static Optional<StoredRow> row(StoreAddress address, Sha256 sha) throws SQLException {
    try (Connection connection = connect(address);
        Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT encoding, base_sha256, depth, length(data) FROM blob WHERE sha256 = '"
                    + sha.hex()
                    + "'")) {
      if (!rows.next()) {
        return Optional.empty();
      }
      return Optional.of(
          new StoredRow(
              rows.getString(1),
              Optional.ofNullable(rows.getString(2)).map(Sha256::new),
              rows.getLong(3),
              rows.getLong(4)));
    }
  }

  /** Source-like text: lines of words, as a file an agent edits. */
  static byte[] text(Random random, int bytes) {
    String[] words = {
      "final", "return", "buffer", "session", "value", "if", "store", "write", "delta", "index"
    };
    StringBuilder out = new StringBuilder();
    while (out.length() < bytes) {
      out.append(line(random, words)).append('\n');
    }
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static String line(Random random, String[] words) {
    StringBuilder line = new StringBuilder("    ");
    for (int i = 0; i < 3 + random.nextInt(6); i++) {
      line.append(words[random.nextInt(words.length)]).append(' ');
    }
    return line.append(random.nextInt(10_000)).append(';').toString();
  }

  /** A few lines changed, inserted and removed, as an agent's edit of a file. */
  static byte[] edited(byte[] content, Random random) {
    List<String> lines =
        new ArrayList<>(List.of(new String(content, StandardCharsets.UTF_8).split("\n", -1)));
    String[] words = {"changed", "added", "turn", "edit"};
    for (int i = 0; i < 3; i++) {
      lines.set(random.nextInt(lines.size()), line(random, words));
      lines.add(random.nextInt(lines.size() + 1), line(random, words));
    }
    lines.remove(random.nextInt(lines.size()));
    return String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
  }

  /** Stores {@code content}, offered as a delta of {@code base} where there is one. */
  static Sha256 putAgainst(Store store, byte[] content, Optional<byte[]> base) {
    Sha256 sha = Sha256.of(content);
    EncodedBlob encoded =
        BlobEncoder.encode(sha, content, base.map(b -> new DeltaBase(Sha256.of(b), b)));
    return store.write(tx -> tx.blobs().put(encoded));
  }

  private static byte[] streamed(Store store, Sha256 sha) throws Exception {
    try (InputStream in = store.openContent(sha)) {
      return in.readAllBytes();
    }
  }

  /**
   * Writes two blob rows into {@code address} as a build before deltas (V11 and older) wrote them,
   * zstd and raw, then opens the store (migrating it): both read back, and a content stored against
   * one of them is a delta of it that reads back after reopening.
   */
  static void oldBlobsReadBackAndTakeDeltas(StoreAddress address) throws Exception {
    Random random = new Random(10);
    byte[] text = text(random, 30_000);
    byte[] binary = new byte[5_000];
    random.nextBytes(binary);
    try (Connection connection = connect(address);
        PreparedStatement insert =
            connection.prepareStatement(
                "INSERT INTO blob (sha256, size, encoding, data, stored_at) VALUES (?, ?, ?, ?, 0)")) {
      for (byte[] content : List.of(text, binary)) {
        boolean compressed = content == text;
        insert.setString(1, Sha256.of(content).hex());
        insert.setLong(2, content.length);
        insert.setString(3, compressed ? "zstd" : "raw");
        insert.setBytes(4, compressed ? Zstd.compress(content) : content);
        insert.executeUpdate();
      }
    }
    byte[] edited = edited(text, random);
    Sha256 textSha = Sha256.of(text);
    try (Store store = Store.open(address)) {
      assertArrayEquals(text, store.read(tx -> tx.blobs().require(textSha)));
      assertArrayEquals(binary, store.read(tx -> tx.blobs().require(Sha256.of(binary))));
      putAgainst(store, edited, Optional.of(text));
    }
    try (Store reopened = Store.open(address)) {
      assertArrayEquals(edited, reopened.read(tx -> tx.blobs().require(Sha256.of(edited))));
    }
    StoredRow stored = row(address, Sha256.of(edited)).orElseThrow();
    assertEquals(new StoredRow("delta", Optional.of(textSha), 1, stored.bytes()), stored);
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void anAfterStateIsStoredAsADeltaOfItsBeforeStateAndReadsBackByteExactAfterReopening(
      String dialect) throws Exception {
    StoreAddress address = fresh(dialect, temp);
    Random random = new Random(1);
    byte[] before = text(random, 20_000);
    byte[] after = edited(before, random);
    Sha256 beforeSha;
    Sha256 afterSha;
    try (Store store = Store.open(address)) {
      beforeSha = store.write(tx -> tx.blobs().put(before));
      afterSha = putAgainst(store, after, Optional.of(before));
      assertEquals(Sha256.of(after), afterSha, "the content's own SHA-256 stays its key");
    }
    StoredRow stored = row(address, afterSha).orElseThrow();
    assertEquals(new StoredRow("delta", Optional.of(beforeSha), 1, stored.bytes()), stored);
    long whole = BlobEncoder.encode(afterSha, after).whole().orElseThrow().data().length;
    assertTrue(
        stored.bytes() * 10 < whole,
        "a delta of a few lines (" + stored.bytes() + " bytes) against " + whole + " whole");
    assertEquals(0, row(address, beforeSha).orElseThrow().depth());

    try (Store reopened = Store.open(address)) {
      assertArrayEquals(after, reopened.read(tx -> tx.blobs().require(afterSha)));
      assertArrayEquals(after, streamed(reopened, afterSha), "the streamed path");
      assertArrayEquals(before, reopened.read(tx -> tx.blobs().require(beforeSha)));
      // the same content offered again is stored once, however it is encoded
      assertEquals(afterSha, reopened.write(tx -> tx.blobs().put(after)));
      assertEquals("delta", row(address, afterSha).orElseThrow().encoding());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void aFileEditedInEveryTurnIsNeverStoredMoreThanMaxDepthDeltasDeep(String dialect)
      throws Exception {
    StoreAddress address = fresh(dialect, temp);
    Random random = new Random(2);
    List<byte[]> versions = new ArrayList<>(List.of(text(random, 12_000)));
    for (int turn = 1; turn < 40; turn++) {
      versions.add(edited(versions.getLast(), random));
    }
    List<Sha256> shas = new ArrayList<>();
    try (Store store = Store.open(address)) {
      shas.add(store.write(tx -> tx.blobs().put(versions.getFirst())));
      for (int turn = 1; turn < versions.size(); turn++) {
        shas.add(putAgainst(store, versions.get(turn), Optional.of(versions.get(turn - 1))));
      }
    }
    List<Long> depths = new ArrayList<>();
    for (Sha256 sha : shas) {
      depths.add(row(address, sha).orElseThrow().depth());
    }
    // each version one deeper than the one before, and whole again after MAX_DEPTH deltas
    List<Long> expected = new ArrayList<>();
    for (int turn = 0; turn < versions.size(); turn++) {
      expected.add((long) (turn % (Blobs.MAX_DEPTH + 1)));
    }
    assertEquals(expected, depths);
    try (Store reopened = Store.open(address)) {
      for (int turn = 0; turn < versions.size(); turn++) {
        Sha256 sha = shas.get(turn);
        assertArrayEquals(versions.get(turn), reopened.read(tx -> tx.blobs().require(sha)));
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void aContentIsStoredWholeWhenItsBaseIsNotStoredOrADeltaIsNotSmaller(String dialect)
      throws Exception {
    StoreAddress address = fresh(dialect, temp);
    Random random = new Random(3);
    byte[] neverStored = text(random, 8_000);
    byte[] after = edited(neverStored, random);
    byte[] noise = new byte[8_000];
    random.nextBytes(noise);
    byte[] unrelated = text(new Random(4), 8_000);
    try (Store store = Store.open(address)) {
      Sha256 orphan = putAgainst(store, after, Optional.of(neverStored));
      assertEquals("zstd", row(address, orphan).orElseThrow().encoding(), "its base is not there");
      store.write(tx -> tx.blobs().put(noise));
      Sha256 other = putAgainst(store, unrelated, Optional.of(noise));
      StoredRow whole = row(address, other).orElseThrow();
      assertEquals(new StoredRow("zstd", Optional.empty(), 0, whole.bytes()), whole);
      assertArrayEquals(after, store.read(tx -> tx.blobs().require(orphan)));
      assertArrayEquals(unrelated, store.read(tx -> tx.blobs().require(other)));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void aCollectionKeepsEveryBaseAKeptDeltaNeedsAndRemovesAChainOnceNothingNeedsIt(String dialect)
      throws Exception {
    StoreAddress address = fresh(dialect, temp);
    Random random = new Random(5);
    List<byte[]> kept = new ArrayList<>(List.of(text(random, 10_000)));
    List<byte[]> dropped = new ArrayList<>(List.of(text(random, 10_000)));
    for (int i = 1; i < 4; i++) {
      kept.add(edited(kept.getLast(), random));
      dropped.add(edited(dropped.getLast(), random));
    }
    List<Sha256> keptShas = new ArrayList<>();
    List<Sha256> droppedShas = new ArrayList<>();
    try (Store store = Store.open(address)) {
      for (int i = 0; i < kept.size(); i++) {
        Optional<byte[]> keptBase = i == 0 ? Optional.empty() : Optional.of(kept.get(i - 1));
        Optional<byte[]> droppedBase = i == 0 ? Optional.empty() : Optional.of(dropped.get(i - 1));
        keptShas.add(putAgainst(store, kept.get(i), keptBase));
        droppedShas.add(putAgainst(store, dropped.get(i), droppedBase));
      }
      // only the third version of the first chain is referred to: its two bases are needed with it
      referTo(store, keptShas.get(2), kept.get(2).length);
    }
    // collected later than anything was stored, whatever the clock's resolution
    try (Store store =
        Store.open(address, InstantSource.offset(InstantSource.system(), Duration.ofHours(2)))) {
      long needless = 0;
      for (Sha256 sha : droppedShas) {
        needless += row(address, sha).orElseThrow().bytes();
      }
      needless += row(address, keptShas.get(3)).orElseThrow().bytes();
      assertEquals(
          needless,
          StoreUsage.measure(store, Optional.empty()).unreferencedBlobBytes(),
          "a base a referred-to delta needs is not counted as referred to by nothing");

      GarbageCollector.Result result =
          new GarbageCollector(store, TestHook.NONE).collect(COLLECT_NOW, false);
      assertEquals(5, result.blobsRemoved(), "the last version of the first chain, all the second");
      assertEquals(needless, result.blobBytesFreed());
    }
    for (int i = 0; i < 3; i++) {
      assertEquals(i, row(address, keptShas.get(i)).orElseThrow().depth(), "kept: version " + i);
    }
    assertFalse(row(address, keptShas.get(3)).isPresent());
    for (Sha256 sha : droppedShas) {
      assertFalse(row(address, sha).isPresent(), "a chain nothing needs goes whole");
    }
    try (Store reopened = Store.open(address)) {
      assertArrayEquals(kept.get(2), reopened.read(tx -> tx.blobs().require(keptShas.get(2))));
      assertEquals(0, StoreUsage.measure(reopened, Optional.empty()).unreferencedBlobBytes());
      // a second collection finds nothing more to take
      assertEquals(
          0,
          new GarbageCollector(reopened, TestHook.NONE).collect(COLLECT_NOW, false).blobsRemoved());
    }
  }
}
