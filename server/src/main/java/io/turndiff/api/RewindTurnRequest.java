package io.turndiff.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Optional;

/**
 * {@code POST /v1/rewind}: {@code {"turn": ID, "to"?: bool, "operation"?: ID, "dry_run"?: bool,
 * "force"?: bool}}. A misspelt flag ({@code "dryrun"}) or a null one ({@code "dry_run": null}) is
 * refused, never read as absent: that would make a dry run real.
 */
public record RewindTurnRequest(
    @JsonProperty("turn") String turn,
    @JsonProperty("to") Boolean to,
    @JsonProperty("operation") String operation,
    @JsonProperty("dry_run") Boolean dryRun,
    @JsonProperty("force") Boolean force) {

  public RewindTurnRequest {
    if (turn == null) {
      throw InvalidRequest.missing("turn");
    }
    to = Boolean.TRUE.equals(to);
    dryRun = Boolean.TRUE.equals(dryRun);
    force = Boolean.TRUE.equals(force);
  }

  public Optional<String> operationId() {
    return Optional.ofNullable(operation);
  }
}
