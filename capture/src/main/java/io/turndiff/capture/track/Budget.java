package io.turndiff.capture.track;

import io.turndiff.boundary.ScannedEntry;
import io.turndiff.model.FileType;
import io.turndiff.model.WorkspacePath;
import java.util.ArrayList;
import java.util.List;

/**
 * What one scan may still take into the baseline: at most {@link TrackingOptions#maxFiles()} paths
 * and {@link TrackingOptions#maxBytes()} bytes of regular files' content. The first path that does
 * not fit spends it: from then on nothing is admitted, and what the walk does not finish is left
 * out and named, the directory that held that path (the root's own files: the path itself) and
 * every directory the walk meets after it.
 */
final class Budget {

  private final TrackingOptions limits;
  private int files;
  private long bytes;
  private boolean spent;
  private final List<WorkspacePath> leftOut = new ArrayList<>();

  Budget(TrackingOptions limits) {
    this.limits = limits;
  }

  /**
   * Counts {@code entry} in when it fits; false once the budget is spent (the entry is left out).
   */
  boolean admit(ScannedEntry entry) {
    long size = entry.type() == FileType.REGULAR ? entry.size() : 0;
    if (spent || files + 1 > limits.maxFiles() || bytes + size > limits.maxBytes()) {
      if (!spent) {
        spent = true;
        leftOut.add(entry.path().parent().orElse(entry.path()));
      }
      return false;
    }
    files++;
    bytes += size;
    return true;
  }

  /**
   * Whether the walk may enter {@code directory}: not once the budget is spent (it is left out
   * then).
   */
  boolean admitsDirectory(WorkspacePath directory) {
    if (spent) {
      leftOut.add(directory);
    }
    return !spent;
  }

  /** Some of the tree was left out: the index is partial. */
  boolean spent() {
    return spent;
  }

  int files() {
    return files;
  }

  long bytes() {
    return bytes;
  }

  /** The subtrees (or the root's files) the walk left out, in the order it met them. */
  List<WorkspacePath> leftOut() {
    return List.copyOf(leftOut);
  }
}
