package io.turndiff.store;

import io.turndiff.model.WorkspacePath;
import java.util.List;
import java.util.Optional;

/**
 * A rewind operation as stored.
 *
 * @param scope {@code "turn"} (one turn) or {@code "to"} (the turn and every later one in its
 *     session)
 * @param done whether its receipt is final; an operation left applying was interrupted
 * @param turns the external ids of the turns it rewinds, newest first
 * @param paths the paths it was asked for, in path order: it rewinds only what the turns recorded
 *     at or under them; empty for a rewind of every path the turns recorded
 * @param beforeToolCall the tool call of its turn it rewinds to before (that call and every later
 *     call of the turn), for a rewind to before a step (issue 24)
 * @param hunk for a rewind of one hunk of its one path (issue 22), the hunk's number as the turn's
 *     diff of the path numbers it (from 1)
 */
public record StoredRewindOperation(
    long id,
    String externalId,
    long sessionId,
    String targetTurn,
    String scope,
    boolean force,
    boolean done,
    long rewindTurnId,
    String rewindTurn,
    List<String> turns,
    List<WorkspacePath> paths,
    Optional<String> beforeToolCall,
    Optional<Integer> hunk) {

  public StoredRewindOperation {
    turns = List.copyOf(turns);
    paths = List.copyOf(paths);
  }

  /** Whether it rewinds only some paths of its turns. */
  public boolean pathScoped() {
    return !paths.isEmpty();
  }

  /**
   * Whether it rewinds only some of its turns' changes: some paths (or one hunk of one), or the
   * changes from a tool call on. Such a rewind never marks a turn rewound, nor reads as a whole
   * rewind undone.
   */
  public boolean partial() {
    return pathScoped() || beforeToolCall.isPresent();
  }
}
