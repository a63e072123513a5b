package io.turndiff.store;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The store's read-only connections: each read runs in its own read transaction on a connection of
 * its own, so in WAL mode it sees one consistent snapshot and never waits for the writer.
 * Connections are kept for the next read (a few: opening one costs a file open and the connection
 * set-up); a read nested in a read of the same thread is part of the outer one.
 */
final class ReadConnections implements AutoCloseable {

  /**
   * How many idle connections are kept: eight, or as many as cores where there are more. Reads
   * overlap on more threads than two cores (in a watched prompt a hook's thread, the background
   * diffs', the watch's check and the scan's readers), and a connection given back to a full pool
   * is closed, so the next read beyond it opens a connection again, with a cold page cache, and
   * prepares every statement it runs again. With two kept, on two cores, a CPU profile of JMH
   * WatchedPrompt found the prompt's own thread opening connections and preparing statements in 29
   * of its 500 samples. An idle connection costs a file descriptor and its page cache on SQLite (at
   * most the default 2 MB, filled only by what it read); on PostgreSQL a server process and one of
   * the server's connections, eight a service at most.
   */
  private static final int KEPT_IDLE = Math.max(8, Runtime.getRuntime().availableProcessors());

  private final Supplier<StoreConnection> opener;
  private final Deque<StoreConnection> idle = new ArrayDeque<>();

  // Per store, not per class: a thread reading two stores at once holds one connection of each.
  @SuppressWarnings("ThreadLocalUsage")
  private final ThreadLocal<StoreConnection> current = new ThreadLocal<>();

  private boolean closed;

  ReadConnections(Supplier<StoreConnection> opener) {
    this.opener = opener;
  }

  /** Runs {@code work} in a read transaction: this thread's current one, else a new one. */
  <T> T read(Function<StoreConnection, T> work) {
    StoreConnection active = current.get();
    if (active != null) {
      return work.apply(active);
    }
    StoreConnection connection = borrow();
    current.set(connection);
    try {
      return connection.readTransaction(() -> work.apply(connection));
    } finally {
      current.remove();
      giveBack(connection);
    }
  }

  /** Runs {@code work} on a connection outside any transaction (for the integrity check). */
  <T> T withConnection(Function<StoreConnection, T> work) {
    StoreConnection connection = borrow();
    try {
      return work.apply(connection);
    } finally {
      giveBack(connection);
    }
  }

  private StoreConnection borrow() {
    synchronized (idle) {
      if (closed) {
        throw new IllegalStateException("the store is closed");
      }
      StoreConnection kept = idle.pollFirst();
      if (kept != null) {
        return kept;
      }
    }
    return opener.get();
  }

  private void giveBack(StoreConnection connection) {
    synchronized (idle) {
      if (!closed && !connection.broken() && idle.size() < KEPT_IDLE) {
        idle.addFirst(connection);
        return;
      }
    }
    connection.close();
  }

  @Override
  public void close() {
    synchronized (idle) {
      closed = true;
      idle.forEach(StoreConnection::close);
      idle.clear();
    }
  }
}
