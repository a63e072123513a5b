package io.turndiff.api;

import com.fasterxml.jackson.annotation.JsonProperty;

/** {@code POST /v1/login}: {@code {"code": CODE}}, the one-time code of a login URL. */
public record LoginRequest(@JsonProperty("code") String code) {

  public LoginRequest {
    if (code == null) {
      throw InvalidRequest.missing("code");
    }
  }
}
