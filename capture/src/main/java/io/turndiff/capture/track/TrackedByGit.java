package io.turndiff.capture.track;

import io.turndiff.model.WorkspacePath;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The paths one git index tracks, as workspace paths (the index's names under its work tree's
 * directory), and the directories that hold them: what a scan must look at even where {@code
 * .gitignore} says not to.
 */
final class TrackedByGit {

  static final TrackedByGit NONE = new TrackedByGit(Set.of(), DirectoriesHolding.of(Set.of()));

  private final Set<WorkspacePath> files;
  private final DirectoriesHolding directories;

  private TrackedByGit(Set<WorkspacePath> files, DirectoriesHolding directories) {
    this.files = files;
    this.directories = directories;
  }

  /**
   * The names of an index whose work tree is {@code workTree} ({@code empty}: the workspace root).
   */
  static TrackedByGit of(Optional<WorkspacePath> workTree, List<byte[]> names) {
    byte[] prefix =
        workTree
            .map(
                directory -> {
                  byte[] bytes = directory.bytes();
                  byte[] withSlash = Arrays.copyOf(bytes, bytes.length + 1);
                  withSlash[bytes.length] = '/';
                  return withSlash;
                })
            .orElse(new byte[0]);
    Set<WorkspacePath> files = HashSet.newHashSet(names.size());
    for (byte[] name : names) {
      byte[] full = new byte[prefix.length + name.length];
      System.arraycopy(prefix, 0, full, 0, prefix.length);
      System.arraycopy(name, 0, full, prefix.length, name.length);
      WorkspacePath path;
      try {
        path = WorkspacePath.ofRelativeBytes(full);
      } catch (IllegalArgumentException notAPath) {
        continue; // git never writes such a name ("..", an empty component): nothing on disk can
        // match it
      }
      files.add(path);
    }
    return new TrackedByGit(files, DirectoriesHolding.of(files));
  }

  /** Whether git tracks {@code path}: a file, a symlink, or a submodule's directory. */
  boolean tracks(WorkspacePath path) {
    return files.contains(path);
  }

  /** Whether git tracks anything in {@code directory}, or the directory itself (a submodule). */
  boolean tracksWithin(WorkspacePath directory) {
    return directories.holds(directory) || files.contains(directory);
  }

  boolean isEmpty() {
    return files.isEmpty();
  }
}
