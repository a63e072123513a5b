package io.turndiff.capture;

import io.turndiff.model.RuntimeProcess;
import java.util.Objects;
import java.util.Optional;

/**
 * What a runtime's prompt hook brings with the turn it begins: the prompt, and the runtime process
 * that runs the turn. The begin keeps both in its own transaction, so that a prompt is one commit,
 * not three, and a turn is never left open without the process the look for gone runtimes needs to
 * finish it.
 *
 * @param prompt the prompt, kept as the turn's when the store keeps prompts ({@link
 *     io.turndiff.store.Prompts#kept}); otherwise dropped, never written anywhere
 * @param runtime the runtime process the hook script named, kept with the turn
 */
public record TurnOpening(Optional<String> prompt, Optional<RuntimeProcess> runtime) {

  /** A turn begun with neither: a begin through the API or the CLI. */
  public static final TurnOpening NONE = new TurnOpening(Optional.empty(), Optional.empty());

  public TurnOpening {
    Objects.requireNonNull(prompt, "prompt");
    Objects.requireNonNull(runtime, "runtime");
  }

  /** Without the prompt's text, which is the user's and stays out of any log. */
  @Override
  public String toString() {
    return "TurnOpening[prompt="
        + prompt.map(text -> text.length() + " characters").orElse("none")
        + ", runtime="
        + runtime.map(RuntimeProcess::toString).orElse("none")
        + "]";
  }
}
