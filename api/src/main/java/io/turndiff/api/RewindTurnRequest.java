package io.turndiff.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import io.turndiff.model.PathInput;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code POST /v1/rewind}: {@code {"turn": ID, "to"?: bool, "operation"?: ID, "dry_run"?: bool,
 * "force"?: bool, "paths"?: [PATH…], "paths_base64"?: [B64…], "before_tool_call"?: ID, "hunk"?:
 * N}}; with {@code before_tool_call}, the state before that tool call of the turn goes back (that
 * call and every later one of the turn are rewound); with {@code hunk}, only hunk {@code N} (from
 * 1, as the turn's diff numbers them) of the one path given is reversed onto the file as it is now.
 * A misspelt flag ({@code "dryrun"}) or a null one ({@code "dry_run": null}) is refused, never read
 * as absent: that would make a dry run real. So is an empty or a null list of paths, which would
 * rewind every path. Each path is decoded once, as the body is bound: {@code paths} as text, {@code
 * paths_base64} as exact bytes.
 */
public record RewindTurnRequest(
    @JsonProperty("turn") String turn,
    @JsonProperty("to") Boolean to,
    @JsonProperty("operation") String operation,
    @JsonProperty("dry_run") Boolean dryRun,
    @JsonProperty("force") Boolean force,
    @JsonProperty("paths") @JsonDeserialize(using = PathFields.TextList.class)
        List<PathInput> paths,
    @JsonProperty("paths_base64") @JsonDeserialize(using = PathFields.Base64List.class)
        List<PathInput> pathsBase64,
    @JsonProperty("before_tool_call") String beforeToolCall,
    @JsonProperty("hunk") Integer hunk) {

  public RewindTurnRequest {
    if (turn == null) {
      throw InvalidRequest.missing("turn");
    }
    to = Boolean.TRUE.equals(to);
    dryRun = Boolean.TRUE.equals(dryRun);
    force = Boolean.TRUE.equals(force);
    if ((paths != null && paths.isEmpty()) || (pathsBase64 != null && pathsBase64.isEmpty())) {
      throw new InvalidRequest(
          "field 'paths' (or 'paths_base64'), when given, must hold at least one path;"
              + " leave it out to rewind every path of the turn");
    }
    paths = paths == null ? List.of() : List.copyOf(paths);
    pathsBase64 = pathsBase64 == null ? List.of() : List.copyOf(pathsBase64);
  }

  /** The tool call to rewind to before, when asked for. */
  public Optional<String> beforeToolCallId() {
    return Optional.ofNullable(beforeToolCall);
  }

  /** The one hunk to rewind, when asked for. */
  public Optional<Integer> hunkNumber() {
    return Optional.ofNullable(hunk);
  }

  public Optional<String> operationId() {
    return Optional.ofNullable(operation);
  }

  /**
   * The paths to rewind: those of {@code paths}, then those of {@code paths_base64}; empty for
   * every path.
   */
  public List<PathInput> inputs() {
    List<PathInput> inputs = new ArrayList<>(paths);
    inputs.addAll(pathsBase64);
    return List.copyOf(inputs);
  }
}
