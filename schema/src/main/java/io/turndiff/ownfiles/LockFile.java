package io.turndiff.ownfiles;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;

/**
 * An advisory lock ({@code fcntl}) on a file of turndiff's own, made owner-only ({@code 0600}) when
 * it is missing: the store's {@code <store>.migrate-lock} while a migration runs, the service's
 * {@code <store>.service.lock}, held by the daemon for its life, and {@code <key>.lock}, held while
 * {@code service start} decides and spawns. Released by {@link #close()} or by the process ending,
 * however it ends.
 *
 * <p>What this does not protect: a process cannot take its own {@code fcntl} lock twice, so two
 * threads of one process are not kept apart by it (the caller adds a lock of its own), and the
 * lock's file is opened by name in a directory the caller chose.
 */
public final class LockFile implements AutoCloseable {

  private final FileChannel channel;
  private final FileLock lock;

  private LockFile(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  private static FileChannel open(Path file) throws IOException {
    if (Files.notExists(file)) {
      try {
        Files.createFile(file, PosixFilePermissions.asFileAttribute(AtomicFile.OWNER_ONLY));
      } catch (IOException raced) {
        // another process made it first
      }
    }
    return FileChannel.open(file, StandardOpenOption.WRITE);
  }

  /** Waits for the lock. */
  public static LockFile acquire(Path file) throws IOException {
    FileChannel channel = open(file);
    try {
      return new LockFile(channel, channel.lock());
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /** The lock when no other process holds it. */
  public static Optional<LockFile> tryAcquire(Path file) throws IOException {
    FileChannel channel = open(file);
    try {
      FileLock lock = channel.tryLock();
      if (lock == null) {
        channel.close();
        return Optional.empty();
      }
      return Optional.of(new LockFile(channel, lock));
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
    Optional<LockFile> lock = tryAcquire(file);
    lock.ifPresent(LockFile::close);
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
