package io.turndiff.model;

/**
 * A directory's state at one moment: a directory with its permission bits, or absent. A directory
 * is never a file change; these states let a rewind remove the directories a turn created and
 * re-create, with their mode, the ones it removed.
 *
 * @param mode permission bits ({@code 07777}) of a present directory; 0 for an absent one
 */
public record DirectoryState(WorkspacePath path, boolean present, int mode) {

  public DirectoryState {
    if (path.isOutside()) {
      throw new IllegalArgumentException(
          "a directory state is of a path inside the workspace: " + path);
    }
    if (mode < 0 || mode > 07777 || (!present && mode != 0)) {
      throw new IllegalArgumentException(
          "mode holds the permission bits of a present directory: " + Integer.toOctalString(mode));
    }
  }

  public static DirectoryState present(WorkspacePath path, int mode) {
    return new DirectoryState(path, true, mode);
  }

  public static DirectoryState absent(WorkspacePath path) {
    return new DirectoryState(path, false, 0);
  }
}
