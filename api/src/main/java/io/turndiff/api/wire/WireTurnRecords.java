package io.turndiff.api.wire;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.turndiff.review.TurnRecords;
import java.util.List;

/**
 * A turn with how it stands to rewinds, its workspace and its file records: {@code GET
 * /v1/turns/{turn}}.
 */
public record WireTurnRecords(
    @JsonUnwrapped WireTurn turn,
    @JsonUnwrapped WireTurnRewinds rewinds,
    String workspace,
    List<WireFileRecord> files) {

  public static WireTurnRecords of(TurnRecords records) {
    return new WireTurnRecords(
        WireTurn.of(records.turn()),
        WireTurnRewinds.of(records.rewinds()),
        records.workspaceRoot(),
        WireFileRecord.of(records.changes()));
  }
}
