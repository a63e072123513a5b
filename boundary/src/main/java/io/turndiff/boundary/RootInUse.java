package io.turndiff.boundary;

import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Keeps a root handle from being closed while an operation uses it. Without this, a close racing an
 * operation could free the fd number, the kernel could hand it to an unrelated open, and the
 * operation would resolve names relative to some other directory.
 */
final class RootInUse implements AutoCloseable {

  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private boolean closed;

  /** Marks the root in use until {@link #close()}; throws when the boundary was closed. */
  RootInUse acquire() {
    lock.readLock().lock();
    if (closed) {
      lock.readLock().unlock();
      throw new IllegalStateException("the workspace boundary is closed");
    }
    return this;
  }

  @Override
  public void close() {
    lock.readLock().unlock();
  }

  /** Waits for operations in flight; true for the one caller that should release the handle. */
  boolean closeOnce() {
    lock.writeLock().lock();
    try {
      if (closed) {
        return false;
      }
      closed = true;
      return true;
    } finally {
      lock.writeLock().unlock();
    }
  }
}
