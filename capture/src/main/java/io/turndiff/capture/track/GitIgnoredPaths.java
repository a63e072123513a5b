package io.turndiff.capture.track;

import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.model.WorkspacePath;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Whether git ignores a path, judged as a scan judges the files it meets ({@link IgnoreRules}), for
 * paths named one by one rather than met in a walk: the paths a tool call's snapshot named. Each
 * directory above a path is entered once, top down, as the walk would enter it (its ignore files
 * read through the boundary, the index of a work tree met there); a directory git ignores as a
 * whole is not entered, and every path below it is one git ignores, as git says of it.
 *
 * <p>A path {@code .turndiffignore} alone names is not one git ignores: the mark tells the reader
 * that git would not show the file, which is not what turndiff's own rules say.
 */
final class GitIgnoredPaths {

  private final WorkspaceBoundary boundary;
  private final IgnoreRules rules;

  /** Each directory asked about so far: {@code NOBODY} when entered, else who ignores it. */
  private final Map<Optional<WorkspacePath>, IgnoreRules.Verdict> directories = new HashMap<>();

  GitIgnoredPaths(WorkspaceBoundary boundary, GitIndexes git) {
    this.boundary = boundary;
    // turndiff's index has no say here: a directory git ignores is git's whatever turndiff keeps
    this.rules = new IgnoreRules(Set.of(), git, directory -> false);
  }

  /** Whether git ignores the file at {@code path}. */
  boolean ignored(WorkspacePath path) {
    IgnoreRules.Verdict above = directory(path.parent());
    IgnoreRules.Verdict verdict =
        above == IgnoreRules.Verdict.NOBODY ? rules.judge(path, false) : above;
    return verdict == IgnoreRules.Verdict.GITIGNORE
        || verdict == IgnoreRules.Verdict.IGNORED_DIRECTORY;
  }

  /** Who ignores {@code directory} or one above it; the directory is entered when nobody does. */
  private IgnoreRules.Verdict directory(Optional<WorkspacePath> directory) {
    IgnoreRules.Verdict known = directories.get(directory);
    if (known != null) {
      return known;
    }
    IgnoreRules.Verdict verdict = IgnoreRules.Verdict.NOBODY;
    if (directory.isPresent()) {
      IgnoreRules.Verdict above = directory(directory.get().parent());
      verdict = above == IgnoreRules.Verdict.NOBODY ? rules.judge(directory.get(), true) : above;
    }
    if (verdict == IgnoreRules.Verdict.NOBODY) {
      // every name that matters is offered: one that is not there is read as nothing
      rules.entering(directory, boundary, IgnoreRules.INTERESTING);
    }
    directories.put(directory, verdict);
    return verdict;
  }
}
