package io.turndiff.server;

import io.turndiff.boundary.GitTopLevel;
import io.turndiff.capture.workspace.WorkspaceHandles;
import io.turndiff.store.Store;
import io.turndiff.store.StoredWorkspace;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The workspace a hook's turn begins in, from the directory the runtime reported. When the client
 * asked for the git top level ({@code root=git}) and the directory is in a repository, that top
 * level ({@link GitTopLevel}: a {@code .git} entry looked up by name, nothing read or followed).
 * Else the deepest tracked workspace whose root (as given, or its real path) contains it, or
 * contains the directory's real path (a directory named through a symlink) — Codex reports a tool's
 * working directory, a subdirectory of the workspace {@code hooks install} tracked — else the
 * directory itself. The turn's begin opens the root through the boundary.
 */
final class HookWorkspaces {

  private final Store store;
  private final WorkspaceHandles workspaces;

  HookWorkspaces(Store store, WorkspaceHandles workspaces) {
    this.store = store;
    this.workspaces = workspaces;
  }

  Path of(String cwd, boolean gitRoot) {
    Path directory = Path.of(cwd).normalize();
    Optional<Path> topLevel = gitRoot ? GitTopLevel.of(directory) : Optional.empty();
    return topLevel.orElseGet(() -> deepestTracked(directory).orElse(directory));
  }

  /** The deepest tracked workspace containing {@code directory}, or empty when none does. */
  Optional<Path> deepestTracked(Path directory) {
    List<StoredWorkspace> tracked = store.read(tx -> tx.workspaces().tracked());
    // the directory's real path as well: a directory named through a symlink (~/app for /work/app)
    // lies in the workspace its real path lies in, which a comparison of the names alone misses
    Optional<Path> real = tracked.isEmpty() ? Optional.empty() : workspaces.realPathOf(directory);
    Path deepest = null;
    for (StoredWorkspace workspace : tracked) {
      for (String root : List.of(workspace.rootGiven(), workspace.rootReal())) {
        Path candidate = Path.of(root);
        boolean contains =
            directory.startsWith(candidate)
                || (root.equals(workspace.rootReal())
                    && real.filter(path -> path.startsWith(candidate)).isPresent());
        if (contains && (deepest == null || candidate.getNameCount() > deepest.getNameCount())) {
          deepest = candidate;
        }
      }
    }
    return Optional.ofNullable(deepest);
  }
}
