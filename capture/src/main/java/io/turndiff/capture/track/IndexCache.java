package io.turndiff.capture.track;

import io.turndiff.model.FileType;
import io.turndiff.model.IndexEntry;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.Store;
import io.turndiff.store.TrackedWorkspace;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The index of each tracked workspace, held in memory by this process and read from the store again
 * only when its version moved (every write of an index gives it a new version, whichever process
 * wrote it). A scan asks it once and compares the whole tree against it, marking each entry it saw
 * by its slot number.
 */
final class IndexCache {

  /**
   * An index in memory, as one read transaction saw it: its version and the time the scan that
   * wrote it started (the racy rule's reference), its entries numbered so that a scan can mark each
   * one it saw in a bit set, its directories with their modes ({@code empty} when the index was
   * written before directories were indexed), and the directories that hold its entries, listed the
   * first time a scan asks.
   */
  record Index(
      long version,
      long indexedAtNanos,
      boolean partial,
      Map<WorkspacePath, Slot> slots,
      List<IndexEntry> entries,
      Optional<Map<WorkspacePath, Integer>> directories,
      AtomicReference<DirectoriesHolding> holding,
      long regularBytes) {

    /** A workspace that is not tracked: nothing indexed, version 0. */
    static final Index NONE = of(0, 0, false, Map.of(), Optional.empty());

    static Index of(
        long version,
        long indexedAtNanos,
        boolean partial,
        Map<WorkspacePath, IndexEntry> byPath,
        Optional<Map<WorkspacePath, Integer>> directories) {
      Map<WorkspacePath, Slot> slots = HashMap.newHashMap(byPath.size());
      List<IndexEntry> entries = new ArrayList<>(byPath.size());
      for (IndexEntry entry : byPath.values()) {
        slots.put(entry.path(), new Slot(entry, entries.size()));
        entries.add(entry);
      }
      long regularBytes = 0;
      for (IndexEntry entry : entries) {
        regularBytes += regularBytes(entry);
      }
      return new Index(
          version,
          indexedAtNanos,
          partial,
          slots,
          entries,
          directories,
          new AtomicReference<>(),
          regularBytes);
    }

    /** The size of a regular file's content, as the budget counts it (0 for anything else). */
    static long regularBytes(IndexEntry entry) {
      return entry.type() == FileType.REGULAR ? entry.stat().size() : 0;
    }

    /** Whether the index holds a path inside {@code directory}, at any depth. */
    boolean holdsWithin(WorkspacePath directory) {
      DirectoriesHolding known = holding.get();
      if (known == null) {
        known = DirectoriesHolding.of(slots.keySet());
        holding.compareAndSet(null, known);
      }
      return known.holds(directory);
    }
  }

  /** An index entry and its number, the bit a scan sets when it sees the entry's path. */
  record Slot(IndexEntry entry, int number) {}

  private final Store store;
  private final Map<Long, Index> byWorkspace = new ConcurrentHashMap<>();

  IndexCache(Store store) {
    this.store = store;
  }

  /**
   * The workspace's index as it is in the store now: the one held when its version is still the
   * store's (one cheap read), else read whole, header and entries in one transaction.
   */
  Index of(long workspaceId) {
    Optional<TrackedWorkspace> current = store.read(tx -> tx.indexes().tracked(workspaceId));
    if (current.isEmpty()) {
      return Index.NONE;
    }
    Index cached = byWorkspace.get(workspaceId);
    // the start of the scan that wrote it too: a version a rolled-back write gave the cache is
    // never taken for another process's write of the same number
    if (cached != null
        && cached.version() == current.get().version()
        && cached.indexedAtNanos() == current.get().indexedAtNanos()) {
      return cached;
    }
    Index read =
        store.read(
            tx -> {
              Optional<TrackedWorkspace> header = tx.indexes().tracked(workspaceId);
              if (header.isEmpty()) {
                return Index.NONE;
              }
              return Index.of(
                  header.get().version(),
                  header.get().indexedAtNanos(),
                  header.get().partial(),
                  tx.indexes().entries(workspaceId),
                  tx.indexDirectories().known(workspaceId)
                      ? Optional.of(tx.indexDirectories().all(workspaceId))
                      : Optional.empty());
            });
    byWorkspace.put(workspaceId, read);
    return read;
  }

  /**
   * Holds the index {@code written} over {@code before} as version {@code version}: what a watched
   * scan wrote, so that the next one need not read every entry again.
   */
  void advance(
      long workspaceId,
      long beforeVersion,
      long version,
      long indexedAtNanos,
      boolean partial,
      List<IndexEntry> upserts,
      List<WorkspacePath> removals,
      Map<WorkspacePath, Integer> directories) {
    Index before = byWorkspace.get(workspaceId);
    if (before == null || before.version() != beforeVersion || before.directories().isEmpty()) {
      byWorkspace.remove(workspaceId);
      return;
    }
    Optional<Map<WorkspacePath, Integer>> modes = Optional.of(Map.copyOf(directories));
    if (removals.isEmpty()
        && upserts.stream().allMatch(entry -> before.slots().containsKey(entry.path()))) {
      // a finish that changed indexed files only (the usual one): each keeps its slot, so the
      // entries are copied and the changed slots replaced, not every entry hashed again
      byWorkspace.put(
          workspaceId, replaced(before, version, indexedAtNanos, partial, upserts, modes));
      return;
    }
    Map<WorkspacePath, IndexEntry> byPath = HashMap.newHashMap(before.entries().size() + 16);
    for (IndexEntry entry : before.entries()) {
      byPath.put(entry.path(), entry);
    }
    removals.forEach(byPath::remove);
    for (IndexEntry entry : upserts) {
      byPath.put(entry.path(), entry);
    }
    byWorkspace.put(workspaceId, Index.of(version, indexedAtNanos, partial, byPath, modes));
  }

  /** {@code before} with {@code upserts} (all of them indexed paths) in their own slots. */
  private static Index replaced(
      Index before,
      long version,
      long indexedAtNanos,
      boolean partial,
      List<IndexEntry> upserts,
      Optional<Map<WorkspacePath, Integer>> directories) {
    if (upserts.isEmpty()) {
      return new Index(
          version,
          indexedAtNanos,
          partial,
          before.slots(),
          before.entries(),
          directories,
          before.holding(),
          before.regularBytes());
    }
    Map<WorkspacePath, Slot> slots = new HashMap<>(before.slots());
    List<IndexEntry> entries = new ArrayList<>(before.entries());
    long regularBytes = before.regularBytes();
    for (IndexEntry entry : upserts) {
      Slot old = slots.get(entry.path());
      regularBytes += Index.regularBytes(entry) - Index.regularBytes(old.entry());
      slots.put(entry.path(), new Slot(entry, old.number()));
      entries.set(old.number(), entry);
    }
    return new Index(
        version,
        indexedAtNanos,
        partial,
        slots,
        entries,
        directories,
        before.holding(),
        regularBytes);
  }

  /** Forgets what is held for the workspace (its index was just written). */
  void invalidate(long workspaceId) {
    byWorkspace.remove(workspaceId);
  }
}
