package io.turndiff.boundary;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * A file opened for reading through a {@link DirectoryHandle}; its bytes are read only after {@link
 * FileReader}'s checks.
 */
interface OpenedFile extends AutoCloseable {

  /** The inode as it was when opened (the fd handles: {@code fstat} of the opened fd). */
  StatInfo opened();

  /**
   * The inode's stat now, or empty when it can no longer be told (the name was replaced, the stat
   * failed).
   */
  Optional<StatInfo> now();

  /**
   * Reads into {@code into} from byte {@code position} of the file: the count read, or -1 at its
   * end.
   */
  int read(ByteBuffer into, long position) throws IOException;

  @Override
  void close();
}
