package io.turndiff.store;

import static io.turndiff.store.DialectStores.COLLECT_NOW;
import static io.turndiff.store.DialectStores.connect;
import static io.turndiff.store.DialectStores.execute;
import static io.turndiff.store.DialectStores.fresh;
import static io.turndiff.store.DialectStores.referTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.Sha256;
import io.turndiff.model.TestHook;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A big content stored in chunks against its before-state ({@link ChunkUpload} with a base), on
 * both dialects: which chunk is stored how, that it streams back byte for byte after reopening and
 * only against its own base, and that a collection keeps a base while a content stored against it
 * is kept.
 */
class ChunkDeltasTest {

  private static final int CHUNK = 1 << 20;

  @TempDir Path temp;

  /** The encodings of the chunks of content {@code sha}, in order. */
  private static List<String> chunkEncodings(StoreAddress address, Sha256 sha) throws SQLException {
    return strings(
        address,
        "SELECT content_chunk.encoding FROM content_chunk JOIN chunked_content"
            + " ON chunked_content.id = content_chunk.content_id WHERE chunked_content.sha256 = '"
            + sha.hex()
            + "' ORDER BY content_chunk.seq");
  }

  private static List<String> strings(StoreAddress address, String query) throws SQLException {
    List<String> values = new ArrayList<>();
    try (Connection connection = connect(address);
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(query)) {
      while (rows.next()) {
        values.add(rows.getString(1));
      }
    }
    return values;
  }

  /** Lines of text, {@code chunks} chunks and a half long: a lockfile, say. */
  private static byte[] text(Random random, int chunks) {
    StringBuilder out = new StringBuilder();
    while (out.length() < chunks * CHUNK + CHUNK / 2) {
      out.append("    \"package-")
          .append(random.nextInt(1_000_000))
          .append("\": \"^")
          .append(random.nextInt(100))
          .append('.')
          .append(random.nextInt(100))
          .append("\",\n");
    }
    return out.toString().getBytes(StandardCharsets.US_ASCII);
  }

  /** {@code content} with a few bytes of chunk {@code chunk} changed, its size kept. */
  private static byte[] changedIn(byte[] content, int chunk) {
    byte[] changed = content.clone();
    byte[] edit = "EDITED".getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(edit, 0, changed, chunk * CHUNK + 1000, edit.length);
    return changed;
  }

  private static Sha256 upload(Store store, byte[] content, Optional<Sha256> before) {
    ChunkUpload upload = ChunkUpload.begin(store, before);
    for (int offset = 0; offset < content.length; offset += CHUNK) {
      upload.write(Arrays.copyOfRange(content, offset, Math.min(content.length, offset + CHUNK)));
    }
    return upload.complete(Sha256.of(content), content.length);
  }

  /** The two contents' hashes once {@code after} is stored against {@code before}. */
  private record Stored(Sha256 before, Sha256 after) {}

  private static Stored storeAgainst(StoreAddress address, byte[] before, byte[] after) {
    try (Store store = Store.open(address)) {
      Sha256 beforeSha = upload(store, before, Optional.empty());
      return new Stored(beforeSha, upload(store, after, Optional.of(beforeSha)));
    }
  }

  /** Collects with a clock later than anything was stored, whatever the clock's resolution. */
  private static GarbageCollector.Result collect(StoreAddress address) {
    try (Store store =
        Store.open(address, InstantSource.offset(InstantSource.system(), Duration.ofHours(2)))) {
      return new GarbageCollector(store, TestHook.NONE).collect(COLLECT_NOW, false);
    }
  }

  private static byte[] streamed(Store store, Sha256 sha) throws IOException {
    try (InputStream in = store.openContent(sha)) {
      return in.readAllBytes();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void anAfterStateInChunksRefersToItsBeforeStatesChunksAndStreamsBackByteForByte(String dialect)
      throws Exception {
    StoreAddress address = fresh(dialect, temp);
    Random random = new Random(1);
    byte[] before = text(random, 4);
    byte[] after = changedIn(before, 2);
    Stored stored = storeAgainst(address, before, after);
    Sha256 beforeSha = stored.before();
    Sha256 afterSha = stored.after();
    assertEquals(
        List.of("zstd", "zstd", "zstd", "zstd", "zstd"), chunkEncodings(address, beforeSha));
    assertEquals(
        List.of("same", "same", "delta", "same", "same"),
        chunkEncodings(address, afterSha),
        "the unchanged chunks by reference, the changed one against the before-state's");
    assertEquals(
        List.of("chunked " + beforeSha.hex() + " 1"),
        strings(
            address,
            "SELECT encoding || ' ' || base_sha256 || ' ' || depth FROM blob WHERE sha256 = '"
                + afterSha.hex()
                + "'"));
    long afterBytes =
        Long.parseLong(
            strings(
                    address,
                    "SELECT sum(length(data)) FROM content_chunk JOIN chunked_content"
                        + " ON chunked_content.id = content_chunk.content_id"
                        + " WHERE chunked_content.sha256 = '"
                        + afterSha.hex()
                        + "'")
                .getFirst());
    assertTrue(afterBytes < 1_000, "a few changed bytes cost a few stored ones: " + afterBytes);
    try (Store reopened = Store.open(address)) {
      assertArrayEquals(after, streamed(reopened, afterSha));
      assertArrayEquals(before, streamed(reopened, beforeSha));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void aChunkReadAgainstAnotherBaseFailsInsteadOfGivingOtherBytes(String dialect) throws Exception {
    StoreAddress address = fresh(dialect, temp);
    Random random = new Random(2);
    byte[] before = text(random, 2);
    Sha256 afterSha = storeAgainst(address, before, changedIn(before, 1)).after();
    Sha256 otherSha;
    try (Store store = Store.open(address)) {
      otherSha = upload(store, changedIn(before, 0), Optional.empty());
    }
    // damage: the content names another base, whose chunk 0 differs and chunk 1 is the same
    execute(
        address,
        "UPDATE blob SET base_sha256 = '"
            + otherSha.hex()
            + "' WHERE sha256 = '"
            + afterSha.hex()
            + "'");
    try (Store reopened = Store.open(address)) {
      IOException damage = assertThrows(IOException.class, () -> streamed(reopened, afterSha));
      assertTrue(damage.getMessage().contains("the store is damaged"), damage.getMessage());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void aCollectionKeepsTheBaseOfAKeptContentAndTakesBothOnceNothingNeedsThem(String dialect)
      throws Exception {
    StoreAddress address = fresh(dialect, temp);
    Random random = new Random(3);
    byte[] before = text(random, 2);
    byte[] after = changedIn(before, 1);
    Stored stored = storeAgainst(address, before, after);
    Sha256 beforeSha = stored.before();
    try (Store store = Store.open(address)) {
      referTo(store, stored.after(), after.length);
    }
    assertEquals(
        0, collect(address).blobsRemoved(), "the before-state is the base of a kept content");
    try (Store reopened = Store.open(address)) {
      assertArrayEquals(after, streamed(reopened, stored.after()));
    }
    execute(address, "DELETE FROM file_change");
    execute(address, "DELETE FROM snapshot");
    assertEquals(2, collect(address).blobsRemoved(), "the content, then its base");
    assertEquals(
        List.of("0"), strings(address, "SELECT count(*) FROM content_chunk"), "no chunk left");
    assertFalse(
        strings(address, "SELECT sha256 FROM blob").contains(beforeSha.hex()), "the base went");
  }
}
