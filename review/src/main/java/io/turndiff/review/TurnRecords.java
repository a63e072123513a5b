package io.turndiff.review;

import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredToolCall;
import io.turndiff.store.StoredTurn;
import java.util.List;
import java.util.Optional;

/**
 * A turn with its file changes, as stored, how it stands to rewinds, the prompt that made it when
 * the store kept it, and its tool calls in the order it recorded them (the steps a rewind to before
 * a tool call goes back through).
 */
public record TurnRecords(
    StoredTurn turn,
    String workspaceRoot,
    List<StoredFileChange> changes,
    TurnRewinds rewinds,
    Optional<String> prompt,
    List<StoredToolCall> calls) {

  public TurnRecords {
    calls = List.copyOf(calls);
  }

  /** The prompt's {@link PromptTitle}, when the store kept the prompt. */
  public Optional<String> title() {
    return prompt.map(PromptTitle::of);
  }
}
