package io.turndiff.boundary;

import java.io.IOException;
import java.nio.ByteBuffer;

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

  @Override
  void close();
}
