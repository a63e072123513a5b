package io.turndiff.capture.track;

import io.turndiff.model.WorkspacePath;
import java.util.Collection;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The directories that hold some set of paths, at any depth: which directories a scan must enter
 * for them.
 */
final class DirectoriesHolding {

  private final Set<WorkspacePath> directories;

  private DirectoriesHolding(Set<WorkspacePath> directories) {
    this.directories = directories;
  }

  static DirectoriesHolding of(Collection<WorkspacePath> paths) {
    Set<WorkspacePath> directories = new HashSet<>();
    for (WorkspacePath path : paths) {
      // deepest first, up to one already known (whose own directories are known too)
      Optional<WorkspacePath> parent = path.parent();
      while (parent.isPresent() && directories.add(parent.get())) {
        parent = parent.get().parent();
      }
    }
    return new DirectoriesHolding(directories);
  }

  boolean holds(WorkspacePath directory) {
    return directories.contains(directory);
  }
}
