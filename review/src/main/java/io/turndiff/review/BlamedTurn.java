package io.turndiff.review;

import io.turndiff.store.StoredTurn;
import java.util.Optional;

/**
 * A turn as a blame names it: its row (id, session, number, kind, state, times), and what the store
 * knows of how it began: the title of its prompt when the store kept it (V17). The store does not
 * keep the runtime yet, so it is empty today; it is a field here so that a stored runtime drops in
 * without changing a caller or the JSON's shape.
 *
 * @param prompt the {@link PromptTitle} of the prompt that began the turn, when one is stored
 * @param runtime the agent runtime that ran the turn ({@code claude-code}, {@code codex}, ...),
 *     when stored
 */
public record BlamedTurn(StoredTurn turn, Optional<String> prompt, Optional<String> runtime) {

  /** A turn with what the store keeps of it today: its prompt's title, no runtime. */
  static BlamedTurn of(StoredTurn turn, Optional<String> prompt) {
    return new BlamedTurn(turn, prompt.map(PromptTitle::of), Optional.empty());
  }
}
