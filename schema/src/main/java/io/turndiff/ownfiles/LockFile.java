package io.turndiff.service;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;

/**
 * An advisory lock on a file of the service's own ({@code <store>.service.lock}, held by the daemon
 * for its life; {@code <key>.lock}, held while {@code service start} decides and spawns), released
 * by {@link #close()} or by the process ending, however it ends.
 */
public final class ServiceLock implements AutoCloseable {

  private final FileChannel channel;
  private final FileLock lock;

  private ServiceLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  private static FileChannel open(Path file) throws IOException {
    if (Files.notExists(file)) {
      try {
        Files.createFile(
            file,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      } catch (IOException raced) {
        // another process made it first
      }
    }
    return FileChannel.open(file, StandardOpenOption.WRITE);
  }

  /** Waits for the lock. */
  public static ServiceLock acquire(Path file) throws IOException {
    FileChannel channel = open(file);
    try {
      return new ServiceLock(channel, channel.lock());
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /** The lock when no other process holds it. */
  public static Optional<ServiceLock> tryAcquire(Path file) throws IOException {
    FileChannel channel = open(file);
    try {
      FileLock lock = channel.tryLock();
      if (lock == null) {
        channel.close();
        return Optional.empty();
      }
      return Optional.of(new ServiceLock(channel, lock));
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /** Whether another process holds the lock on {@code file} now. */
  public static boolean heldElsewhere(Path file) throws IOException {
    if (Files.notExists(file)) {
      return false;
    }
    Optional<ServiceLock> lock = tryAcquire(file);
    lock.ifPresent(ServiceLock::close);
    return lock.isEmpty();
  }

  @Override
  public void close() {
    try (channel) {
      lock.release();
    } catch (IOException ignored) {
      // closing the channel releases the lock anyway
    }
  }
}
