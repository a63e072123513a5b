package io.turndiff.boundary;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The native memory of one boundary operation: C strings, {@code statx} buffers and the errno
 * capture segment, all freed together when the operation ends.
 */
final class NativeCall implements AutoCloseable {

  private final Arena arena = Arena.ofConfined();
  private final MemorySegment errnoCapture;

  NativeCall(long captureSize) {
    this.errnoCapture = arena.allocate(captureSize);
  }

  MemorySegment errnoCapture() {
    return errnoCapture;
  }

  /** A NUL-terminated copy of raw name bytes (names are bytes, not Java strings). */
  MemorySegment cString(byte[] bytes) {
    MemorySegment segment = arena.allocate(bytes.length + 1L);
    MemorySegment.copy(bytes, 0, segment, ValueLayout.JAVA_BYTE, 0, bytes.length);
    segment.set(ValueLayout.JAVA_BYTE, bytes.length, (byte) 0);
    return segment;
  }

  MemorySegment allocate(long bytes) {
    return arena.allocate(bytes, 16);
  }

  @Override
  public void close() {
    arena.close();
  }
}
