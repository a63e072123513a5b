package io.turndiff.api.wire;

/**
 * One runtime in one directory as its hook calls showed it since the service started ({@code GET
 * /v1/service/status}, {@code sightings}; {@code hooks status}): the last call received ({@code
 * last_at}, {@code last_event}, in {@code session}), the last prompt's hooks ({@code prompt}), and
 * {@code warning} when a hook that should have come did not ({@code hooks may not be firing for R
 * since T: …}), null while every prompt arrives whole.
 */
public record WireHookSighting(
    String runtime,
    String directory,
    String lastAt,
    String lastEvent,
    String session,
    Prompt prompt,
    String warning) {

  /**
   * The last prompt: when its first call came ({@code at}), whether its begin arrived, how many of
   * its tool calls did, whether its end did (false while it runs).
   */
  public record Prompt(String at, boolean begin, long toolCalls, boolean end) {}
}
