package io.turndiff.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Optional;

/**
 * {@code POST /v1/workspaces/track}: {@code {"workspace": DIR, "max_files"?: N, "max_bytes"?: N}}.
 */
public record TrackRequest(
    @JsonProperty("workspace") String workspace,
    @JsonProperty("max_files") Long maxFiles,
    @JsonProperty("max_bytes") Long maxBytes) {

  public TrackRequest {
    if (workspace == null) {
      throw InvalidRequest.missing("workspace");
    }
    requirePositive("max_files", maxFiles);
    requirePositive("max_bytes", maxBytes);
  }

  private static void requirePositive(String field, Long value) {
    if (value != null && value < 1) {
      throw new InvalidRequest("field '" + field + "' must be at least 1, not " + value);
    }
  }

  public Optional<Long> maxFilesGiven() {
    return Optional.ofNullable(maxFiles);
  }

  public Optional<Long> maxBytesGiven() {
    return Optional.ofNullable(maxBytes);
  }
}
