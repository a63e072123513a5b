package io.turndiff.store;

import static io.turndiff.store.jooq.Tables.BLOB;

import io.turndiff.model.Sha256;
import io.turndiff.store.jooq.tables.records.BlobRecord;
import java.time.InstantSource;
import java.util.Optional;
import org.jooq.DSLContext;

/** Content addressed by SHA-256: each distinct content is stored once, compressed. */
public final class Blobs {

  private final DSLContext dsl;
  private final InstantSource clock;

  Blobs(DSLContext dsl, InstantSource clock) {
    this.dsl = dsl;
    this.clock = clock;
  }

  /** Stores {@code content} under its hash unless it is stored already; returns the hash. */
  public Sha256 put(byte[] content) {
    return put(Sha256.of(content), content);
  }

  /** Stores {@code content}, whose hash the caller computed while reading it. */
  public Sha256 put(Sha256 sha256, byte[] content) {
    if (dsl.fetchExists(BLOB, BLOB.SHA256.eq(sha256.hex()))) {
      return sha256;
    }
    BlobCodec.Encoded encoded = BlobCodec.encode(content);
    dsl.insertInto(BLOB)
        .set(BLOB.SHA256, sha256.hex())
        .set(BLOB.SIZE, (long) content.length)
        .set(BLOB.ENCODING, encoded.encoding())
        .set(BLOB.DATA, encoded.data())
        .set(BLOB.STORED_AT, clock.millis())
        .onConflictDoNothing()
        .execute();
    return sha256;
  }

  public Optional<byte[]> get(Sha256 sha256) {
    BlobRecord row = dsl.selectFrom(BLOB).where(BLOB.SHA256.eq(sha256.hex())).fetchOne();
    if (row == null) {
      return Optional.empty();
    }
    return Optional.of(BlobCodec.decode(row.getEncoding(), row.getData(), row.getSize()));
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
    return dsl.fetchExists(BLOB, BLOB.SHA256.eq(sha256.hex()));
  }
}
