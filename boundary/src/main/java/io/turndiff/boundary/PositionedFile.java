package io.turndiff.boundary;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A workspace file held open for reads at any position, for files read in parts rather than whole
 * (a git pack, of which a reader needs a few objects). Opened and checked as every read is (beneath
 * the root, nothing followed, a regular file with one link on the root's device); valid only inside
 * {@link WorkspaceBoundary#readPositioned}.
 */
public interface PositionedFile {

  /** The file's size when it was opened. */
  long size();

  /**
   * Reads into {@code into} from byte {@code position}: the count read, or -1 at the file's end.
   */
  int read(ByteBuffer into, long position) throws IOException;

  /** What a caller does with the file while it is held open. */
  @FunctionalInterface
  interface Reads<T> {
    T apply(PositionedFile file) throws IOException;
  }
}
