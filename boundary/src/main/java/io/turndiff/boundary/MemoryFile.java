package io.turndiff.boundary;

import java.io.File;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Bytes in an anonymous file in memory ({@code memfd_create}), which a library that reads only from
 * a {@code java.io.File} (JGit's {@code DirCache}) reads by the name {@code /proc/self/fd/N} while
 * it is open. It has no name in any directory, so no other process can open it and nothing is left
 * behind on disk, not even by a {@code kill -9}; closing it frees it.
 */
public final class MemoryFile implements AutoCloseable {

  private final Libc libc;
  private final int fd;

  private MemoryFile(Libc libc, int fd) {
    this.libc = libc;
    this.fd = fd;
  }

  /**
   * An anonymous file holding {@code bytes}, or empty where none can be made (no native access, a
   * kernel or libc without {@code memfd_create}, no {@code /proc}, or the posix mode, which names
   * nothing through {@code /proc}).
   *
   * @param name what {@code /proc/self/fd/N} links to ({@code memfd:NAME}), for whoever looks
   */
  public static Optional<MemoryFile> holding(String name, byte[] bytes) {
    if (!Portability.current().readsProc()) {
      return Optional.empty();
    }
    Libc libc;
    try {
      libc = Libc.load();
    } catch (UnsupportedOperationException unavailable) {
      return Optional.empty();
    }
    try (NativeCall call = libc.call()) {
      int fd = libc.memfdCreate(call, name.getBytes(StandardCharsets.UTF_8), LinuxAbi.MFD_CLOEXEC);
      if (fd < 0) {
        return Optional.empty();
      }
      MemoryFile file = new MemoryFile(libc, fd);
      if (!file.write(call, bytes) || !Files.isReadable(file.path())) {
        file.close();
        return Optional.empty();
      }
      return Optional.of(file);
    }
  }

  private boolean write(NativeCall call, byte[] bytes) {
    MemorySegment buffer = call.allocate(Math.max(1, bytes.length));
    MemorySegment.copy(bytes, 0, buffer, ValueLayout.JAVA_BYTE, 0, bytes.length);
    long written = 0;
    while (written < bytes.length) {
      long n = libc.write(call, fd, buffer.asSlice(written), bytes.length - written);
      if (n == -LinuxAbi.EINTR || n == -LinuxAbi.EAGAIN) {
        continue;
      }
      if (n <= 0) {
        return false;
      }
      written += n;
    }
    return true;
  }

  private Path path() {
    return Path.of("/proc/self/fd/" + fd);
  }

  /** The name this process reads the bytes by, from the first byte, while the file is open. */
  public File file() {
    return path().toFile();
  }

  @Override
  public void close() {
    try (NativeCall call = libc.call()) {
      libc.close(call, fd);
    }
  }
}
