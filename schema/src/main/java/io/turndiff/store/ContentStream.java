package io.turndiff.store;

import io.turndiff.model.Sha256;
import java.io.InputStream;
import java.util.Optional;

/**
 * A stored content read as a stream: one piece from memory, or a content stored in chunks fetched
 * one chunk at a time, each in its own short read of the store, so that it is never held whole in
 * memory and the store's lock is never held while the caller writes it out.
 */
final class ContentStream extends InputStream {

  private final Store store;
  private final Optional<Blobs.ChunkedContent> chunked;
  private byte[] current;
  private int position;
  private int nextChunk;

  private ContentStream(Store store, Optional<Blobs.ChunkedContent> chunked, byte[] first) {
    this.store = store;
    this.chunked = chunked;
    this.current = first;
  }

  static ContentStream open(Store store, Sha256 sha256) {
    return store.read(
        tx -> {
          Optional<byte[]> whole = tx.blobs().requireInOnePiece(sha256);
          if (whole.isPresent()) {
            return new ContentStream(store, Optional.empty(), whole.get());
          }
          Blobs.ChunkedContent chunked =
              tx.blobs()
                  .chunked(sha256)
                  .orElseThrow(
                      () ->
                          new StoreException(
                              "blob " + sha256 + " is marked chunked but has no chunks"));
          return new ContentStream(store, Optional.of(chunked), new byte[0]);
        });
  }

  /** Whether the current piece is used up and another chunk was fetched; false at the end. */
  private boolean refill() {
    while (position == current.length) {
      if (chunked.isEmpty() || nextChunk == chunked.get().chunks()) {
        return false;
      }
      long id = chunked.get().id();
      int seq = nextChunk++;
      current = store.read(tx -> tx.blobs().chunk(id, seq));
      position = 0;
    }
    return true;
  }

  @Override
  public int read() {
    return refill() ? current[position++] & 0xff : -1;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) {
    if (length == 0) {
      return 0;
    }
    if (!refill()) {
      return -1;
    }
    int n = Math.min(length, current.length - position);
    System.arraycopy(current, position, buffer, offset, n);
    position += n;
    return n;
  }
}
