package io.turndiff.boundary;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;

/**
 * The top level of the git repository a directory is in, as {@code hooks install --git-root} asks a
 * turn's workspace to be: the nearest ancestor of the directory (the directory included) holding an
 * entry named {@code .git} that is a directory (a repository) or a regular file (a worktree's or a
 * submodule's {@code gitdir:} file). The entry is looked up by name with {@code lstat}: nothing is
 * read from it and no link is followed, so a {@code .git} that is a symbolic link marks nothing and
 * the search goes on above it (what a link names is not ours to look at). Names only, like a
 * workspace given by a client: the turn's begin opens the root it finds through the boundary.
 */
public final class GitTopLevel {

  private GitTopLevel() {}

  /** The top level for the absolute {@code directory}, or empty when no ancestor holds a .git. */
  public static Optional<Path> of(Path directory) {
    if (!directory.isAbsolute()) {
      throw new IllegalArgumentException("not an absolute directory: " + directory);
    }
    for (Path candidate = directory.normalize();
        candidate != null;
        candidate = candidate.getParent()) {
      if (marksRepository(candidate.resolve(".git"))) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  private static boolean marksRepository(Path entry) {
    try {
      BasicFileAttributes attributes =
          Files.readAttributes(entry, BasicFileAttributes.class, NOFOLLOW_LINKS);
      return attributes.isDirectory() || attributes.isRegularFile();
    } catch (IOException absent) {
      return false;
    }
  }
}
