package io.turndiff.rewind;

import io.turndiff.model.PathInput;
import java.util.List;
import java.util.Optional;

/**
 * One request to put turns back.
 *
 * @param turn the turn to rewind; with {@code to}, it and every later turn of its session
 * @param operation the operation's id (generated when empty); the same id never writes twice
 * @param dryRun plan and report, write nothing
 * @param force overwrite files changed since the turn, or whose after-state was not captured, where
 *     the current state can itself be put back
 * @param paths the paths to rewind, as given (relative to the workspace): only what the turns
 *     recorded at or under them is put back; empty for every path the turns recorded
 */
public record RewindRequest(
    String turn,
    boolean to,
    Optional<String> operation,
    boolean dryRun,
    boolean force,
    List<PathInput> paths,
    Optional<String> beforeToolCall,
    Optional<Integer> hunk) {

  public RewindRequest {
    paths = List.copyOf(paths);
  }

  /** A rewind of whole turns, of some paths, or to before a tool call of the turn. */
  public RewindRequest(
      String turn,
      boolean to,
      Optional<String> operation,
      boolean dryRun,
      boolean force,
      List<PathInput> paths,
      Optional<String> beforeToolCall) {
    this(turn, to, operation, dryRun, force, paths, beforeToolCall, Optional.empty());
  }

  /** A rewind of hunk {@code number} of {@code path} alone. */
  public static RewindRequest ofHunk(
      String turn, Optional<String> operation, boolean dryRun, PathInput path, int number) {
    return new RewindRequest(
        turn,
        false,
        operation,
        dryRun,
        false,
        List.of(path),
        Optional.empty(),
        Optional.of(number));
  }

  /** A rewind of whole turns, of the paths given. */
  public RewindRequest(
      String turn,
      boolean to,
      Optional<String> operation,
      boolean dryRun,
      boolean force,
      List<PathInput> paths) {
    this(turn, to, operation, dryRun, force, paths, Optional.empty());
  }

  /** A rewind of every path the turns recorded. */
  public RewindRequest(
      String turn, boolean to, Optional<String> operation, boolean dryRun, boolean force) {
    this(turn, to, operation, dryRun, force, List.of());
  }

  public String scope() {
    return to ? "to" : "turn";
  }
}
