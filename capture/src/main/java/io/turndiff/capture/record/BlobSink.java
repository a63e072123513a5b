package io.turndiff.capture.record;

import io.turndiff.boundary.ContentSink;
import io.turndiff.model.Sha256;
import io.turndiff.store.ChunkUpload;
import io.turndiff.store.Store;
import java.util.Optional;

/**
 * The store's blob table as the sink of a read that streams what it does not hold in memory: a big
 * file is streamed in chunk by chunk ({@link ChunkUpload}), so that neither memory nor the store's
 * lock is held for the whole file.
 */
public final class BlobSink implements ContentSink {

  private final Store store;
  private final boolean stores;
  private final Optional<Sha256> before;

  private BlobSink(Store store, boolean stores, Optional<Sha256> before) {
    this.store = store;
    this.stores = stores;
    this.before = before;
  }

  /** Stores what it does not hold yet. */
  public static BlobSink storing(Store store) {
    return new BlobSink(store, true, Optional.empty());
  }

  /**
   * Stores what it does not hold yet, chunk by chunk against {@code before} (the path's
   * before-state) when that is stored in chunks too: a chunk the same as the before-state's at its
   * seq is stored by reference, one a little changed as a delta of it ({@code
   * BlobEncoder.encodeChunk}). What a finish stores a big file's after-state with.
   */
  public static BlobSink storingAgainst(Store store, Optional<Sha256> before) {
    return new BlobSink(store, true, before);
  }

  /**
   * Only looks: a file whose content the store holds is captured (by reference), any other over the
   * size limit stays uncaptured. For reading a path again to see whether it changed since it was
   * stored.
   */
  public static BlobSink checking(Store store) {
    return new BlobSink(store, false, Optional.empty());
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
    ChunkUpload upload = ChunkUpload.begin(store, before);
    return Optional.of(
        new Upload() {
          @Override
          public void write(byte[] chunk) {
            upload.write(chunk);
          }

          @Override
          public void complete(Sha256 sha256, long size) {
            upload.complete(sha256, size);
          }

          @Override
          public void abandon() {
            upload.abandon();
          }
        });
  }
}
