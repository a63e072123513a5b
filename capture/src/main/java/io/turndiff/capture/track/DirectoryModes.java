package io.turndiff.capture.track;

import io.turndiff.model.WorkspacePath;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The indexed directories of a workspace with their permission bits, layered as the index's entries
 * are ({@link IndexCache}): a <i>base</i> read or walked whole, its paths sorted so that the
 * directories under one are a run found by a binary search, and an <i>overlay</i> of the
 * directories set or removed since, which each new version copies and adds to. A watched scan's
 * directories are the index's with what its walk entered laid over them, and the index written
 * after it is that again with the changes: neither copies nor compares the base, so a finish costs
 * what it changed plus the overlay, not one map entry per directory of the tree (four passes a
 * finish before, which a tree of many small directories paid per directory). Past {@link
 * IndexCache#MAX_OVERLAY} paths the overlay is folded into a new base once. Immutable.
 */
final class DirectoryModes {

  /** Bases made in this process, so that each has a number of its own. */
  private static final AtomicLong BASES = new AtomicLong();

  /** No directory known (after {@link #BASES}, which it takes its number from). */
  static final DirectoryModes NONE = of(Map.of());

  /** The base's number: versions laid over one base share it, and its map. */
  private final long baseNumber;

  private final Map<WorkspacePath, Integer> base;
  private final WorkspacePath[] sorted;

  /** The directories set (their mode) or removed ({@code null}) over the base. */
  private final Map<WorkspacePath, Integer> overlay;

  private DirectoryModes(
      long baseNumber,
      Map<WorkspacePath, Integer> base,
      WorkspacePath[] sorted,
      Map<WorkspacePath, Integer> overlay) {
    this.baseNumber = baseNumber;
    this.base = base;
    this.sorted = sorted;
    this.overlay = overlay;
  }

  /** The directories of a walk or of a read of the store, whole: a new base. */
  static DirectoryModes of(Map<WorkspacePath, Integer> modes) {
    WorkspacePath[] sorted = modes.keySet().toArray(WorkspacePath[]::new);
    Arrays.sort(sorted);
    return new DirectoryModes(BASES.incrementAndGet(), Map.copyOf(modes), sorted, Map.of());
  }

  /** The mode of {@code directory}, or {@code null} when it is not among them. */
  Integer get(WorkspacePath directory) {
    if (overlay.containsKey(directory)) {
      return overlay.get(directory);
    }
    return base.get(directory);
  }

  boolean contains(WorkspacePath directory) {
    return get(directory) != null;
  }

  /**
   * The directories at {@code directory} or under it, at any depth: itself, the run of the sorted
   * base under it, and those of the overlay.
   */
  List<WorkspacePath> within(WorkspacePath directory) {
    List<WorkspacePath> found = new ArrayList<>();
    if (contains(directory)) {
      found.add(directory);
    }
    for (int i = SortedPaths.firstUnder(sorted.length, at -> sorted[at], directory);
        i < sorted.length && sorted[i].isWithin(directory);
        i++) {
      if (!overlay.containsKey(sorted[i])) {
        found.add(sorted[i]);
      }
    }
    overlay.forEach(
        (path, mode) -> {
          if (mode != null && path.isWithin(directory) && !path.equals(directory)) {
            found.add(path);
          }
        });
    return found;
  }

  /**
   * These directories with {@code set} (mode by path) laid over them and {@code removed} taken out:
   * the overlay copied and the changes added to it, or, past {@link IndexCache#MAX_OVERLAY} paths,
   * every directory folded into a new base.
   */
  DirectoryModes with(Map<WorkspacePath, Integer> set, Collection<WorkspacePath> removed) {
    if (set.isEmpty() && removed.isEmpty()) {
      return this;
    }
    Map<WorkspacePath, Integer> written = new HashMap<>(overlay);
    for (WorkspacePath path : removed) {
      if (contains(path)) {
        written.put(path, null);
      }
    }
    // a directory walked again with the mode the base has is not written: a watched scan enters
    // the directories of every change, and the overlay would fill with copies of the base
    set.forEach(
        (path, mode) -> {
          if (written.containsKey(path) || !mode.equals(base.get(path))) {
            written.put(path, mode);
          }
        });
    DirectoryModes next = new DirectoryModes(baseNumber, base, sorted, written);
    return written.size() > IndexCache.MAX_OVERLAY ? of(next.whole()) : next;
  }

  /** Every directory with its mode: the base and the overlay, folded. */
  Map<WorkspacePath, Integer> whole() {
    Map<WorkspacePath, Integer> all = new HashMap<>(base);
    overlay.forEach(
        (path, mode) -> {
          if (mode == null) {
            all.remove(path);
          } else {
            all.put(path, mode);
          }
        });
    return all;
  }

  /** What changed from {@code before} to these: directories set (appeared or a new mode), gone. */
  record Changes(Map<WorkspacePath, Integer> set, List<WorkspacePath> gone) {}

  /**
   * The directories that appeared, changed mode or went between {@code before} and these. Over the
   * same base only the paths of the two overlays can differ, and only those are compared; otherwise
   * every directory of both is.
   */
  Changes since(DirectoryModes before) {
    Set<WorkspacePath> candidates;
    if (before.baseNumber == baseNumber) {
      candidates = new HashSet<>(overlay.keySet());
      candidates.addAll(before.overlay.keySet());
    } else {
      candidates = new HashSet<>(whole().keySet());
      candidates.addAll(before.whole().keySet());
    }
    Map<WorkspacePath, Integer> set = new HashMap<>();
    List<WorkspacePath> gone = new ArrayList<>();
    for (WorkspacePath path : candidates) {
      Integer now = get(path);
      Integer was = before.get(path);
      if (now == null) {
        if (was != null) {
          gone.add(path);
        }
      } else if (!now.equals(was)) {
        set.put(path, now);
      }
    }
    return new Changes(set, gone);
  }
}
