package io.turndiff.api.wire;

import io.turndiff.capture.TurnSummary;
import io.turndiff.model.ChangeKind;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A finished turn's summary; {@code changes} counts every change kind, zeros included. The line
 * counts are {@code null}: a finish no longer waits for the line diffs, which are computed right
 * after it ({@code diffs_pending} of them); the turn's records and the turn listing give them.
 */
public record WireTurnSummary(
    String turn,
    String session,
    long seq,
    String state,
    int files,
    Map<String, Integer> changes,
    Long linesAdded,
    Long linesRemoved,
    int diffsPending,
    int notRestorable,
    int detectedByScan) {

  public static WireTurnSummary of(TurnSummary summary) {
    Map<String, Integer> changes = new LinkedHashMap<>();
    for (ChangeKind kind : ChangeKind.values()) {
      changes.put(kind.code(), summary.changes().getOrDefault(kind, 0));
    }
    return new WireTurnSummary(
        summary.turn(),
        summary.session(),
        summary.seq(),
        summary.state().code(),
        summary.files(),
        changes,
        null,
        null,
        summary.diffsPending(),
        summary.notRestorable(),
        summary.detectedByScan());
  }
}
