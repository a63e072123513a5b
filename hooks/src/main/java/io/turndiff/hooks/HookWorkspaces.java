package io.turndiff.hooks;

import io.turndiff.api.Turndiff;
import io.turndiff.boundary.GitTopLevel;
import io.turndiff.store.StoredWorkspace;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The workspace a hook's turn begins in, from the directory the runtime reported. When the client
 * asked for the git top level ({@code root=git}) and the directory is in a repository, that top
 * level ({@link GitTopLevel}: a {@code .git} entry looked up by name, nothing read or followed).
 * Else the deepest tracked workspace whose root (as given, or its real path) contains it, else the
 * deepest whose real root contains the directory's real path (a directory named through a symlink)
 * — Codex reports a tool's working directory, a subdirectory of the workspace {@code hooks install}
 * tracked — else the directory itself. The turn's begin opens the root through the boundary.
 */
final class HookWorkspaces {

  private final Turndiff turndiff;

  HookWorkspaces(Turndiff turndiff) {
    this.turndiff = turndiff;
  }

  Path of(String cwd, boolean gitRoot) {
    Path directory = Path.of(cwd).normalize();
    Optional<Path> topLevel = gitRoot ? GitTopLevel.of(directory) : Optional.empty();
    return topLevel.orElseGet(() -> deepestTracked(directory).orElse(directory));
  }

  /** The deepest tracked workspace containing {@code directory}, or empty when none does. */
  Optional<Path> deepestTracked(Path directory) {
    List<StoredWorkspace> tracked =
        turndiff.store().readWithoutFolding(tx -> tx.workspaces().tracked());
    Optional<Path> byName =
        deepestContaining(
            directory,
            tracked.stream().flatMap(stored -> Stream.of(stored.rootGiven(), stored.rootReal())));
    if (byName.isPresent() || tracked.isEmpty()) {
      return byName;
    }
    // a directory named through a symlink (~/app for /work/app) lies in the workspace its real
    // path lies in; the boundary resolves it only when no root's name contains the directory's
    return turndiff
        .realPathOf(directory)
        .flatMap(real -> deepestContaining(real, tracked.stream().map(StoredWorkspace::rootReal)));
  }

  /** The root with the most names that contains {@code directory}; the first of equals. */
  private static Optional<Path> deepestContaining(Path directory, Stream<String> roots) {
    return roots
        .map(Path::of)
        .filter(directory::startsWith)
        .max(Comparator.comparingInt(Path::getNameCount));
  }
}
