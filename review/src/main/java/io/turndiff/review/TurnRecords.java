package io.turndiff.review;

import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredTurn;
import java.util.List;
import java.util.Optional;

/**
 * A turn with its file changes, as stored, how it stands to rewinds, and the prompt that made it
 * when the store kept it.
 */
public record TurnRecords(
    StoredTurn turn,
    String workspaceRoot,
    List<StoredFileChange> changes,
    TurnRewinds rewinds,
    Optional<String> prompt) {

  /** The prompt's {@link PromptTitle}, when the store kept the prompt. */
  public Optional<String> title() {
    return prompt.map(PromptTitle::of);
  }
}
