package io.turndiff.hooks.install;

import io.turndiff.boundary.WorkspaceRoot;
import java.nio.file.Path;
import java.util.List;

/**
 * The names Codex gives one {@code hooks.json} in the keys of its trust entries, the one it uses
 * when it runs in the workspace first.
 *
 * <p>Codex keys a handler's trust by the path of the hooks file it read the handler from, spelled
 * as Codex itself reached the file, and skips every handler whose key has no entry. Codex 0.171.0,
 * asked with {@code codex app-server}'s {@code hooks/list} and seen running (or not) a hook under
 * each key: the user's file is {@code $CODEX_HOME/hooks.json} with {@code CODEX_HOME} made
 * canonical (every symlink resolved) when it is set, and {@code $HOME/.codex/hooks.json} as {@code
 * HOME} spells it (nothing resolved) when it is not; a project's file is {@code
 * <directory>/.codex/hooks.json} for the directory Codex works in, which is its working directory —
 * the real path, since the kernel gives a process its working directory with every link resolved —
 * unless {@code codex -C DIR} names it, and then {@code DIR} as given. So a workspace reached
 * through a symlinked parent has two names, and install trusts the hooks under both.
 *
 * @param names the names, the one Codex started in the directory (or the user's) uses first
 */
record CodexHookNames(List<Path> names) {

  static final String FILE = "hooks.json";

  CodexHookNames {
    names = List.copyOf(names);
    if (names.isEmpty()) {
      throw new IllegalArgumentException("a hooks file has a name");
    }
  }

  /** The user's {@code hooks.json}. */
  static CodexHookNames user(UserDirectories user) {
    Path home = user.codexHome();
    return new CodexHookNames(
        List.of(
            (user.codexHomeIsSet() ? ConfigFiles.realPath(home).orElse(home) : home)
                .resolve(FILE)));
  }

  /**
   * A workspace's {@code .codex/hooks.json}: under the workspace's real path (the directories above
   * it resolved as the kernel resolves them: nothing in the workspace is opened), and under the
   * name given when it differs.
   */
  static CodexHookNames workspace(Path workspace) {
    Path real = WorkspaceRoot.real(workspace).orElse(workspace);
    Path inReal = real.resolve(".codex").resolve(FILE);
    Path inGiven = workspace.resolve(".codex").resolve(FILE);
    return new CodexHookNames(inReal.equals(inGiven) ? List.of(inReal) : List.of(inReal, inGiven));
  }

  /** The name Codex uses when it runs in the workspace (or, for the user's file, always). */
  Path started() {
    return names.getFirst();
  }

  /** The directory a project's name belongs to: the one Codex must trust as a project. */
  static Path project(Path name) {
    return name.getParent().getParent();
  }
}
