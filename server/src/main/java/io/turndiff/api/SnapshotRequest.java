package io.turndiff.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import java.util.List;
import java.util.Optional;

/**
 * {@code POST /v1/turns/{turn}/snapshots}: {@code {"tool_call"?: ID, "paths": [PATH…], "paths_base64"?: [B64…]}};
 * at least one path in either list.
 */
public record SnapshotRequest(
    @JsonProperty("tool_call") String toolCall,
    @JsonProperty("paths") @JsonSetter(contentNulls = Nulls.FAIL) List<String> paths,
    @JsonProperty("paths_base64") @JsonSetter(contentNulls = Nulls.FAIL) List<String> pathsBase64) {

  public SnapshotRequest {
    paths = paths == null ? List.of() : List.copyOf(paths);
    pathsBase64 = pathsBase64 == null ? List.of() : List.copyOf(pathsBase64);
    if (paths.isEmpty() && pathsBase64.isEmpty()) {
      throw new InvalidRequest("field 'paths' (or 'paths_base64') must hold at least one path");
    }
  }

  public Optional<String> toolCallId() {
    return Optional.ofNullable(toolCall);
  }
}
