package io.turndiff.store;

import io.turndiff.ownfiles.LockFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * One migrator at a time per store, across the threads of this process and across processes.
 *
 * <p>Flyway runs a transactional migration inside its own transaction, and SQLite's write lock then
 * keeps a second migrator out. A migration that cannot run in a transaction (one that rebuilds a
 * table with foreign keys off) has no such guard: two processes opening an old store at once would
 * both run it, and the second fails half-way ("table … already exists"). So migrating takes an
 * advisory lock first — {@code fcntl} on a sidecar {@code <store>.migrate-lock} file (mode 0600,
 * beside the store in its 0700 folder), and, because a process cannot take its own {@code fcntl}
 * lock twice, a lock per store file within the process — and the caller looks at the schema version
 * again once it holds it.
 */
final class MigrationLock {

  private static final Map<Path, ReentrantLock> IN_PROCESS = new ConcurrentHashMap<>();

  private MigrationLock() {}

  /**
   * Runs {@code migration} while no other thread or process migrates the store at {@code
   * storeFile}.
   */
  static <T> T holding(Path storeFile, Supplier<T> migration) {
    ReentrantLock local = IN_PROCESS.computeIfAbsent(storeFile, file -> new ReentrantLock());
    Path lockFile = storeFile.resolveSibling(storeFile.getFileName() + ".migrate-lock");
    local.lock();
    try (LockFile held = LockFile.acquire(lockFile)) {
      return migration.get();
    } catch (IOException e) {
      throw new StoreException(
          "cannot migrate the store "
              + storeFile
              + ": cannot lock "
              + lockFile
              + " ("
              + e.getMessage()
              + ")",
          e);
    } finally {
      local.unlock();
    }
  }
}
