package io.turndiff.boundary;

import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * The bounded fingerprint of a file over the size limit: a SHA-256 over a marker, the file's size,
 * and {@link Snapshot#SAMPLED_BLOCKS} blocks of {@link Snapshot#SAMPLED_BLOCK_SIZE} bytes spread
 * evenly from the first byte to the last (each with its offset). Reading it costs the same for a 3
 * MB file and a 32 GiB one.
 */
final class SampledBlocks {

  private static final byte[] MARKER = "turndiff-sampled-v1\0".getBytes(StandardCharsets.US_ASCII);

  private final long size;
  private final MessageDigest digest = Sha256.newDigest();

  SampledBlocks(long size) {
    this.size = size;
    digest.update(MARKER);
    digest.update(ByteBuffer.allocate(Long.BYTES).putLong(0, size));
  }

  /** Where sampled block {@code index} starts. */
  long offset(int index) {
    long last = Math.max(0, size - Snapshot.SAMPLED_BLOCK_SIZE);
    int gaps = Snapshot.SAMPLED_BLOCKS - 1;
    return last / gaps * index + last % gaps * index / gaps;
  }

  /** How many bytes sampled block {@code index} holds. */
  int length(int index) {
    return (int) Math.min(Snapshot.SAMPLED_BLOCK_SIZE, size - offset(index));
  }

  /** Adds block {@code index}, read in full ({@link #length} bytes). */
  void add(int index, ByteBuffer block) {
    digest.update(ByteBuffer.allocate(Long.BYTES).putLong(0, offset(index)));
    digest.update(block);
  }

  Sha256 sha256() {
    return Sha256.fromDigest(digest);
  }
}
