package io.turndiff.export;

import io.turndiff.boundary.ScannedEntry;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.model.FileType;
import io.turndiff.model.RequestException;
import io.turndiff.model.WorkspacePath;
import java.util.Optional;

/**
 * The one repository an export may write to: a {@code .git} directory at the workspace's root. A
 * {@code .git} that is a symlink, or a {@code gitdir:} file (a linked worktree's, a submodule's),
 * leads to a repository outside the workspace, which turndiff never writes: it is refused, named.
 * Every name below it is reached through the boundary too, so a link anywhere inside {@code .git}
 * (an {@code objects} directory that is a link) is never followed either; a repository whose
 * objects are only in an alternate store outside is refused when an object it needs is not inside.
 */
final class GitDirectory {

  static final WorkspacePath GIT = WorkspacePath.of(".git");

  private GitDirectory() {}

  /**
   * Checks that the workspace's {@code .git} is a directory inside it; refuses it else, naming it.
   */
  static void requireInside(WorkspaceBoundary boundary) {
    Optional<ScannedEntry> entry = boundary.lstat(GIT);
    String where = boundary.rootReal().resolve(".git").toString();
    if (entry.isEmpty()) {
      throw new RequestException(
          RequestException.Problem.WORKSPACE,
          "the workspace "
              + boundary.rootReal()
              + " has no .git directory at its root: export --commit writes only into one");
    }
    FileType type = entry.get().type();
    if (type == FileType.SYMLINK) {
      throw new RequestException(
          RequestException.Problem.WORKSPACE,
          where
              + " is a symlink"
              + entry.get().linkTarget().map(target -> " to " + target.display()).orElse("")
              + ": its repository is not inside the workspace, and export never writes outside it");
    }
    if (type == FileType.REGULAR) {
      throw new RequestException(
          RequestException.Problem.WORKSPACE,
          where
              + " is a gitdir file (a linked worktree's or a submodule's): its repository is"
              + " outside the workspace, and export never writes outside it");
    }
    if (type != FileType.DIRECTORY) {
      throw new RequestException(RequestException.Problem.WORKSPACE, where + " is not a directory");
    }
  }

  /** {@code .git/} followed by {@code relative}. */
  static WorkspacePath path(String relative) {
    return WorkspacePath.of(".git/" + relative);
  }
}
