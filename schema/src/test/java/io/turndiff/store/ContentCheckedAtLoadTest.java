package io.turndiff.store;

import static io.turndiff.store.DialectStores.connect;
import static io.turndiff.store.DialectStores.fresh;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.Zstd;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A stored content is handed out only as the bytes its hash names: a row whose bytes were changed
 * on disk (kept decodable, so no codec notices), or a delta whose base row was, reads back as other
 * bytes, and every reader that puts a content back into a workspace or hands it out whole refuses
 * it by its hash (what is only shown, {@code contentsOf}, reads as stored). Before the check, the
 * changed bytes came back under the captured hash without a word. The store stays writable: one bad
 * row is not a damaged file.
 */
class ContentCheckedAtLoadTest {

  @TempDir Path temp;

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void aRowWhoseBytesWereChangedIsRefusedByItsHashAndTheOthersStillRead(String dialect)
      throws Exception {
    StoreAddress address = fresh(dialect, temp);
    byte[] kept = bytes("kept as it was\n");
    byte[] changed = bytes("captured bytes\n");
    byte[] other = bytes("other bytes on disk\n");
    try (Store store = Store.open(address)) {
      store.write(tx -> tx.blobs().put(kept));
      store.write(tx -> tx.blobs().put(changed));
    }
    replaceRow(address, Sha256.of(changed), other);

    try (Store store = Store.open(address)) {
      Sha256 changedSha = Sha256.of(changed);
      String named = changedSha + " reads back as " + Sha256.of(other);
      assertRefused(named, () -> store.read(tx -> tx.blobs().require(changedSha)));
      assertRefused(named, () -> store.read(tx -> tx.blobs().get(changedSha)));
      assertRefused(named, () -> store.read(tx -> tx.blobs().requireWhole(changedSha)));
      assertRefused(named, () -> store.openContent(changedSha).close());

      Blobs.CheckedContents checked =
          store.read(tx -> tx.blobs().checkedContentsOf(files(kept, changed)));
      assertEquals(Map.of(changedSha, "reads back as " + Sha256.of(other)), checked.damaged());
      assertEquals(List.of(Sha256.of(kept)), List.copyOf(checked.sound().keySet()));
      assertArrayEquals(kept, checked.sound().get(Sha256.of(kept)));
      assertArrayEquals(kept, store.read(tx -> tx.blobs().require(Sha256.of(kept))));

      // not a damaged store: new content is still recorded
      byte[] next = bytes("recorded after the refusal\n");
      Sha256 nextSha = store.write(tx -> tx.blobs().put(next));
      assertArrayEquals(next, store.read(tx -> tx.blobs().require(nextSha)));
    }
  }

  /**
   * A delta decodes against its base's row: when that row's bytes changed, the delta does not
   * decode (zstd's checksum of the frame), and its content is named damaged with the others read.
   */
  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void aDeltaWhoseBaseRowWasChangedIsDamagedAndTheOthersStillRead(String dialect) throws Exception {
    StoreAddress address = fresh(dialect, temp);
    Random random = new Random(7);
    byte[] base = DeltaBlobsTest.text(random, 20_000);
    byte[] edited = DeltaBlobsTest.edited(base, random);
    byte[] otherBase = DeltaBlobsTest.text(new Random(8), 20_000);
    byte[] kept = bytes("kept as it was\n");
    Sha256 editedSha;
    try (Store store = Store.open(address)) {
      store.write(tx -> tx.blobs().put(base));
      store.write(tx -> tx.blobs().put(kept));
      editedSha = DeltaBlobsTest.putAgainst(store, edited, Optional.of(base));
    }
    replaceRow(address, Sha256.of(base), otherBase);

    try (Store store = Store.open(address)) {
      Blobs.CheckedContents checked =
          store.read(tx -> tx.blobs().checkedContentsOf(files(edited, kept)));
      assertEquals(List.of(Sha256.of(kept)), List.copyOf(checked.sound().keySet()));
      assertEquals(List.of(editedSha), List.copyOf(checked.damaged().keySet()));
      assertTrue(
          checked.damaged().get(editedSha).startsWith("cannot be read back (blob " + editedSha),
          checked.damaged().get(editedSha));
      // the base itself reads back as the other bytes
      assertRefused(
          Sha256.of(base) + " reads back as " + Sha256.of(otherBase),
          () -> store.read(tx -> tx.blobs().require(Sha256.of(base))));
    }
  }

  /**
   * A whole zstd row whose bytes were changed no longer decodes (zstd-jni's own exception): it is
   * named damaged like the others, not an unexpected error that fails the whole load.
   */
  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void aCompressedRowThatNoLongerDecodesIsDamagedAndTheOthersStillRead(String dialect)
      throws Exception {
    StoreAddress address = fresh(dialect, temp);
    byte[] text = DeltaBlobsTest.text(new Random(9), 20_000);
    byte[] kept = bytes("kept as it was\n");
    try (Store store = Store.open(address)) {
      store.write(tx -> tx.blobs().put(text));
      store.write(tx -> tx.blobs().put(kept));
    }
    byte[] frame = Zstd.compress(text);
    for (int i = frame.length / 3; i < frame.length / 3 + 64; i++) {
      frame[i] ^= (byte) 0x5a;
    }
    try (Connection connection = connect(address);
        PreparedStatement update =
            connection.prepareStatement(
                "UPDATE blob SET encoding = 'zstd', data = ?, base_sha256 = NULL, depth = 0"
                    + " WHERE sha256 = ?")) {
      update.setBytes(1, frame);
      update.setString(2, Sha256.of(text).hex());
      assertEquals(1, update.executeUpdate());
    }

    try (Store store = Store.open(address)) {
      Blobs.CheckedContents checked =
          store.read(tx -> tx.blobs().checkedContentsOf(files(text, kept)));
      assertEquals(List.of(Sha256.of(kept)), List.copyOf(checked.sound().keySet()));
      assertTrue(
          checked
              .damaged()
              .get(Sha256.of(text))
              .startsWith("cannot be read back (a zstd frame does not decode: "),
          checked.damaged().toString());
      StoreException refused =
          assertThrows(
              StoreException.class, () -> store.read(tx -> tx.blobs().require(Sha256.of(text))));
      assertTrue(
          refused.getMessage().contains("a zstd frame does not decode"), refused.getMessage());
    }
  }

  private static void assertRefused(String named, Executable load) {
    StoreException refused = assertThrows(StoreException.class, load);
    assertEquals(
        "stored content " + named + ": the store is damaged",
        refused.getMessage(),
        "the refusal names the content and what it reads back as");
    assertEquals(
        StoreException.Problem.OTHER,
        refused.problem(),
        "one bad row does not stop the store's writes");
  }

  /** Replaces the row of {@code content} by {@code other}'s bytes, compressed whole. */
  private static void replaceRow(StoreAddress address, Sha256 content, byte[] other)
      throws SQLException {
    try (Connection connection = connect(address);
        PreparedStatement update =
            connection.prepareStatement(
                "UPDATE blob SET encoding = 'zstd', data = ?, size = ?, base_sha256 = NULL,"
                    + " depth = 0 WHERE sha256 = ?")) {
      update.setBytes(1, Zstd.compress(other));
      update.setLong(2, other.length);
      update.setString(3, content.hex());
      assertEquals(1, update.executeUpdate(), "the content's row");
    }
  }

  private static List<Snapshot> files(byte[]... contents) {
    return Arrays.stream(contents)
        .map(content -> CapturedFiles.file("f" + Sha256.of(content).hex(), content))
        .toList();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
