package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.BLOB;
import static io.turndiff.store.jooq.Tables.CHUNKED_CONTENT;
import static io.turndiff.store.jooq.Tables.CONTENT_CHUNK;

import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.security.MessageDigest;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * Content addressed by SHA-256: each distinct content is stored once, compressed. Content too large
 * to hold in memory (a file over the size limit that a rewind stores before it overwrites it) is
 * stored in chunks, streamed in by {@link #beginChunks} .. {@link #completeChunks} and read back
 * chunk by chunk ({@link Store#openContent}); its blob row has encoding {@code chunked}.
 *
 * <p>A content may be stored as a delta against another stored content, its base (encoding {@code
 * delta}, {@link BlobCodec#encodeDelta}): a capture offers a changed file's after-state compressed
 * both on its own and against its before-state ({@link BlobEncoder#encode(Sha256, byte[],
 * Optional)}), and the smaller is kept. A delta's base may be a delta itself, at most {@link
 * #MAX_DEPTH} deep; reading a content decodes its base first, down to a whole blob.
 */
public final class Blobs {

  /**
   * How many deltas deep a content may be stored: reading one decodes at most this many deltas
   * after one whole blob. Beyond it a content is stored whole (it starts a new chain), so a file
   * edited in every turn is stored whole once every nine versions. Decoding one delta of a 10 KB
   * source costs a few microseconds, so the whole chain costs far less than the statement that
   * fetches it; a whole copy costs about as much as twenty deltas of a few changed lines, so longer
   * chains would save little more.
   */
  static final int MAX_DEPTH = 8;

  /**
   * The most links a read follows before it takes the chain for damage (a cycle): above {@link
   * #MAX_DEPTH}, so that a store written by a build with a deeper bound still reads.
   */
  private static final int MOST_LINKS_READ = 64;

  /** A content that does not decode fails the whole load. */
  private static final BiConsumer<Sha256, StoreException> UNDECODABLE_FAILS =
      (sha256, failure) -> {
        throw failure;
      };

  /** An upload whose writer has not completed it for this long died: its chunks are removed. */
  private static final Duration ABANDONED_AFTER = Duration.ofDays(1);

  private final DSLContext dsl;
  private final InstantSource clock;
  private final PreparedQueries prepared;
  private final BlobCodec codec;
  private final ContentDictionaries dictionaries;

  Blobs(
      DSLContext dsl,
      InstantSource clock,
      PreparedQueries prepared,
      BlobCodec codec,
      ContentDictionaries dictionaries) {
    this.dsl = dsl;
    this.clock = clock;
    this.prepared = prepared;
    this.codec = codec;
    this.dictionaries = dictionaries;
  }

  /** Stores {@code content} under its hash unless it is stored already; returns the hash. */
  public Sha256 put(byte[] content) {
    return put(Sha256.of(content), content);
  }

  /** Stores {@code content}, whose hash the caller computed while reading it. */
  public Sha256 put(Sha256 sha256, byte[] content) {
    if (contains(sha256)) {
      return sha256;
    }
    BlobCodec.Encoded encoded = requireCodec().encode(content);
    insert(new EncodedBlob(sha256, content.length, encoded.encoding(), encoded.data()));
    return sha256;
  }

  /**
   * Stores content a {@link BlobEncoder} compressed, or, when it is stored already, marks it as
   * looked up now ({@link #retain}): for a caller that writes the rows referring to it in a later
   * transaction (a tracked workspace's index, written after its baseline).
   */
  public Sha256 putRetained(EncodedBlob blob) {
    if (!retain(blob.sha256())) {
      insert(blob);
    }
    return blob.sha256();
  }

  /** Stores content a {@link BlobEncoder} compressed, unless it is stored already. */
  public Sha256 put(EncodedBlob blob) {
    if (!contains(blob.sha256())) {
      insert(blob);
    }
    return blob.sha256();
  }

  /**
   * Stores each of {@code blobs} the store does not hold yet, as {@link #put(EncodedBlob)} does
   * one, in a few statements: which are held and how deep their bases are asked with {@code IN}
   * lists ({@link KeysFound}), the new ones inserted in multi-row statements ({@link
   * MultiRowInsert}). For the contents a finish of many files stores at once. A content named twice
   * is stored once; a delta's base may be a content stored earlier in {@code blobs} (a diff's base
   * is the after-state stored before it), which comes first in the statements too.
   */
  public void putAll(List<EncodedBlob> blobs) {
    if (blobs.size() <= 1) {
      blobs.forEach(this::put); // one content: its own prepared look-up and insert
      return;
    }
    Map<Sha256, EncodedBlob> unique = new LinkedHashMap<>();
    blobs.forEach(blob -> unique.putIfAbsent(blob.sha256(), blob));
    Set<Sha256> held = containedAmong(unique.keySet());
    List<EncodedBlob> missing =
        unique.values().stream().filter(blob -> !held.contains(blob.sha256())).toList();
    Map<Sha256, Long> depths =
        new HashMap<>(
            deltaDepthsOf(
                missing.stream()
                    .flatMap(blob -> blob.delta().stream())
                    .map(EncodedBlob.Delta::base)
                    .toList()));
    List<BlobRow> rows = new ArrayList<>(missing.size());
    for (EncodedBlob blob : missing) {
      BlobRow row = rowOf(blob, base -> Optional.ofNullable(depths.get(base)));
      depths.put(blob.sha256(), row.depth());
      rows.add(row);
    }
    BLOB_ROWS.insert(prepared, rows, row -> row.values(clock.millis()));
  }

  /**
   * A blob row to insert: whole ({@code base} null, depth 0; {@code dictionary} the one its frame
   * was compressed with, or null) or a delta of {@code base}.
   */
  private record BlobRow(
      Sha256 sha256,
      long size,
      String encoding,
      byte[] data,
      Sha256 base,
      long depth,
      Long dictionary) {

    Object[] values(long storedAt) {
      return new Object[] {
        sha256.hex(),
        size,
        encoding,
        data,
        storedAt,
        base == null ? null : base.hex(),
        depth,
        dictionary
      };
    }
  }

  private static final MultiRowInsert<BlobRow> BLOB_ROWS =
      new MultiRowInsert<>(
          "blob.insert.rows",
          BLOB,
          List.of(
              BLOB.SHA256,
              BLOB.SIZE,
              BLOB.ENCODING,
              BLOB.DATA,
              BLOB.STORED_AT,
              BLOB.BASE_SHA256,
              BLOB.DEPTH,
              BLOB.DICTIONARY_ID),
          true);

  /**
   * The row {@code blob} is stored as: a delta when it has one that is to be preferred ({@link
   * EncodedBlob#preferredDelta}) and its base is stored in one piece less than {@link #MAX_DEPTH}
   * deep ({@code baseDepth}: empty when it is not stored in one piece); else whole. A content
   * encoded only as a delta whose base is not usable after all is decoded against it and compressed
   * whole here ({@link #wholeOf}).
   */
  private BlobRow rowOf(EncodedBlob blob, Function<Sha256, Optional<Long>> baseDepth) {
    Optional<EncodedBlob.Delta> preferred = blob.preferredDelta();
    if (preferred.isPresent()) {
      Optional<Long> depth = baseDepth.apply(preferred.get().base());
      if (depth.isPresent() && depth.get() < MAX_DEPTH) {
        return new BlobRow(
            blob.sha256(),
            blob.size(),
            BlobCodec.DELTA,
            preferred.get().data(),
            preferred.get().base(),
            depth.get() + 1,
            null);
      }
    }
    EncodedBlob.Whole whole = blob.whole().orElseGet(() -> wholeOf(blob));
    return new BlobRow(
        blob.sha256(),
        blob.size(),
        whole.encoding(),
        whole.data(),
        null,
        0,
        whole.dictionary().isPresent() ? whole.dictionary().getAsLong() : null);
  }

  /**
   * {@code blob}, encoded only as a delta, compressed on its own: its base decoded, the delta
   * decoded against it. The encoder makes a delta alone only of a base it read from this store with
   * its depth, and a stored blob's depth never changes, nor is a base collected while a finishing
   * turn's before-state refers to it; so this runs only if a caller broke that, and costs a decode
   * under the store's lock rather than a wrong row.
   */
  private EncodedBlob.Whole wholeOf(EncodedBlob blob) {
    EncodedBlob.Delta delta = blob.delta().orElseThrow();
    byte[] base =
        find(delta.base())
            .flatMap(inOnePiece -> inOnePiece)
            .orElseThrow(
                () ->
                    new StoreException(
                        "blob "
                            + delta.base()
                            + ", the base "
                            + blob.sha256()
                            + " was compressed against, is not stored in one piece"));
    byte[] content = BlobCodec.decodeDelta(delta.data(), blob.size(), base);
    BlobCodec.Encoded encoded = requireCodec().encode(content);
    return new EncodedBlob.Whole(encoded.encoding(), encoded.data());
  }

  private BlobCodec requireCodec() {
    if (codec == null) {
      throw new IllegalStateException("content is stored only in a write transaction");
    }
    return codec;
  }

  /** The depth of each of {@code bases} that is stored in one piece ({@link #deltaDepthOf}). */
  private Map<Sha256, Long> deltaDepthsOf(Collection<Sha256> bases) {
    Map<Sha256, Long> depths = new HashMap<>();
    KeysFound.inQueries(
        bases,
        some ->
            KeysFound.preparedIn(
                    prepared,
                    "blob.depth",
                    some.stream().map(Sha256::hex).toList(),
                    String.class,
                    (dsl, list) ->
                        dsl.select(BLOB.SHA256, BLOB.DEPTH)
                            .from(BLOB)
                            .where(
                                BLOB.SHA256
                                    .in(list)
                                    .and(BLOB.ENCODING.ne(DSL.inline(BlobCodec.CHUNKED)))))
                .rows(row -> Map.entry(new Sha256(row.getString(1)), row.getLong(2)))
                .forEach(depth -> depths.put(depth.getKey(), depth.getValue())));
    return depths;
  }

  /** Inserts {@code blob} as {@link #rowOf} decides, its base's depth looked up by itself. */
  private void insert(EncodedBlob blob) {
    BlobRow row = rowOf(blob, this::deltaDepthOf);
    if (row.base() != null) {
      insertDelta(row);
    } else {
      insertWhole(row);
    }
  }

  /**
   * The depth of {@code base} when a delta may be stored against it: it is stored, and in one
   * piece.
   */
  private Optional<Long> deltaDepthOf(Sha256 base) {
    return prepared
        .get(
            "blob.depth",
            q ->
                q.select(BLOB.DEPTH)
                    .from(BLOB)
                    .where(
                        BLOB.SHA256
                            .eq(DSL.param("sha", String.class))
                            .and(BLOB.ENCODING.ne(DSL.inline(BlobCodec.CHUNKED)))))
        .bind("sha", base.hex())
        .firstLong();
  }

  private void insertDelta(BlobRow row) {
    prepared
        .get(
            "blob.insert.delta",
            q ->
                q.insertInto(BLOB)
                    .set(BLOB.SHA256, DSL.param("sha", String.class))
                    .set(BLOB.SIZE, DSL.param("size", Long.class))
                    .set(BLOB.ENCODING, DSL.inline(BlobCodec.DELTA))
                    .set(BLOB.DATA, DSL.param("data", byte[].class))
                    .set(BLOB.STORED_AT, DSL.param("at", Long.class))
                    .set(BLOB.BASE_SHA256, DSL.param("base", String.class))
                    .set(BLOB.DEPTH, DSL.param("depth", Long.class))
                    .onConflictDoNothing())
        .bind("sha", row.sha256().hex())
        .bind("size", row.size())
        .bind("data", row.data())
        .bind("at", clock.millis())
        .bind("base", row.base().hex())
        .bind("depth", row.depth())
        .update();
  }

  private void insertWhole(BlobRow row) {
    prepared
        .get(
            "blob.insert",
            q ->
                q.insertInto(BLOB)
                    .set(BLOB.SHA256, DSL.param("sha", String.class))
                    .set(BLOB.SIZE, DSL.param("size", Long.class))
                    .set(BLOB.ENCODING, DSL.param("encoding", String.class))
                    .set(BLOB.DATA, DSL.param("data", byte[].class))
                    .set(BLOB.STORED_AT, DSL.param("at", Long.class))
                    .set(BLOB.DICTIONARY_ID, DSL.param("dictionary", Long.class))
                    .onConflictDoNothing())
        .bind("sha", row.sha256().hex())
        .bind("size", row.size())
        .bind("encoding", row.encoding())
        .bind("data", row.data())
        .bind("at", clock.millis())
        .bind("dictionary", row.dictionary())
        .update();
  }

  /**
   * A stored content held in one piece, decompressed; empty when the content is stored in chunks.
   */
  private Optional<Optional<byte[]>> find(Sha256 sha256) {
    Optional<Decoded> found = decodedOf(Set.of(sha256)).get(sha256);
    return found == null ? Optional.empty() : Optional.of(found.map(Decoded::content));
  }

  /**
   * {@link #find}, each content checked against its hash (the check {@link #checkedContentsOf}
   * explains). {@link #wholeOf} alone reads unchecked: a delta decodes against the bytes its
   * encoder read, whatever they are.
   */
  private Optional<Optional<byte[]>> findSound(Sha256 sha256) {
    Optional<Optional<byte[]>> found = find(sha256);
    found.flatMap(inOnePiece -> inOnePiece).ifPresent(content -> requireSound(sha256, content));
    return found;
  }

  /**
   * What a load of contents found ({@link #checkedContentsOf}): the contents whose bytes hash to
   * the key they are stored under ({@code sound}), and those whose bytes do not ({@code damaged},
   * each with the hash its bytes have).
   */
  public record CheckedContents(Map<Sha256, byte[]> sound, Map<Sha256, String> damaged) {
    public CheckedContents {
      sound = Map.copyOf(sound);
      damaged = Map.copyOf(damaged);
    }
  }

  /**
   * The stored contents of the captured regular files among {@code snapshots}, each checked against
   * the hash it is stored under: a content is put back into a workspace only as the bytes that were
   * captured. A row changed on disk, a delta decoded against a base that changed since, a bug in a
   * codec: each would otherwise hand out other bytes under the captured hash, and a rewind would
   * write them without a word (zstd's checksum catches only a frame that no longer decodes, and a
   * raw row has none). A content that does not decode is damaged too. Content stored in chunks is
   * left out, as {@link #contentsOf} leaves it out (its stream checks it as it is read, {@link
   * Store#openContent}).
   *
   * <p>The check costs one SHA-256 of the bytes: 0.03 ms for a 50 KB file, 1.5 GB/s for 64 MiB on
   * the README's 2-core machine (HotSpot's SHA-256 intrinsic; docs/performance.md, "A content
   * checked at its load"), against the decompression that made them. What is only shown or
   * compared, and the bases a finish compresses against, are read unchecked ({@link #contentsOf},
   * {@link #deltaBasesOf}): a delta decodes against the bytes it was made against, whatever they
   * are, and a view of one damaged row must not take the others' with it.
   */
  public CheckedContents checkedContentsOf(Collection<Snapshot> snapshots) {
    return checkedContents(hashesOf(snapshots));
  }

  /**
   * {@link #checkedContentsOf} by hash: every one must be stored (a content in chunks is left out).
   */
  public CheckedContents checkedContents(Set<Sha256> hashes) {
    Map<Sha256, byte[]> sound = new HashMap<>();
    Map<Sha256, String> damaged = new HashMap<>();
    storedContents(
            hashes,
            (sha256, failure) ->
                damaged.put(sha256, "cannot be read back (" + failure.getMessage() + ")"))
        .forEach(
            (sha256, decoded) ->
                decoded.ifPresent(
                    d -> {
                      Sha256 readBack = Sha256.of(d.content());
                      if (readBack.equals(sha256)) {
                        sound.put(sha256, d.content());
                      } else {
                        damaged.put(sha256, readsBackAs(readBack));
                      }
                    }));
    return new CheckedContents(sound, damaged);
  }

  private static String readsBackAs(Sha256 readBack) {
    return "reads back as " + readBack;
  }

  /** Refuses a content whose bytes are not those of the hash it is stored under. */
  private static void requireSound(Sha256 sha256, byte[] content) {
    Sha256 readBack = Sha256.of(content);
    if (!readBack.equals(sha256)) {
      throw damaged(sha256, readBack);
    }
  }

  /**
   * A content that reads back as other bytes. Not {@link StoreException.Problem#DAMAGED}, which
   * stops every write to the store: one bad row leaves the rest of the store, and the recording of
   * new turns, as sound as they were.
   */
  static StoreException damaged(Sha256 sha256, Sha256 readBack) {
    return damaged(sha256, readsBackAs(readBack));
  }

  private static StoreException damaged(Sha256 sha256, String what) {
    return new StoreException("stored content " + sha256 + " " + what + ": the store is damaged");
  }

  /** One blob row as stored. */
  private record Row(
      Sha256 sha256,
      String encoding,
      byte[] data,
      long size,
      Optional<Sha256> base,
      long depth,
      Optional<Long> dictionary) {}

  private static Row row(Sha256 sha256, ResultSet row) throws SQLException {
    long dictionary = row.getLong(6);
    Optional<Long> named = row.wasNull() ? Optional.empty() : Optional.of(dictionary);
    return new Row(
        sha256,
        row.getString(1),
        row.getBytes(2),
        row.getLong(3),
        Optional.ofNullable(row.getString(4)).map(Sha256::new),
        row.getLong(5),
        named);
  }

  /** A content held in one piece, decoded, and how many deltas deep it is stored. */
  private record Decoded(byte[] content, long depth) {}

  /**
   * The stored contents among {@code wanted}, decoded: a content held in one piece with its depth,
   * one stored in chunks as empty (it is never loaded whole), one not stored left out. Their rows
   * are read in {@code IN} queries ({@link KeysFound}), then the rows of the bases their deltas
   * need that were not read yet, a round of queries per link of the longest chain: a finish's
   * thousand before-states cost a few queries, not one a content and one a link. Each content is
   * decoded once, however many deltas rest on it.
   */
  private Map<Sha256, Optional<Decoded>> decodedOf(Set<Sha256> wanted) {
    return decodedOf(wanted, UNDECODABLE_FAILS);
  }

  /**
   * {@link #decodedOf(Set)}, a wanted content that does not decode (a delta whose base's row
   * changed fails zstd's checksum) handed to {@code undecodable} and left out, the others decoded.
   */
  private Map<Sha256, Optional<Decoded>> decodedOf(
      Set<Sha256> wanted, BiConsumer<Sha256, StoreException> undecodable) {
    Map<Sha256, Row> rows = new HashMap<>();
    Map<Sha256, Sha256> baseOf = new HashMap<>(); // each base asked for, to the delta that needs it
    Collection<Sha256> asked = wanted;
    for (int link = 0; !asked.isEmpty(); link++) {
      if (link > MOST_LINKS_READ) {
        throw new StoreException(
            "blob "
                + asked.iterator().next()
                + " is below a chain of more than "
                + MOST_LINKS_READ
                + " deltas");
      }
      Map<Sha256, Row> read = rowsOf(asked);
      rows.putAll(read);
      Set<Sha256> next = new LinkedHashSet<>();
      for (Sha256 sha256 : asked) {
        Row row = read.get(sha256);
        if (row == null) {
          Sha256 delta = baseOf.get(sha256);
          if (delta != null) {
            throw new StoreException("blob " + sha256 + ", the base of " + delta + ", is missing");
          }
          continue; // a content wanted that is not stored
        }
        if (BlobCodec.DELTA.equals(row.encoding())) {
          Sha256 base =
              row.base()
                  .orElseThrow(() -> new StoreException("delta blob " + sha256 + " names no base"));
          if (!rows.containsKey(base) && baseOf.putIfAbsent(base, sha256) == null) {
            next.add(base);
          }
        }
      }
      asked = next;
    }
    Map<Sha256, byte[]> decoded = new HashMap<>();
    Map<Sha256, Optional<Decoded>> found = new HashMap<>();
    for (Sha256 sha256 : wanted) {
      Row row = rows.get(sha256);
      if (row == null) {
        continue;
      }
      if (BlobCodec.CHUNKED.equals(row.encoding())) {
        found.put(sha256, Optional.empty());
        continue;
      }
      try {
        found.put(sha256, Optional.of(new Decoded(decode(sha256, rows, decoded), row.depth())));
      } catch (StoreException failure) {
        undecodable.accept(sha256, failure);
      }
    }
    return found;
  }

  /** The rows of {@code hashes} that are stored, by prepared {@code IN} lists. */
  private Map<Sha256, Row> rowsOf(Collection<Sha256> hashes) {
    Map<Sha256, Row> rows = new HashMap<>();
    // prepared per length of its IN list (KeysFound.preparedIn): a rewind reads its contents many
    // at a time, and rendered by jOOQ this was 1.3 % of a 57-file rewind's wall time. One hash is a
    // list of one, which both databases look up by the key's index as they do "= ?", so it needs no
    // statement of its own. The hash is the last column, so that row() reads the others from the
    // first
    KeysFound.inQueries(
        hashes.stream().map(Sha256::hex).toList(),
        some ->
            KeysFound.preparedIn(
                    prepared,
                    "blob.get",
                    some,
                    String.class,
                    (q, shas) ->
                        q.select(
                                BLOB.ENCODING,
                                BLOB.DATA,
                                BLOB.SIZE,
                                BLOB.BASE_SHA256,
                                BLOB.DEPTH,
                                BLOB.DICTIONARY_ID,
                                BLOB.SHA256)
                            .from(BLOB)
                            .where(BLOB.SHA256.in(shas)))
                .rows(row -> row(new Sha256(row.getString(7)), row))
                .forEach(row -> rows.put(row.sha256(), row)));
    return rows;
  }

  /**
   * The content {@code sha256}, whose row and its bases' rows are in {@code rows}: the deltas from
   * it down to the first content already in {@code decoded} or stored whole, then decoded upwards,
   * each content decoded put in {@code decoded}.
   */
  private byte[] decode(Sha256 sha256, Map<Sha256, Row> rows, Map<Sha256, byte[]> decoded) {
    Deque<Row> deltas = new ArrayDeque<>();
    byte[] content = decoded.get(sha256);
    Row row = rows.get(sha256);
    while (content == null && BlobCodec.DELTA.equals(row.encoding())) {
      deltas.push(row);
      if (deltas.size() > MOST_LINKS_READ) {
        throw new StoreException(
            "blob " + sha256 + " is stored as a chain of more than " + MOST_LINKS_READ + " deltas");
      }
      Sha256 base = row.base().orElseThrow();
      content = decoded.get(base);
      row = rows.get(base);
      if (content == null && BlobCodec.CHUNKED.equals(row.encoding())) {
        throw new StoreException(
            "blob " + base + ", the base of " + deltas.peek().sha256() + ", is stored in chunks");
      }
    }
    if (content == null) {
      content = wholeContent(row.encoding(), row.data(), row.size(), row.dictionary());
      decoded.put(row.sha256(), content);
    }
    while (!deltas.isEmpty()) {
      Row delta = deltas.pop();
      try {
        content = BlobCodec.decodeDelta(delta.data(), delta.size(), content);
      } catch (StoreException e) {
        throw new StoreException("blob " + delta.sha256() + ": " + e.getMessage(), e);
      }
      decoded.put(delta.sha256(), content);
    }
    return content;
  }

  /**
   * A content stored whole, decoded: with the dictionary its frame names when it names one (a
   * tracked workspace's baseline), else on its own.
   */
  private byte[] wholeContent(String encoding, byte[] data, long size, Optional<Long> dictionary) {
    if (dictionary.isEmpty()) {
      return BlobCodec.decode(encoding, data, size);
    }
    if (!BlobCodec.ZSTD.equals(encoding)) {
      throw new StoreException(
          "a blob encoded " + encoding + " names content dictionary " + dictionary.get());
    }
    return BlobCodec.decode(data, size, dictionaries.byId(dictionary.get()));
  }

  /**
   * The content of a blob held in one piece. Content stored in chunks is never loaded whole: asking
   * for it here is a mistake (read it with {@link Store#openContent}).
   */
  public Optional<byte[]> get(Sha256 sha256) {
    return findSound(sha256)
        .map(
            whole ->
                whole.orElseThrow(
                    () ->
                        new StoreException(
                            "blob "
                                + sha256
                                + " is stored in chunks: it is read as a stream, never whole")));
  }

  /** The content of a blob that a stored row refers to; its absence means the store is damaged. */
  public byte[] require(Sha256 sha256) {
    return get(sha256)
        .orElseThrow(() -> new StoreException("blob " + sha256 + " is missing from the store"));
  }

  /**
   * The content of a blob that a stored row refers to when it is held in one piece, empty when it
   * is stored in chunks (too large to hold in memory).
   */
  public Optional<byte[]> requireInOnePiece(Sha256 sha256) {
    return findSound(sha256)
        .orElseThrow(() -> new StoreException("blob " + sha256 + " is missing from the store"));
  }

  /**
   * The whole content of a blob a stored row refers to, however it is stored: content in chunks is
   * put together chunk by chunk and checked against its SHA-256 as {@link Store#openContent} checks
   * it. Since files up to the size limit (64 MiB) are stored in chunks from 2 MiB on, a caller that
   * needs a state whole (an image served, a blob written into git, a file's lines blamed) gets it
   * here, and bounds the size it asks for itself; everything that only copies a state out streams
   * it instead.
   */
  public byte[] requireWhole(Sha256 sha256) {
    Optional<byte[]> inOnePiece = requireInOnePiece(sha256);
    if (inOnePiece.isPresent()) {
      return inOnePiece.get();
    }
    ChunkedContent chunked =
        chunked(sha256)
            .orElseThrow(
                () ->
                    new StoreException("blob " + sha256 + " is marked chunked but has no chunks"));
    ByteArrayOutputStream whole = new ByteArrayOutputStream(Math.toIntExact(chunked.size()));
    MessageDigest digest = Sha256.newDigest();
    for (int seq = 0; seq < chunked.chunks(); seq++) {
      byte[] chunk = chunk(chunked, seq);
      digest.update(chunk);
      whole.writeBytes(chunk);
    }
    Sha256 readBack = Sha256.fromDigest(digest);
    if (!readBack.equals(sha256)) {
      throw damaged(sha256, readBack);
    }
    return whole.toByteArray();
  }

  /**
   * The stored contents of the captured regular files among {@code snapshots}, by hash, read in a
   * few queries ({@link #decodedOf}). A content stored in chunks (too large to hold in memory) is
   * left out: it is streamed where it is needed, and not shown in diffs. Not checked against the
   * hashes: for what is shown and compared (a diff, a rename's likeness) and the bases a finish
   * compresses against; a content put back into a workspace is loaded with {@link
   * #checkedContentsOf}.
   */
  public Map<Sha256, byte[]> contentsOf(Collection<Snapshot> snapshots) {
    Map<Sha256, byte[]> contents = new HashMap<>();
    storedContents(snapshots)
        .forEach((sha256, decoded) -> decoded.ifPresent(d -> contents.put(sha256, d.content())));
    return contents;
  }

  /**
   * The stored contents of the captured regular files among {@code snapshots} as the bases their
   * next states may be compressed against, each with its depth in the store ({@link
   * DeltaBase#storedDepth}), read as {@link #contentsOf} reads them: what a finish compresses its
   * after-states against, knowing before it compresses anything whether the store takes a delta.
   */
  public Map<Sha256, DeltaBase> deltaBasesOf(Collection<Snapshot> snapshots) {
    Map<Sha256, DeltaBase> bases = new HashMap<>();
    storedContents(snapshots)
        .forEach(
            (sha256, decoded) ->
                decoded.ifPresent(
                    d ->
                        bases.put(
                            sha256,
                            new DeltaBase(sha256, d.content(), OptionalLong.of(d.depth())))));
    return bases;
  }

  /**
   * The contents {@code snapshots} name, decoded ({@link #decodedOf}); every one must be stored (a
   * snapshot names only content its store holds).
   */
  private Map<Sha256, Optional<Decoded>> storedContents(Collection<Snapshot> snapshots) {
    return storedContents(hashesOf(snapshots), UNDECODABLE_FAILS);
  }

  private static Set<Sha256> hashesOf(Collection<Snapshot> snapshots) {
    Set<Sha256> hashes = new LinkedHashSet<>();
    snapshots.forEach(snapshot -> snapshot.storedContent().ifPresent(hashes::add));
    return hashes;
  }

  /**
   * {@link #storedContents(Collection)} by hash, what does not decode given to {@code undecodable}.
   */
  private Map<Sha256, Optional<Decoded>> storedContents(
      Set<Sha256> hashes, BiConsumer<Sha256, StoreException> undecodable) {
    Set<Sha256> notDecoded = new HashSet<>();
    Map<Sha256, Optional<Decoded>> found =
        decodedOf(
            hashes,
            (sha256, failure) -> {
              notDecoded.add(sha256);
              undecodable.accept(sha256, failure);
            });
    for (Sha256 sha256 : hashes) {
      if (!found.containsKey(sha256) && !notDecoded.contains(sha256)) {
        throw new StoreException("blob " + sha256 + " is missing from the store");
      }
    }
    return found;
  }

  /**
   * Every stored content, decompressed (chunked content assembled whole): for audits such as the
   * canary.
   */
  public void forEach(BiConsumer<Sha256, byte[]> visitor) {
    dsl.selectFrom(BLOB)
        .orderBy(BLOB.SHA256)
        .forEach(
            row -> {
              Sha256 sha256 = new Sha256(row.getSha256());
              if (BlobCodec.DELTA.equals(row.getEncoding())) {
                visitor.accept(sha256, require(sha256));
                return;
              }
              if (!BlobCodec.CHUNKED.equals(row.getEncoding())) {
                visitor.accept(
                    sha256,
                    wholeContent(
                        row.getEncoding(),
                        row.getData(),
                        row.getSize(),
                        Optional.ofNullable(row.getDictionaryId())));
                return;
              }
              ChunkedContent chunked = chunked(sha256).orElseThrow();
              ByteArrayOutputStream whole = new ByteArrayOutputStream();
              for (int seq = 0; seq < chunked.chunks(); seq++) {
                whole.writeBytes(chunk(chunked, seq));
              }
              visitor.accept(sha256, whole.toByteArray());
            });
  }

  // ---- content in chunks

  /**
   * Content stored in chunks: its upload's id, how many chunks it has, and the contents its chunks
   * may be decoded from ({@code chain}: its own id first, then its base's, its base's base's, as
   * far as they are stored in chunks), looked up once so that a chunk is read in one query ({@link
   * #chunk(ChunkedContent, int)}).
   */
  public record ChunkedContent(long id, int chunks, long size, List<Long> chain) {

    public ChunkedContent {
      chain = List.copyOf(chain);
      if (chain.isEmpty() || chain.getFirst() != id) {
        throw new IllegalArgumentException("a chunk chain begins with its own content: " + chain);
      }
    }
  }

  /**
   * Begins storing a content in chunks; returns the upload's id. Uploads that a dead writer left
   * unfinished for a day are removed first.
   */
  public long beginChunks() {
    long cutoff = clock.millis() - ABANDONED_AFTER.toMillis();
    var abandoned =
        dsl.select(CHUNKED_CONTENT.ID)
            .from(CHUNKED_CONTENT)
            .where(CHUNKED_CONTENT.SHA256.isNull().and(CHUNKED_CONTENT.STARTED_AT.lt(cutoff)));
    dsl.deleteFrom(CONTENT_CHUNK).where(CONTENT_CHUNK.CONTENT_ID.in(abandoned)).execute();
    dsl.deleteFrom(CHUNKED_CONTENT)
        .where(CHUNKED_CONTENT.SHA256.isNull().and(CHUNKED_CONTENT.STARTED_AT.lt(cutoff)))
        .execute();
    return dsl.insertInto(CHUNKED_CONTENT)
        .set(CHUNKED_CONTENT.STARTED_AT, clock.millis())
        .returning(CHUNKED_CONTENT.ID)
        .fetchOne()
        .getId();
  }

  /** Stores chunk number {@code seq} (from 0) of an upload. */
  public void putChunk(long upload, int seq, EncodedChunk chunk) {
    dsl.insertInto(CONTENT_CHUNK)
        .set(CONTENT_CHUNK.CONTENT_ID, upload)
        .set(CONTENT_CHUNK.SEQ, (long) seq)
        .set(CONTENT_CHUNK.SIZE, (long) chunk.size())
        .set(CONTENT_CHUNK.ENCODING, chunk.encoding())
        .set(CONTENT_CHUNK.DATA, chunk.data())
        .execute();
  }

  /**
   * Completes an upload whose chunks hold the content {@code sha256} of {@code size} bytes: it
   * becomes that blob, or, when the blob is stored already, its chunks are dropped.
   */
  public Sha256 completeChunks(long upload, Sha256 sha256, long size) {
    return completeChunks(upload, sha256, size, Optional.empty());
  }

  /**
   * As {@link #completeChunks(long, Sha256, long)}, for an upload some of whose chunks refer to the
   * chunks of {@code base} ({@link #chunkBase}): the blob names it as its base, so that garbage
   * collection keeps the base while this content needs it (the foreign key deltas have).
   */
  public Sha256 completeChunks(long upload, Sha256 sha256, long size, Optional<Sha256> base) {
    long stored =
        dsl.select(DSL.coalesce(DSL.sum(CONTENT_CHUNK.SIZE), DSL.inline(BigDecimal.ZERO)))
            .from(CONTENT_CHUNK)
            .where(CONTENT_CHUNK.CONTENT_ID.eq(upload))
            .fetchOne(0, Long.class);
    if (stored != size) {
      throw new StoreException(
          "upload " + upload + " holds " + stored + " bytes, not the " + size + " of " + sha256);
    }
    if (retain(sha256)) {
      abandonChunks(upload);
      return sha256;
    }
    if (base.isPresent()) {
      insertChunkedOn(sha256, size, base.get());
    } else {
      insert(new EncodedBlob(sha256, size, BlobCodec.CHUNKED, new byte[0]));
    }
    dsl.update(CHUNKED_CONTENT)
        .set(CHUNKED_CONTENT.SHA256, sha256.hex())
        .where(CHUNKED_CONTENT.ID.eq(upload))
        .execute();
    return sha256;
  }

  private void insertChunkedOn(Sha256 sha256, long size, Sha256 base) {
    long depth =
        dsl.select(BLOB.DEPTH)
            .from(BLOB)
            .where(BLOB.SHA256.eq(base.hex()))
            .fetchOptional(BLOB.DEPTH)
            .orElseThrow(() -> new StoreException("blob " + base + ", a chunked base, is missing"));
    dsl.insertInto(BLOB)
        .set(BLOB.SHA256, sha256.hex())
        .set(BLOB.SIZE, size)
        .set(BLOB.ENCODING, BlobCodec.CHUNKED)
        .set(BLOB.DATA, new byte[0])
        .set(BLOB.STORED_AT, clock.millis())
        .set(BLOB.BASE_SHA256, base.hex())
        .set(BLOB.DEPTH, depth + 1)
        .execute();
  }

  /**
   * The before-state a big after-state's chunks may be stored against: {@code before} when it is
   * stored in chunks less than {@link #MAX_DEPTH} deep (reading a chunk follows at most that many
   * references). It is marked as looked up now ({@link #retain}): a collection running while the
   * upload streams in keeps it for its grace period, and the completed blob then holds it by its
   * foreign key.
   */
  public Optional<Sha256> chunkBase(Sha256 before) {
    boolean usable =
        dsl.fetchExists(
            dsl.selectOne()
                .from(BLOB)
                .where(
                    BLOB.SHA256
                        .eq(before.hex())
                        .and(BLOB.ENCODING.eq(BlobCodec.CHUNKED))
                        .and(BLOB.DEPTH.lt((long) MAX_DEPTH))));
    return usable && retain(before) ? Optional.of(before) : Optional.empty();
  }

  /**
   * Chunk {@code seq} of {@code base}, a content stored in chunks, decompressed; empty when it has
   * fewer chunks. What a chunk at that seq of a content stored against it is encoded against.
   */
  public Optional<byte[]> chunkOf(ChunkedContent base, int seq) {
    return seq < base.chunks() ? Optional.of(chunk(base, seq)) : Optional.empty();
  }

  /** Drops an upload that will not be completed (the file changed while it was read). */
  public void abandonChunks(long upload) {
    dsl.deleteFrom(CONTENT_CHUNK).where(CONTENT_CHUNK.CONTENT_ID.eq(upload)).execute();
    dsl.deleteFrom(CHUNKED_CONTENT).where(CHUNKED_CONTENT.ID.eq(upload)).execute();
  }

  /**
   * The chunks of a content stored in chunks; empty when it is stored in one piece, or not at all.
   */
  public Optional<ChunkedContent> chunked(Sha256 sha256) {
    var count = DSL.count(CONTENT_CHUNK.SEQ);
    var size = DSL.coalesce(DSL.sum(CONTENT_CHUNK.SIZE), DSL.inline(BigDecimal.ZERO));
    return dsl.select(CHUNKED_CONTENT.ID, count, size)
        .from(CHUNKED_CONTENT)
        .leftJoin(CONTENT_CHUNK)
        .on(CONTENT_CHUNK.CONTENT_ID.eq(CHUNKED_CONTENT.ID))
        .where(CHUNKED_CONTENT.SHA256.eq(sha256.hex()))
        .groupBy(CHUNKED_CONTENT.ID)
        .fetchOptional(
            row ->
                new ChunkedContent(
                    row.value1(), row.value2(), row.value3().longValue(), chainOf(row.value1())));
  }

  /**
   * {@code content} and the chunked contents below it, each the base its blob names, nearest first:
   * one query per link, at most {@link #MOST_LINKS_READ} + 1 of them (a cycle is cut there, and a
   * chunk that refers past the end then fails as following too many bases).
   */
  private List<Long> chainOf(long content) {
    var self = CHUNKED_CONTENT.as("self");
    var base = CHUNKED_CONTENT.as("base");
    List<Long> chain = new ArrayList<>();
    chain.add(content);
    while (chain.size() <= MOST_LINKS_READ) {
      Optional<Long> next =
          dsl.select(base.ID)
              .from(self)
              .join(BLOB)
              .on(BLOB.SHA256.eq(self.SHA256))
              .join(base)
              .on(base.SHA256.eq(BLOB.BASE_SHA256))
              .where(self.ID.eq(chain.getLast()))
              .fetchOptional(base.ID);
      if (next.isEmpty()) {
        break;
      }
      chain.add(next.get());
    }
    return chain;
  }

  /**
   * Chunk {@code seq} of a content stored in chunks, decompressed: the rows at that seq of every
   * content of its chain in one query, the references among them ({@code same}, {@code delta}: the
   * chunk at the same seq of the content's base) followed in memory. Before, each link was two
   * queries (the base's id, then its chunk): a chunk five turns of small edits deep cost eleven.
   */
  public byte[] chunk(ChunkedContent content, int seq) {
    Map<Long, ChunkRow> rows = new HashMap<>();
    dsl.select(
            CONTENT_CHUNK.CONTENT_ID,
            CONTENT_CHUNK.ENCODING,
            CONTENT_CHUNK.DATA,
            CONTENT_CHUNK.SIZE)
        .from(CONTENT_CHUNK)
        .where(CONTENT_CHUNK.CONTENT_ID.in(content.chain()).and(CONTENT_CHUNK.SEQ.eq((long) seq)))
        .forEach(
            row -> rows.put(row.value1(), new ChunkRow(row.value2(), row.value3(), row.value4())));
    return decode(content.chain(), 0, seq, rows);
  }

  /** One stored chunk as its row holds it. */
  private record ChunkRow(String encoding, byte[] data, long size) {}

  /**
   * Chunk {@code seq} of the content at {@code link} of {@code chain}, decoding the chunk at the
   * same seq of its base (the next link) first when it refers to one.
   */
  private static byte[] decode(List<Long> chain, int link, int seq, Map<Long, ChunkRow> rows) {
    long content = chain.get(link);
    ChunkRow row = rows.get(content);
    if (row == null) {
      throw new StoreException(
          "chunk " + seq + " of stored content " + content + " is missing from the store");
    }
    if (!BlobCodec.SAME.equals(row.encoding()) && !BlobCodec.DELTA.equals(row.encoding())) {
      return BlobCodec.decode(row.encoding(), row.data(), row.size());
    }
    if (link >= MOST_LINKS_READ) {
      throw new StoreException(
          "chunk " + seq + " of stored content " + content + " follows too many bases");
    }
    if (link + 1 == chain.size()) {
      throw new StoreException(
          "chunk "
              + seq
              + " of stored content "
              + content
              + " refers to its base, which is not stored in chunks");
    }
    byte[] base = decode(chain, link + 1, seq, rows);
    if (BlobCodec.DELTA.equals(row.encoding())) {
      try {
        return BlobCodec.decodeDelta(row.data(), row.size(), base);
      } catch (StoreException e) {
        throw new StoreException(
            "chunk " + seq + " of stored content " + content + ": " + e.getMessage(), e);
      }
    }
    if (base.length != row.size()) {
      throw new StoreException(
          "chunk "
              + seq
              + " of stored content "
              + content
              + " is the same as its base's, which"
              + " holds "
              + base.length
              + " bytes, not "
              + row.size());
    }
    return base;
  }

  /**
   * Whether {@code sha256} is stored; when it is, it counts as stored now, so that a collection
   * keeps it for its grace period ({@link RetentionPolicy#grace}) even if no row refers to it yet:
   * the caller is about to write one that does, in a later transaction.
   */
  public boolean retain(Sha256 sha256) {
    // Kept prepared: a scan stores each content it read this way (a track's every file, a watched
    // Stop's changed ones), and rendered per call it was the largest share of jOOQ's rendering in
    // a CPU profile of a track of 20,000 files (JMH WatchedPrompt's set-up, 84 samples).
    return prepared
            .get(
                "blob.retain",
                q ->
                    q.update(BLOB)
                        .set(BLOB.STORED_AT, DSL.param("at", Long.class))
                        .where(BLOB.SHA256.eq(DSL.param("sha", String.class))))
            .bind("at", clock.millis())
            .bind("sha", sha256.hex())
            .update()
        > 0;
  }

  /**
   * Which of {@code hashes} are stored: for a call that read many contents, one query per {@link
   * KeysFound#PER_QUERY} of them instead of {@link #contains} each.
   */
  public Set<Sha256> containedAmong(Collection<Sha256> hashes) {
    return KeysFound.among(
        hashes,
        Sha256::hex,
        some ->
            KeysFound.preparedIn(
                    prepared,
                    "blob.held",
                    some,
                    String.class,
                    (dsl, list) -> dsl.select(BLOB.SHA256).from(BLOB).where(BLOB.SHA256.in(list)))
                .rows(row -> row.getString(1)));
  }

  public boolean contains(Sha256 sha256) {
    return prepared
        .get(
            "blob.exists",
            q ->
                q.select(DSL.inline(1))
                    .from(BLOB)
                    .where(BLOB.SHA256.eq(DSL.param("sha", String.class))))
        .bind("sha", sha256.hex())
        .firstLong()
        .isPresent();
  }
}
