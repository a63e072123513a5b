package io.turndiff.hooks.install;

import io.turndiff.boundary.GitTopLevel;
import io.turndiff.boundary.WorkspaceRoot;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether a runtime started in a directory runs the hooks of a workspace's settings, as each was
 * seen to do (integrations/claude-code-e2e, codex-e2e and gemini-e2e, their READMEs): a runtime
 * reads a project's settings at its project root, which Claude Code and Codex take to be the git
 * top level of the directory they start in, else that directory; Codex reads project config from
 * the start directory up to that root, Claude Code at the root only; Gemini CLI only in the start
 * directory. So in a workspace that is not the top level of a git repository, a start in one of its
 * subdirectories loads none of the workspace's hooks, and nothing says so (issue 21, item 4): this
 * is what {@code hooks install} and {@code hooks status} tell instead.
 *
 * <p>Names only: both directories are compared by their real paths (a runtime's working directory
 * is its real path) and the git top level is found by {@code lstat}s of {@code .git} names ({@link
 * GitTopLevel}); nothing is read.
 */
public final class HookLoading {

  private HookLoading() {}

  /**
   * Whether the runtime runs the workspace's hooks, and why, in words for the user; {@code atRoot}:
   * it starts in the workspace's root (else in a subdirectory).
   */
  public record Verdict(boolean loads, boolean atRoot, String why) {}

  /**
   * The verdict for {@code runtime} started in {@code start} on the hooks installed in {@code
   * workspace}'s settings; empty when {@code start} is not in the workspace (the runtime reads
   * another project's settings there), where the runtime's rule was not observed (OpenCode) or when
   * a directory cannot be resolved.
   */
  public static Optional<Verdict> of(HookRuntime runtime, Path workspace, Path start) {
    if (runtime == HookRuntime.OPENCODE) {
      return Optional.empty();
    }
    Optional<Path> root = WorkspaceRoot.real(workspace);
    Optional<Path> here = WorkspaceRoot.real(start);
    if (root.isEmpty() || here.isEmpty()) {
      return Optional.empty();
    }
    if (here.get().equals(root.get())) {
      return Optional.of(new Verdict(true, true, "started in the workspace's root"));
    }
    if (!here.get().startsWith(root.get())) {
      return Optional.empty();
    }
    return Optional.of(below(runtime, root.get(), GitTopLevel.of(here.get())));
  }

  /**
   * The verdict for a start in a subdirectory of {@code workspace} (one that is no repository of
   * its own); empty as for {@link #of}.
   */
  public static Optional<Verdict> inSubdirectories(HookRuntime runtime, Path workspace) {
    if (runtime == HookRuntime.OPENCODE) {
      return Optional.empty();
    }
    return WorkspaceRoot.real(workspace).map(root -> below(runtime, root, GitTopLevel.of(root)));
  }

  /** A start below {@code root} whose git top level is {@code topLevel}. */
  private static Verdict below(HookRuntime runtime, Path root, Optional<Path> topLevel) {
    if (runtime == HookRuntime.GEMINI) {
      return new Verdict(
          false, false, "Gemini CLI reads a project's settings only in the directory it starts in");
    }
    if (topLevel.isEmpty()) {
      return new Verdict(
          false,
          false,
          "the workspace is not in a git repository, so "
              + name(runtime)
              + " takes the directory it starts in for the project and reads its settings only"
              + " there");
    }
    Path top = topLevel.get();
    // Codex reads project config from the start directory up to the git top level (the workspace's
    // settings among them when the top level is the workspace or above it); Claude Code reads
    // them at the top level only
    boolean loads = runtime == HookRuntime.CODEX ? root.startsWith(top) : top.equals(root);
    return new Verdict(
        loads,
        false,
        name(runtime)
            + " takes the git top level "
            + top
            + " for the project"
            + (loads ? "" : " and reads no settings of the workspace's root from there"));
  }

  private static String name(HookRuntime runtime) {
    return switch (runtime) {
      case CLAUDE_CODE -> "Claude Code";
      case CODEX -> "Codex";
      case GEMINI -> "Gemini CLI";
      case OPENCODE -> "OpenCode";
    };
  }

  /** What works instead, for the user to type. */
  public static String instead(HookRuntime runtime, Path workspace) {
    return "start "
        + runtime.id()
        + " in "
        + workspace
        + ", or install for the user (its hooks run in every directory, and a turn started in a"
        + " subdirectory of a tracked workspace is that workspace's): turndiff hooks install"
        + " --runtime "
        + runtime.id()
        + " --user";
  }
}
