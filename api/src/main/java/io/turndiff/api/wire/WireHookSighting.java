package io.turndiff.api.wire;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One runtime in one directory as its hook calls showed it ({@code GET /v1/service/status}, {@code
 * sightings}; {@code hooks status}), kept in the store across the service's restarts: the last call
 * received ({@code last_at}, {@code last_event}, in {@code session}), the runtime's version the
 * hook script reported ({@code runtime_version}, null when it could not tell), the last prompt's
 * hooks ({@code prompt}), and {@code warning} when a hook that should have come did not ({@code
 * hooks may not be firing for R since T: …}), null while every prompt arrives whole.
 */
public record WireHookSighting(
    String runtime,
    String directory,
    String lastAt,
    String lastEvent,
    String session,
    String runtimeVersion,
    Prompt prompt,
    String warning) {

  /**
   * The last prompt: when its first call came ({@code at}), whether its begin arrived, how many of
   * its tool calls did, whether its end did (false while it runs), and the turn it made ({@code
   * turn}, null when no call of it reached a turn). A turn the service finished because its runtime
   * was gone or its session ended before the turn's Stop (docs/runtime-hooks.md, "A turn whose
   * runtime is gone") has {@code finished_by} {@code service} and the {@code reason}, as the turn
   * itself has them ({@link WireTurn}); the prompt's end hook never arrived then, and every other
   * prompt has neither field.
   */
  public record Prompt(
      String at,
      boolean begin,
      long toolCalls,
      boolean end,
      String turn,
      @JsonInclude(JsonInclude.Include.NON_NULL) String finishedBy,
      @JsonInclude(JsonInclude.Include.NON_NULL) String reason) {}
}
