package io.turndiff.hooks;

/**
 * What a hook client asked of the service beside the payload, passed on from {@code hooks install}
 * in the endpoint's query (docs/runtime-hooks.md, "The hook endpoints"): they matter only when a
 * turn begins.
 *
 * @param gitRoot {@code root=git} ({@code --git-root}): the turn's workspace is the git top level
 *     of the runtime's directory when it is in a repository
 * @param autoTrack {@code track=auto} ({@code --auto-track}, {@code --user} installs): a workspace
 *     not tracked yet is tracked before its first turn begins
 */
public record HookQuery(boolean gitRoot, boolean autoTrack) {}
