package io.turndiff.review;

import io.turndiff.store.StoredTurn;
import java.util.Optional;

/**
 * A turn as a blame names it: its row (id, session, number, kind, state, times), and what the store
 * knows of how it began. The store keeps neither the prompt nor the runtime yet, so both are empty
 * today; they are fields here so that a stored prompt title or runtime drops in without changing a
 * caller or the JSON's shape.
 *
 * @param prompt the title of the prompt that began the turn, when one is stored
 * @param runtime the agent runtime that ran the turn ({@code claude-code}, {@code codex}, ...),
 *     when stored
 */
public record BlamedTurn(StoredTurn turn, Optional<String> prompt, Optional<String> runtime) {

  /** A turn with what the store keeps of it today: no prompt, no runtime. */
  static BlamedTurn of(StoredTurn turn) {
    return new BlamedTurn(turn, Optional.empty(), Optional.empty());
  }
}
