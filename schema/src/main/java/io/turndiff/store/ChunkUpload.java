package io.turndiff.store;

import io.turndiff.model.Sha256;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One content streamed into the store in chunks, never held whole: each chunk compressed off the
 * store's lock and written in a short transaction (chunks that encode small, such as those stored
 * by reference, a few to a transaction, at most about a chunk's bytes held), the blob row
 * appearing, under the SHA-256 of the whole content, only in the transaction that completes it
 * ({@link Blobs#completeChunks}).
 *
 * <p>Given a base (the before-state of the file whose after-state this is, when that is stored in
 * chunks too), each chunk is encoded against the base's chunk at the same seq ({@link
 * BlobEncoder#encodeChunk(byte[], Optional)}): the same bytes by reference, a few changed lines as
 * a small delta. The base is marked as looked up when the upload begins, so that a collection
 * running meanwhile keeps it for its grace period; the completed blob then names it as its base, a
 * foreign key that keeps it while this content is stored.
 */
public final class ChunkUpload {

  /**
   * Encoded bytes gathered before they are written in one transaction: a chunk that compresses
   * poorly is written on its own, as before, while a run of chunks stored by reference or as small
   * deltas shares one commit.
   */
  private static final long FLUSH_AT = 1L << 20;

  private final Store store;
  private final long upload;
  private final Optional<Sha256> base;
  private final Optional<Blobs.ChunkedContent> baseChunks;

  /** Encoded chunks not written yet, by seq, and their encoded bytes: at most about a chunk's. */
  private final Map<Integer, EncodedChunk> pending = new LinkedHashMap<>();

  private long pendingBytes;
  private int seq;
  private boolean refersToBase;

  private ChunkUpload(
      Store store, long upload, Optional<Sha256> base, Optional<Blobs.ChunkedContent> baseChunks) {
    this.store = store;
    this.upload = upload;
    this.base = base;
    this.baseChunks = baseChunks;
  }

  /** Begins an upload, its chunks stored against {@code before} where that can be a base. */
  public static ChunkUpload begin(Store store, Optional<Sha256> before) {
    long upload = store.write(tx -> tx.blobs().beginChunks());
    Optional<Sha256> base =
        before.isEmpty() ? Optional.empty() : store.write(tx -> tx.blobs().chunkBase(before.get()));
    // the base's chunks and the chain they decode from, looked up once for the whole upload
    Optional<Blobs.ChunkedContent> baseChunks =
        base.flatMap(sha -> store.read(tx -> tx.blobs().chunked(sha)));
    return new ChunkUpload(store, upload, base, baseChunks);
  }

  /** Stores the next chunk of the content. */
  public void write(byte[] chunk) {
    int number = seq++;
    Optional<byte[]> baseChunk =
        baseChunks.flatMap(chunks -> store.read(tx -> tx.blobs().chunkOf(chunks, number)));
    EncodedChunk encoded = BlobEncoder.encodeChunk(chunk, baseChunk);
    refersToBase |= encoded.refersToBase();
    pending.put(number, encoded);
    pendingBytes += encoded.data().length;
    if (pendingBytes >= FLUSH_AT) {
      store.write(
          tx -> {
            putPending(tx);
            return null;
          });
    }
  }

  /**
   * Writes the chunks encoded since the last write, in the caller's transaction: a chunk the same
   * as its base's is a row of a few bytes, and a transaction of its own cost it a commit (29 of the
   * 30 a 30 MB file edited in its middle made).
   */
  private void putPending(StoreTransaction tx) {
    pending.forEach((number, encoded) -> tx.blobs().putChunk(upload, number, encoded));
    pending.clear();
    pendingBytes = 0;
  }

  /** All of it was written, and it hashed to {@code sha256}: it becomes that blob. */
  public Sha256 complete(Sha256 sha256, long size) {
    Optional<Sha256> referred = refersToBase ? base : Optional.empty();
    return store.write(
        tx -> {
          putPending(tx);
          return tx.blobs().completeChunks(upload, sha256, size, referred);
        });
  }

  /** What was written is dropped (the file moved while it was read). */
  public void abandon() {
    pending.clear();
    pendingBytes = 0;
    store.write(
        tx -> {
          tx.blobs().abandonChunks(upload);
          return null;
        });
  }
}
