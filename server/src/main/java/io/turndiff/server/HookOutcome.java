package io.turndiff.server;

import java.util.List;
import java.util.Optional;

/**
 * What one accepted hook payload did, in order ({@code begun}, {@code snapshotted}, {@code
 * finished}, {@code ignored}, {@code noop}, {@code duplicate}, {@code failed}), the turndiff turn
 * it acted on, and why it failed when it did. The runtime gets {@code 204} and no body whatever
 * happened (a 2xx with a JSON body would be read as a decision by Claude Code); the outcome goes in
 * headers, for tests and logs.
 */
record HookOutcome(List<String> outcomes, Optional<String> turn, Optional<Failure> failure) {

  /** Why the work failed: the error code ({@code Turndiff-Hook-Error}) and the message (logged). */
  record Failure(String code, String message) {}

  static final String OUTCOME_HEADER = "Turndiff-Hook-Outcome";
  static final String TURN_HEADER = "Turndiff-Hook-Turn";
  static final String ERROR_HEADER = "Turndiff-Hook-Error";

  HookOutcome {
    outcomes = List.copyOf(outcomes);
    if (outcomes.isEmpty()) {
      throw new IllegalArgumentException("a hook payload always has an outcome");
    }
    if (failure.isPresent() != outcomes.contains("failed")) {
      throw new IllegalArgumentException("an error code goes with a failure, and only with one");
    }
  }

  static HookOutcome only(String outcome) {
    return new HookOutcome(List.of(outcome), Optional.empty(), Optional.empty());
  }

  ApiResponse response() {
    ApiResponse response =
        new ApiResponse(204, "text/plain; charset=utf-8", new byte[0])
            .withHeader(OUTCOME_HEADER, String.join(",", outcomes));
    if (turn.isPresent()) {
      response = response.withHeader(TURN_HEADER, turn.get());
    }
    if (failure.isPresent()) {
      response = response.withHeader(ERROR_HEADER, failure.get().code());
    }
    return response;
  }
}
