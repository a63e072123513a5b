package io.turndiff.store;

import io.turndiff.model.Sha256;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.Optional;

/**
 * A stored content read as a stream: one piece from memory, or a content stored in chunks fetched
 * one chunk at a time, each in its own short read of the store, so that it is never held whole in
 * memory and the store's lock is never held while the caller writes it out.
 *
 * <p>Content in chunks is hashed as it is read, and its last read fails unless it hashed to the
 * blob's SHA-256: chunks decoded against their base's chunks (a big file stored against its
 * before-state) are checked as a whole, so a damaged or mismatched base never ends in a file
 * written out as if it were the content.
 */
final class ContentStream extends InputStream {

  private final Store store;
  private final Sha256 sha256;
  private final Optional<Blobs.ChunkedContent> chunked;
  private final MessageDigest digest = Sha256.newDigest();
  private byte[] current;
  private int position;
  private int nextChunk;
  private Sha256 readBack;

  private ContentStream(
      Store store, Sha256 sha256, Optional<Blobs.ChunkedContent> chunked, byte[] first) {
    this.store = store;
    this.sha256 = sha256;
    this.chunked = chunked;
    this.current = first;
  }

  static ContentStream open(Store store, Sha256 sha256) {
    return store.read(
        tx -> {
          Optional<byte[]> whole = tx.blobs().requireInOnePiece(sha256);
          if (whole.isPresent()) {
            return new ContentStream(store, sha256, Optional.empty(), whole.get());
          }
          Blobs.ChunkedContent chunked =
              tx.blobs()
                  .chunked(sha256)
                  .orElseThrow(
                      () ->
                          new StoreException(
                              "blob " + sha256 + " is marked chunked but has no chunks"));
          return new ContentStream(store, sha256, Optional.of(chunked), new byte[0]);
        });
  }

  /** Whether the current piece is used up and another chunk was fetched; false at the end. */
  private boolean refill() throws IOException {
    while (position == current.length) {
      if (chunked.isEmpty()) {
        return false;
      }
      if (nextChunk == chunked.get().chunks()) {
        requireWhole();
        return false;
      }
      Blobs.ChunkedContent content = chunked.get();
      int seq = nextChunk++;
      current = store.read(tx -> tx.blobs().chunk(content, seq));
      digest.update(current);
      position = 0;
    }
    return true;
  }

  /** At the end of content in chunks: the bytes read are the content the blob is keyed by. */
  private void requireWhole() throws IOException {
    if (readBack == null) {
      readBack = Sha256.fromDigest(digest);
    }
    if (!readBack.equals(sha256)) {
      throw new IOException(
          "stored content " + sha256 + " reads back as " + readBack + ": the store is damaged");
    }
  }

  @Override
  public int read() throws IOException {
    return refill() ? current[position++] & 0xff : -1;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
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
