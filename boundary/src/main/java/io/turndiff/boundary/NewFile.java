package io.turndiff.boundary;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;

/** A file just created by {@link DirectoryHandle#createExclusive}, open for writing. */
interface NewFile extends AutoCloseable {

  /** Writes all of {@code from}. */
  void write(ByteBuffer from) throws IOException;

  /**
   * Sets exactly these permission bits on the new file, through its handle where the platform can.
   */
  void chmod(int mode) throws IOException;

  /** Makes the content durable ({@code fsync}). */
  void sync() throws IOException;

  /**
   * What the file is now, as its own handle says ({@code fstat} of the descriptor), once written:
   * empty where the handle cannot say (the fallback's channel) or the call failed.
   */
  Optional<StatInfo> now();

  @Override
  void close();
}
