package io.turndiff.server;

import io.turndiff.store.Store;
import io.turndiff.store.StoredWorkspace;
import java.nio.file.Path;
import java.util.List;

/**
 * The workspace a hook's turn begins in, from the directory the runtime reported: the deepest
 * tracked workspace whose root (as given, or its real path) contains it — Codex reports a tool's
 * working directory, a subdirectory of the workspace {@code hooks install} tracked — else the
 * directory itself. Names only: nothing is looked up on disk (the turn's begin opens the root
 * through the boundary).
 */
final class HookWorkspaces {

  private final Store store;

  HookWorkspaces(Store store) {
    this.store = store;
  }

  Path of(String cwd) {
    Path directory = Path.of(cwd).normalize();
    List<StoredWorkspace> tracked = store.read(tx -> tx.workspaces().tracked());
    Path deepest = null;
    for (StoredWorkspace workspace : tracked) {
      for (String root : List.of(workspace.rootGiven(), workspace.rootReal())) {
        Path candidate = Path.of(root);
        if (directory.startsWith(candidate)
            && (deepest == null || candidate.getNameCount() > deepest.getNameCount())) {
          deepest = candidate;
        }
      }
    }
    return deepest == null ? directory : deepest;
  }
}
