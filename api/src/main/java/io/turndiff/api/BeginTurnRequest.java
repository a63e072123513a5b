package io.turndiff.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Optional;

/** {@code POST /v1/turns}: {@code {"workspace": DIR, "session"?: ID, "turn"?: ID}}. */
public record BeginTurnRequest(
    @JsonProperty("workspace") String workspace,
    @JsonProperty("session") String session,
    @JsonProperty("turn") String turn) {

  public BeginTurnRequest {
    if (workspace == null) {
      throw InvalidRequest.missing("workspace");
    }
  }

  public Optional<String> sessionId() {
    return Optional.ofNullable(session);
  }

  public Optional<String> turnId() {
    return Optional.ofNullable(turn);
  }
}
