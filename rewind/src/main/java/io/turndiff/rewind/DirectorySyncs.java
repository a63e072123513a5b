package io.turndiff.rewind;

import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.boundary.WriteOutcome;
import io.turndiff.model.WorkspacePath;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The directories a step of a rewind changed: an entry renamed in, unlinked, made or removed (the
 * path's parent), or a directory's own mode. Each is synced once ({@code fsync} of that directory)
 * before the step is journaled done, so that a power loss after the journal says so cannot take the
 * change back; nothing else on the file system is flushed or waited for. Files are synced as they
 * are staged, before anything is renamed over a name.
 */
final class DirectorySyncs {

  /** The root as {@link Optional#empty()}. */
  private final Set<Optional<WorkspacePath>> pending = new LinkedHashSet<>();

  /** The directory that holds {@code path}'s name (the root for a top-level path). */
  static Optional<WorkspacePath> parentOf(WorkspacePath path) {
    List<byte[]> parents = path.parentComponents();
    return parents.isEmpty() ? Optional.empty() : Optional.of(WorkspacePath.ofComponents(parents));
  }

  /** {@code path}'s name was made, replaced or removed. */
  synchronized void nameChanged(WorkspacePath path) {
    pending.add(parentOf(path));
  }

  /** The directory {@code directory} itself changed (its mode). */
  synchronized void directoryChanged(WorkspacePath directory) {
    pending.add(Optional.of(directory));
  }

  /**
   * Syncs every directory noted since the last call, on a few threads (after the first, which
   * commits the file system's journal, each costs little); returns those that could not be synced,
   * with why.
   */
  Map<Optional<WorkspacePath>, String> sync(WorkspaceBoundary boundary) {
    List<Optional<WorkspacePath>> directories;
    synchronized (this) {
      directories = new ArrayList<>(pending);
      pending.clear();
    }
    List<WriteOutcome> outcomes = IndependentSteps.run(directories, boundary::syncDirectory);
    Map<Optional<WorkspacePath>, String> failed = new HashMap<>();
    for (int i = 0; i < directories.size(); i++) {
      if (outcomes.get(i) instanceof WriteOutcome.Refused(String reason)) {
        failed.put(directories.get(i), reason);
      }
    }
    return failed;
  }
}
