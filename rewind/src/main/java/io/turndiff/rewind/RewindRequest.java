package io.turndiff.rewind;

import java.util.Optional;

/**
 * One request to put turns back.
 *
 * @param turn the turn to rewind; with {@code to}, it and every later turn of its session
 * @param operation the operation's id (generated when empty); the same id never writes twice
 * @param dryRun plan and report, write nothing
 * @param force overwrite files changed since the turn, or whose after-state was not captured, where
 *     the current state can itself be put back
 */
public record RewindRequest(
    String turn, boolean to, Optional<String> operation, boolean dryRun, boolean force) {

  public String scope() {
    return to ? "to" : "turn";
  }
}
