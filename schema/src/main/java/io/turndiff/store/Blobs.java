package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.BLOB;

import io.turndiff.model.Sha256;
import java.time.InstantSource;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/** Content addressed by SHA-256: each distinct content is stored once, compressed. */
public final class Blobs {

  private final DSLContext dsl;
  private final InstantSource clock;
  private final PreparedQueries prepared;
  private final BlobCodec codec;

  Blobs(DSLContext dsl, InstantSource clock, PreparedQueries prepared, BlobCodec codec) {
    this.dsl = dsl;
    this.clock = clock;
    this.prepared = prepared;
    this.codec = codec;
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
    if (codec == null) {
      throw new IllegalStateException("content is stored only in a write transaction");
    }
    BlobCodec.Encoded encoded = codec.encode(content);
    insert(new EncodedBlob(sha256, content.length, encoded.encoding(), encoded.data()));
    return sha256;
  }

  /** Stores content a {@link BlobEncoder} compressed, unless it is stored already. */
  public Sha256 put(EncodedBlob blob) {
    if (!contains(blob.sha256())) {
      insert(blob);
    }
    return blob.sha256();
  }

  private void insert(EncodedBlob blob) {
    prepared.get("blob.insert", q -> q.insertInto(BLOB)
            .set(BLOB.SHA256, DSL.param("sha", String.class))
            .set(BLOB.SIZE, DSL.param("size", Long.class))
            .set(BLOB.ENCODING, DSL.param("encoding", String.class))
            .set(BLOB.DATA, DSL.param("data", byte[].class))
            .set(BLOB.STORED_AT, DSL.param("at", Long.class))
            .onConflictDoNothing())
        .bind("sha", blob.sha256().hex()).bind("size", blob.size()).bind("encoding", blob.encoding())
        .bind("data", blob.data()).bind("at", clock.millis()).update();
  }

  public Optional<byte[]> get(Sha256 sha256) {
    PreparedQuery query = prepared.get("blob.get", q -> q.select(BLOB.ENCODING, BLOB.DATA, BLOB.SIZE).from(BLOB)
        .where(BLOB.SHA256.eq(DSL.param("sha", String.class))));
    return query.bind("sha", sha256.hex()).first(row -> BlobCodec.decode(row.getString(1), row.getBytes(2),
        row.getLong(3)));
  }

  /** The content of a blob that a stored row refers to; its absence means the store is damaged. */
  public byte[] require(Sha256 sha256) {
    return get(sha256).orElseThrow(() -> new StoreException("blob " + sha256 + " is missing from the store"));
  }

  /** Every stored content, decompressed: for audits such as the secret canary. */
  public void forEach(java.util.function.BiConsumer<Sha256, byte[]> visitor) {
    dsl.selectFrom(BLOB).orderBy(BLOB.SHA256).forEach(row -> visitor.accept(new Sha256(row.getSha256()),
        BlobCodec.decode(row.getEncoding(), row.getData(), row.getSize())));
  }

  public boolean contains(Sha256 sha256) {
    return prepared.get("blob.exists", q -> q.select(DSL.inline(1)).from(BLOB)
            .where(BLOB.SHA256.eq(DSL.param("sha", String.class))))
        .bind("sha", sha256.hex()).firstLong().isPresent();
  }
}
