package io.turndiff.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import io.turndiff.model.PathInput;
import io.turndiff.model.ToolName;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code POST /v1/turns/{turn}/snapshots}: {@code {"tool_call"?: ID, "tool"?: NAME, "paths":
 * [PATH…], "paths_base64"?: [B64…]}}; at least one path in either list. {@code tool} is the
 * runtime's name of the tool about to act ({@code Write}), which the turn's file records list. Each
 * path is decoded once, as the body is bound: {@code paths} as text, {@code paths_base64} as exact
 * bytes.
 */
public record SnapshotRequest(
    @JsonProperty("tool_call") String toolCall,
    @JsonProperty("tool") String tool,
    @JsonProperty("paths")
        @JsonSetter(contentNulls = Nulls.FAIL)
        @JsonDeserialize(contentUsing = PathFields.Text.class)
        List<PathInput> paths,
    @JsonProperty("paths_base64")
        @JsonSetter(contentNulls = Nulls.FAIL)
        @JsonDeserialize(contentUsing = PathFields.Base64.class)
        List<PathInput> pathsBase64) {

  public SnapshotRequest {
    paths = paths == null ? List.of() : List.copyOf(paths);
    pathsBase64 = pathsBase64 == null ? List.of() : List.copyOf(pathsBase64);
    if (tool != null && !ToolName.isValid(tool)) {
      throw new InvalidRequest(
          "field 'tool' must be 1-"
              + ToolName.MAX_LENGTH
              + " characters, none a control character");
    }
    if (paths.isEmpty() && pathsBase64.isEmpty()) {
      throw new InvalidRequest("field 'paths' (or 'paths_base64') must hold at least one path");
    }
  }

  public Optional<String> toolCallId() {
    return Optional.ofNullable(toolCall);
  }

  public Optional<String> toolName() {
    return Optional.ofNullable(tool);
  }

  /** Every path of the request: those of {@code paths}, then those of {@code paths_base64}. */
  public List<PathInput> inputs() {
    List<PathInput> inputs = new ArrayList<>(paths);
    inputs.addAll(pathsBase64);
    return List.copyOf(inputs);
  }
}
