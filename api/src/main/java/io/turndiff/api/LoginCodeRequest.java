package io.turndiff.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Optional;

/**
 * {@code POST /v1/login-codes} (bearer token only): {@code {"workspace"?: DIR}}; with a workspace,
 * the login URL opens the panel on it.
 */
public record LoginCodeRequest(@JsonProperty("workspace") String workspace) {

  public Optional<String> workspaceGiven() {
    return Optional.ofNullable(workspace);
  }
}
