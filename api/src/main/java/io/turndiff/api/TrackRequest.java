package io.turndiff.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.turndiff.capture.track.IgnoredFiles;
import io.turndiff.capture.track.TrackingOptions;
import java.util.Optional;

/**
 * {@code POST /v1/workspaces/track}: {@code {"workspace": DIR, "max_files"?: N, "max_bytes"?: N,
 * "ignored_files"?: "none"|"metadata"|"small", "ignored_max_bytes"?: N}}, as {@code turndiff track}
 * takes them; an ignored-files field left out keeps what the workspace kept.
 */
public record TrackRequest(
    @JsonProperty("workspace") String workspace,
    @JsonProperty("max_files") Long maxFiles,
    @JsonProperty("max_bytes") Long maxBytes,
    @JsonProperty("ignored_files") String ignoredFiles,
    @JsonProperty("ignored_max_bytes") Long ignoredMaxBytes) {

  public TrackRequest {
    if (workspace == null) {
      throw InvalidRequest.missing("workspace");
    }
    requirePositive("max_files", maxFiles);
    requirePositive("max_bytes", maxBytes);
    if (ignoredMaxBytes != null && ignoredMaxBytes < 0) {
      throw new InvalidRequest(
          "field 'ignored_max_bytes' must be at least 0, not " + ignoredMaxBytes);
    }
    ignoredFilesGiven();
  }

  /** The request's budgets and what it asks of ignored files, as the tracker takes them. */
  public TrackingOptions options() {
    TrackingOptions options =
        new TrackingOptions(
            Optional.ofNullable(maxFiles).orElse(TrackingOptions.DEFAULTS.maxFiles()),
            Optional.ofNullable(maxBytes).orElse(TrackingOptions.DEFAULTS.maxBytes()));
    if (ignoredFilesGiven().isPresent()) {
      options = options.withIgnoredFiles(ignoredFilesGiven().get());
    }
    return ignoredMaxBytes == null ? options : options.withIgnoredMaxBytes(ignoredMaxBytes);
  }

  private Optional<IgnoredFiles> ignoredFilesGiven() {
    if (ignoredFiles == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(IgnoredFiles.fromCode(ignoredFiles));
    } catch (IllegalArgumentException e) {
      throw new InvalidRequest("field 'ignored_files': " + e.getMessage());
    }
  }

  private static void requirePositive(String field, Long value) {
    if (value != null && value < 1) {
      throw new InvalidRequest("field '" + field + "' must be at least 1, not " + value);
    }
  }
}
