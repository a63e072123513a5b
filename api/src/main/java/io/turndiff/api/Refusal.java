package io.turndiff.api;

import io.turndiff.model.RequestException;

/**
 * The HTTP status and stable error code of a request the library refused: what the HTTP service
 * answers, and the error code a hook's outcome names.
 */
public record Refusal(int status, String code) {

  public static Refusal of(RequestException.Problem problem) {
    return switch (problem) {
      case BAD_INPUT -> new Refusal(400, "bad_input");
      case UNKNOWN_TURN -> new Refusal(404, "unknown_turn");
      case UNKNOWN_SESSION -> new Refusal(404, "unknown_session");
      case WRONG_STATE -> new Refusal(409, "wrong_state");
      case ALREADY_EXISTS -> new Refusal(409, "already_exists");
      case WORKSPACE -> new Refusal(422, "workspace");
      case FORBIDDEN -> new Refusal(403, "forbidden_workspace");
    };
  }
}
