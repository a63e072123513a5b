package io.turndiff.api.wire;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.turndiff.review.ReviewQueries;
import io.turndiff.review.TurnRecords;
import java.util.List;

/**
 * A turn with how it stands to rewinds, its workspace and its file records: {@code GET
 * /v1/turns/{turn}}. {@code prompt} is the prompt that made it and {@code title} that prompt's
 * first line, both null when the store kept no prompt for it. {@code calls}: the turn's tool calls
 * in the order it recorded them, the steps the panel offers "rewind to before this step" for
 * ({@code before_tool_call}).
 */
public record WireTurnRecords(
    @JsonUnwrapped WireTurn turn,
    @JsonUnwrapped WireTurnRewinds rewinds,
    String workspace,
    String title,
    String prompt,
    List<WireToolCall> calls,
    List<WireFileRecord> files) {

  /**
   * The view of turn {@code turn}, as {@code queries} read it: its records, its renames marked with
   * their own lines.
   */
  public static WireTurnRecords read(ReviewQueries queries, String turn) {
    TurnRecords records = queries.records(turn);
    return new WireTurnRecords(
        WireTurn.of(records.turn()),
        WireTurnRewinds.of(records.rewinds()),
        records.workspaceRoot(),
        records.title().orElse(null),
        records.prompt().orElse(null),
        WireToolCall.of(records.calls()),
        WireFileRecord.of(records, queries));
  }
}
