package io.turndiff.cli;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A lock over one file that the test classes running at once in this JVM and the test JVMs of other
 * builds in the same checkout all take: one does the work (an npm install, a cache's training)
 * while the others wait, and then find it done. A JVM cannot take a file lock twice, so its threads
 * first queue on a monitor of their own for the file.
 */
final class BuildLock {

  /** Work done under the lock. */
  @FunctionalInterface
  interface Work<T> {
    T run() throws IOException, InterruptedException;
  }

  private static final Map<Path, Object> MONITORS = new ConcurrentHashMap<>();

  private BuildLock() {}

  /** Runs {@code work} holding the lock {@code file} (made when missing, never removed). */
  static <T> T holding(Path file, Work<T> work) throws IOException, InterruptedException {
    synchronized (
        MONITORS.computeIfAbsent(file.toAbsolutePath().normalize(), name -> new Object())) {
      try (FileChannel channel =
              FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          FileLock held = channel.lock()) {
        return work.run();
      }
    }
  }
}
