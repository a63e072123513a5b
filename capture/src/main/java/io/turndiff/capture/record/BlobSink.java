package io.turndiff.capture.record;

import io.turndiff.boundary.ContentSink;
import io.turndiff.model.Sha256;
import io.turndiff.store.BlobEncoder;
import io.turndiff.store.EncodedChunk;
import io.turndiff.store.Store;
import java.util.Optional;

/**
 * The store's blob table as the sink of a read that captures whatever the size: a file over the
 * size limit is streamed in chunk by chunk, each chunk compressed off the store's lock and written
 * in its own short transaction, so that neither memory nor the lock is held for the whole file. The
 * blob appears, under the SHA-256 of the whole content, only in the transaction that completes it.
 */
public final class BlobSink implements ContentSink {

  private final Store store;
  private final boolean stores;

  private BlobSink(Store store, boolean stores) {
    this.store = store;
    this.stores = stores;
  }

  /** Stores what it does not hold yet. */
  public static BlobSink storing(Store store) {
    return new BlobSink(store, true);
  }

  /**
   * Only looks: a file whose content the store holds is captured (by reference), any other over the
   * size limit stays uncaptured. For reading a path again to see whether it changed since it was
   * stored.
   */
  public static BlobSink checking(Store store) {
    return new BlobSink(store, false);
  }

  /**
   * Whether the store holds {@code sha256}. A row that refers to it is written in a later
   * transaction, so on a store that can be written the blob is marked as looked up now: a
   * collection running meanwhile keeps it (its grace period).
   */
  @Override
  public boolean holds(Sha256 sha256) {
    if (store.readOnly()) {
      return store.read(tx -> tx.blobs().contains(sha256));
    }
    return store.write(tx -> tx.blobs().retain(sha256));
  }

  @Override
  public Optional<Upload> begin() {
    if (!stores) {
      return Optional.empty();
    }
    long upload = store.write(tx -> tx.blobs().beginChunks());
    return Optional.of(
        new Upload() {
          private int seq;

          @Override
          public void write(byte[] chunk) {
            EncodedChunk encoded = BlobEncoder.encodeChunk(chunk);
            int number = seq++;
            store.write(
                tx -> {
                  tx.blobs().putChunk(upload, number, encoded);
                  return null;
                });
          }

          @Override
          public void complete(Sha256 sha256, long size) {
            store.write(tx -> tx.blobs().completeChunks(upload, sha256, size));
          }

          @Override
          public void abandon() {
            store.write(
                tx -> {
                  tx.blobs().abandonChunks(upload);
                  return null;
                });
          }
        });
  }
}
