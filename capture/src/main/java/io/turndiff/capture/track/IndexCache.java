package io.turndiff.capture.track;

import io.turndiff.model.FileType;
import io.turndiff.model.IndexEntry;
import io.turndiff.model.StatProof;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.Store;
import io.turndiff.store.TrackedWorkspace;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The index of each tracked workspace, held in memory by this process and read from the store again
 * only when its version moved (every write of an index gives it a new version, whichever process
 * wrote it). A scan asks it once and compares the whole tree against it, marking each entry it saw
 * by its slot number.
 *
 * <p>A watched scan writes a few entries of an index of any size, and the next one must see them
 * without paying for the entries it did not change: an index is a <i>base</i> read or rebuilt whole
 * (its entries sorted by path, numbered in that order) and an <i>overlay</i> of the paths written
 * since (replaced, added or removed), each new index copying the previous one's overlay and adding
 * its own writes. Copying the base would cost every entry at every finish (at 250,000 entries tens
 * of milliseconds, and as many objects for the collector while they were objects); copying the
 * overlay costs what was written since the last rebuild, at most {@link #MAX_OVERLAY} paths. Past
 * that the index is rebuilt whole once: the cost of a finish stays bounded by what it changed, the
 * rebuild amortized over the {@value #MAX_OVERLAY} paths written before it.
 */
final class IndexCache {

  /**
   * The paths an overlay holds before the index is rebuilt whole: a finish copies up to this many
   * (a few hundred microseconds), and the rebuild (a sort and the columns of every entry) comes
   * once per this many paths written.
   */
  static final int MAX_OVERLAY = 4_096;

  /**
   * An indexed path and its number, the bit a scan sets when it sees the path. Its stat is what a
   * scan compares for every path it finds; the whole entry, built from the columns when it is one
   * of theirs, only for those it finds changed.
   */
  static final class Slot {

    private final WorkspacePath path;
    private final int number;
    private final IndexColumns columns;
    private IndexEntry entry;

    private Slot(WorkspacePath path, int number, IndexColumns columns, IndexEntry entry) {
      this.path = path;
      this.number = number;
      this.columns = columns;
      this.entry = entry;
    }

    /** A path written over the base: its entry is at hand. */
    static Slot of(IndexEntry entry, int number) {
      return new Slot(entry.path(), number, null, entry);
    }

    WorkspacePath path() {
      return path;
    }

    int number() {
      return number;
    }

    StatProof stat() {
      return entry != null ? entry.stat() : columns.stat(number);
    }

    IndexEntry entry() {
      if (entry == null) {
        entry = columns.entry(number, path);
      }
      return entry;
    }
  }

  /** A path written over the base: its number, and its entry ({@code null}: removed). */
  private record Written(int number, IndexEntry entry) {}

  /**
   * An index in memory, as one read transaction saw it and the watched scans of this process wrote
   * it since: its version and the time the scan that wrote it started (the racy rule's reference),
   * its entries numbered so that a scan can mark each one it saw in a bit set, its directories with
   * their modes ({@code empty} when the index was written before directories were indexed), and the
   * bytes of its regular files. Immutable: a scan holding it is never disturbed by another's write.
   */
  static final class Index {

    /** A workspace that is not tracked: nothing indexed, version 0. */
    static final Index NONE = of(0, 0, false, List.of(), Optional.empty());

    private final long version;
    private final long indexedAtNanos;
    private final boolean partial;
    private final Optional<DirectoryModes> directories;
    private final IndexColumns base;
    private final Map<WorkspacePath, Written> byPath;
    private final Map<Integer, Written> byNumber;
    private final int numbers;
    private final int size;
    private final long regularBytes;

    private Index(
        long version,
        long indexedAtNanos,
        boolean partial,
        Optional<DirectoryModes> directories,
        IndexColumns base,
        Map<WorkspacePath, Written> byPath,
        Map<Integer, Written> byNumber,
        int numbers,
        int size,
        long regularBytes) {
      this.version = version;
      this.indexedAtNanos = indexedAtNanos;
      this.partial = partial;
      this.directories = directories;
      this.base = base;
      this.byPath = byPath;
      this.byNumber = byNumber;
      this.numbers = numbers;
      this.size = size;
      this.regularBytes = regularBytes;
    }

    static Index of(
        long version,
        long indexedAtNanos,
        boolean partial,
        Collection<IndexEntry> entries,
        Optional<DirectoryModes> directories) {
      IndexColumns base = IndexColumns.of(entries);
      return new Index(
          version,
          indexedAtNanos,
          partial,
          directories,
          base,
          Map.of(),
          Map.of(),
          base.size(),
          base.size(),
          base.regularBytes());
    }

    /** The size of a regular file's content, as the budget counts it (0 for anything else). */
    static long regularBytes(IndexEntry entry) {
      return entry.type() == FileType.REGULAR ? entry.stat().size() : 0;
    }

    long version() {
      return version;
    }

    long indexedAtNanos() {
      return indexedAtNanos;
    }

    boolean partial() {
      return partial;
    }

    Optional<DirectoryModes> directories() {
      return directories;
    }

    /** The bytes of the indexed regular files. */
    long regularBytes() {
      return regularBytes;
    }

    /** How many paths the index holds. */
    int size() {
      return size;
    }

    /** The numbers given out: every slot's number is below it (a scan's bit set has this many). */
    int numbers() {
      return numbers;
    }

    /** The entry of {@code path} and its number, or {@code null} when the path is not indexed. */
    Slot slot(WorkspacePath path) {
      return slotOf(byPath, base, path);
    }

    private static Slot slotOf(
        Map<WorkspacePath, Written> written, IndexColumns base, WorkspacePath path) {
      Written at = written.get(path);
      if (at != null) {
        return at.entry() == null ? null : Slot.of(at.entry(), at.number());
      }
      int number = base.numberOf(path);
      return number < 0 ? null : new Slot(path, number, base, null);
    }

    /** The entry numbered {@code number}, or {@code null} when its path is no longer indexed. */
    IndexEntry entry(int number) {
      Written written = byNumber.get(number);
      if (written != null) {
        return written.entry();
      }
      return number < base.size() ? base.entry(number) : null;
    }

    /** Every entry at {@code directory} or under it: a binary search and the run it finds. */
    List<IndexEntry> within(WorkspacePath directory) {
      List<IndexEntry> found = new ArrayList<>();
      Slot itself = slot(directory);
      if (itself != null) {
        found.add(itself.entry());
      }
      IndexColumns.Run run = base.under(directory);
      for (int i = run.from(); i < run.to(); i++) {
        if (!byNumber.containsKey(i)) {
          found.add(base.entry(i));
        }
      }
      for (Written written : byNumber.values()) {
        if (isUnder(written, directory)) {
          found.add(written.entry());
        }
      }
      return found;
    }

    /**
     * Whether the index holds a path inside {@code directory}, at any depth: the first live entry
     * of the run under it, or one written since.
     */
    boolean holdsWithin(WorkspacePath directory) {
      IndexColumns.Run run = base.under(directory);
      for (int i = run.from(); i < run.to(); i++) {
        Written written = byNumber.get(i);
        if (written == null || written.entry() != null) {
          return true;
        }
      }
      for (Written written : byNumber.values()) {
        if (isUnder(written, directory)) {
          return true;
        }
      }
      return false;
    }

    /** Whether a path written over the base is indexed and under {@code directory} (not it). */
    private static boolean isUnder(Written written, WorkspacePath directory) {
      return written.entry() != null
          && written.entry().path().isWithin(directory)
          && !written.entry().path().equals(directory);
    }

    /** The entries of files with more than one link. */
    List<IndexEntry> hardlinked() {
      List<IndexEntry> found = new ArrayList<>();
      for (int number : base.hardlinked()) {
        if (!byNumber.containsKey(number)) {
          found.add(base.entry(number));
        }
      }
      for (Written written : byNumber.values()) {
        if (written.entry() != null && written.entry().stat().nlink() > 1) {
          found.add(written.entry());
        }
      }
      return found;
    }

    /**
     * This index with {@code upserts} and {@code removals} written as version {@code version}: the
     * overlay copied and the writes added to it, or, past {@link #MAX_OVERLAY} paths, every entry
     * rebuilt into a new base.
     */
    Index advanced(
        long version,
        long indexedAtNanos,
        boolean partial,
        List<IndexEntry> upserts,
        List<WorkspacePath> removals,
        Optional<DirectoryModes> directories) {
      Map<WorkspacePath, Written> paths = new HashMap<>(byPath);
      Map<Integer, Written> written = new HashMap<>(byNumber);
      int given = numbers;
      int count = size;
      long bytes = regularBytes;
      for (WorkspacePath path : removals) {
        Slot slot = slotOf(paths, base, path);
        if (slot != null) {
          Written removed = new Written(slot.number(), null);
          paths.put(path, removed);
          written.put(slot.number(), removed);
          count--;
          bytes -= regularBytes(slot.entry());
        }
      }
      for (IndexEntry entry : upserts) {
        Written was = paths.get(entry.path());
        int number;
        if (was != null) {
          number = was.number();
          if (was.entry() == null) {
            count++;
          } else {
            bytes -= regularBytes(was.entry());
          }
        } else {
          int inBase = base.numberOf(entry.path());
          if (inBase >= 0) {
            number = inBase;
            bytes -= base.regularBytes(inBase);
          } else {
            number = given++;
            count++;
          }
        }
        Written now = new Written(number, entry);
        paths.put(entry.path(), now);
        written.put(number, now);
        bytes += regularBytes(entry);
      }
      if (paths.size() > MAX_OVERLAY) {
        List<IndexEntry> live = new ArrayList<>(count);
        for (int number = 0; number < given; number++) {
          Written at = written.get(number);
          IndexEntry entry = at != null ? at.entry() : base.entry(number);
          if (entry != null) {
            live.add(entry);
          }
        }
        return of(version, indexedAtNanos, partial, live, directories);
      }
      return new Index(
          version, indexedAtNanos, partial, directories, base, paths, written, given, count, bytes);
    }
  }

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
                  tx.indexes().entries(workspaceId).values(),
                  tx.indexDirectories().known(workspaceId)
                      ? Optional.of(DirectoryModes.of(tx.indexDirectories().all(workspaceId)))
                      : Optional.empty());
            });
    byWorkspace.put(workspaceId, read);
    return read;
  }

  /** The index held for the workspace, without asking the store whether it is still current. */
  Optional<Index> held(long workspaceId) {
    return Optional.ofNullable(byWorkspace.get(workspaceId));
  }

  /**
   * Holds the index {@code written} over {@code before} as version {@code version}: what a watched
   * scan wrote (a workspace's first index included, written whole), so that the next one need not
   * read every entry again.
   */
  void advance(
      long workspaceId,
      long beforeVersion,
      long version,
      long indexedAtNanos,
      boolean partial,
      List<IndexEntry> upserts,
      List<WorkspacePath> removals,
      DirectoryModes directories) {
    Index before = byWorkspace.get(workspaceId);
    if (before == null && beforeVersion == 0) {
      // the workspace's first index (a track): the scan wrote every entry it holds, so it is held
      // as written rather than read back whole by the next scan. At 250,000 files that read was
      // most of the first prompt's begin after a track through the service (2.2 s, 136 ms without
      // it: docs/performance.md, "The first begin after a track")
      // its directories too become a base, as a read would make them: laid over nothing, they
      // would be an overlay every later finish copies
      byWorkspace.put(
          workspaceId,
          Index.of(
              version,
              indexedAtNanos,
              partial,
              upserts,
              Optional.of(DirectoryModes.of(directories.whole()))));
      return;
    }
    if (before == null || before.version() != beforeVersion || before.directories().isEmpty()) {
      byWorkspace.remove(workspaceId);
      return;
    }
    byWorkspace.put(
        workspaceId,
        before.advanced(
            version, indexedAtNanos, partial, upserts, removals, Optional.of(directories)));
  }

  /** Forgets what is held for the workspace (its index was just written). */
  void invalidate(long workspaceId) {
    byWorkspace.remove(workspaceId);
  }
}
