package io.turndiff.hooks;

import java.util.List;
import java.util.Optional;

/**
 * What one accepted hook payload did, in order ({@code begun}, {@code snapshotted}, {@code
 * finished}, {@code ignored}, {@code noop}, {@code duplicate}, {@code failed}), the turndiff turn
 * it acted on, why it failed when it did, and, for a prompt's begin, the note for the model's
 * context when there is something to say ({@link PromptNote}). The runtime gets {@code 204} and no
 * body otherwise (a 2xx with a JSON body would be read as a decision by Claude Code); the HTTP
 * service puts the outcome in headers, for tests and logs.
 */
public record HookOutcome(
    List<String> outcomes,
    Optional<String> turn,
    Optional<Failure> failure,
    Optional<String> note) {

  /** Why the work failed: the error code ({@code Turndiff-Hook-Error}) and the message (logged). */
  public record Failure(String code, String message) {}

  public HookOutcome {
    outcomes = List.copyOf(outcomes);
    if (outcomes.isEmpty()) {
      throw new IllegalArgumentException("a hook payload always has an outcome");
    }
    if (failure.isPresent() != outcomes.contains("failed")) {
      throw new IllegalArgumentException("an error code goes with a failure, and only with one");
    }
  }

  /** An outcome with nothing to tell the agent. */
  public HookOutcome(List<String> outcomes, Optional<String> turn, Optional<Failure> failure) {
    this(outcomes, turn, failure, Optional.empty());
  }

  static HookOutcome only(String outcome) {
    return new HookOutcome(List.of(outcome), Optional.empty(), Optional.empty());
  }

  /** This outcome with the line for the model's context a prompt hook answers with. */
  HookOutcome withNote(Optional<String> line) {
    return new HookOutcome(outcomes, turn, failure, line);
  }
}
