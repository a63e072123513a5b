package io.turndiff.hooks;

import io.turndiff.model.RuntimeProcess;
import java.util.Optional;

/**
 * What a hook client asked of the service beside the payload, passed on from {@code hooks install}
 * in the endpoint's query (docs/runtime-hooks.md, "The hook endpoints"), and what the hook script
 * told of the runtime that ran it.
 *
 * @param gitRoot {@code root=git} ({@code --git-root}): the turn's workspace is the git top level
 *     of the runtime's directory when it is in a repository
 * @param autoTrack {@code track=auto} ({@code --auto-track}, {@code --user} installs): a workspace
 *     not tracked yet is tracked before its first turn begins
 * @param runtime the runtime's process ({@code pid} and {@code pid_start}): the turn the call lands
 *     in is one whose runtime is gone once that process is ({@link GoneRuntimes}); empty when the
 *     script could not tell it (no {@code /proc}, a call taken late from the spool)
 * @param runtimeVersion the runtime's version ({@code runtime_version}), as the hook script found
 *     it in the runtime's own install (no runtime puts it in a hook payload); empty when it could
 *     not tell
 */
public record HookQuery(
    boolean gitRoot,
    boolean autoTrack,
    Optional<RuntimeProcess> runtime,
    Optional<String> runtimeVersion) {

  /** A query that names no runtime process. */
  public HookQuery(boolean gitRoot, boolean autoTrack) {
    this(gitRoot, autoTrack, Optional.empty(), Optional.empty());
  }

  /** A query that names the runtime's process, not its version. */
  public HookQuery(boolean gitRoot, boolean autoTrack, Optional<RuntimeProcess> runtime) {
    this(gitRoot, autoTrack, runtime, Optional.empty());
  }
}
