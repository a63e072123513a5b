package io.turndiff.store;

import io.turndiff.model.Sha256;
import java.util.Optional;

/**
 * One content streamed into the store in chunks, never held whole: each chunk compressed off the
 * store's lock and written in its own short transaction, the blob row appearing, under the SHA-256
 * of the whole content, only in the transaction that completes it ({@link Blobs#completeChunks}).
 *
 * <p>Given a base (the before-state of the file whose after-state this is, when that is stored in
 * chunks too), each chunk is encoded against the base's chunk at the same seq ({@link
 * BlobEncoder#encodeChunk(byte[], Optional)}): the same bytes by reference, a few changed lines as
 * a small delta. The base is marked as looked up when the upload begins, so that a collection
 * running meanwhile keeps it for its grace period; the completed blob then names it as its base, a
 * foreign key that keeps it while this content is stored.
 */
public final class ChunkUpload {

  private final Store store;
  private final long upload;
  private final Optional<Sha256> base;
  private int seq;
  private boolean refersToBase;

  private ChunkUpload(Store store, long upload, Optional<Sha256> base) {
    this.store = store;
    this.upload = upload;
    this.base = base;
  }

  /** Begins an upload, its chunks stored against {@code before} where that can be a base. */
  public static ChunkUpload begin(Store store, Optional<Sha256> before) {
    long upload = store.write(tx -> tx.blobs().beginChunks());
    Optional<Sha256> base =
        before.isEmpty() ? Optional.empty() : store.write(tx -> tx.blobs().chunkBase(before.get()));
    return new ChunkUpload(store, upload, base);
  }

  /** Stores the next chunk of the content. */
  public void write(byte[] chunk) {
    int number = seq++;
    Optional<byte[]> baseChunk =
        base.flatMap(sha -> store.read(tx -> tx.blobs().chunkOf(sha, number)));
    EncodedChunk encoded = BlobEncoder.encodeChunk(chunk, baseChunk);
    refersToBase |= encoded.refersToBase();
    store.write(
        tx -> {
          tx.blobs().putChunk(upload, number, encoded);
          return null;
        });
  }

  /** All of it was written, and it hashed to {@code sha256}: it becomes that blob. */
  public Sha256 complete(Sha256 sha256, long size) {
    Optional<Sha256> referred = refersToBase ? base : Optional.empty();
    return store.write(tx -> tx.blobs().completeChunks(upload, sha256, size, referred));
  }

  /** What was written is dropped (the file moved while it was read). */
  public void abandon() {
    store.write(
        tx -> {
          tx.blobs().abandonChunks(upload);
          return null;
        });
  }
}
