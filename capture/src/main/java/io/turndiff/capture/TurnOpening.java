package io.turndiff.capture;

import io.turndiff.model.RuntimeProcess;
import java.util.Optional;

/**
 * What a runtime's prompt hook brings with the turn it begins: the prompt, and the runtime process
 * that runs the turn (which {@code turndiff} watches to finish a turn whose runtime is gone). The
 * begin keeps both in its own transaction, so a prompt is one commit, not three.
 *
 * @param prompt the prompt, kept as the turn's when the store keeps prompts ({@link
 *     io.turndiff.store.Prompts#kept}); otherwise dropped, never written anywhere
 */
public record TurnOpening(Optional<String> prompt, Optional<RuntimeProcess> runtime) {

  /** A turn begun with neither: a begin through the API or the CLI. */
  public static final TurnOpening NONE = new TurnOpening(Optional.empty(), Optional.empty());

  public TurnOpening {
    if (prompt == null || runtime == null) {
      throw new IllegalArgumentException("an opening's parts are optional, never null");
    }
  }
}
