package io.turndiff.api.wire;

import io.turndiff.capture.TurnSummary;
import io.turndiff.model.ChangeKind;
import java.util.LinkedHashMap;
import java.util.Map;

/** A finished turn's summary; {@code changes} counts every change kind, zeros included. */
public record WireTurnSummary(
    String turn,
    String session,
    long seq,
    String state,
    int files,
    Map<String, Integer> changes,
    long linesAdded,
    long linesRemoved,
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
        summary.linesAdded(),
        summary.linesRemoved(),
        summary.notRestorable(),
        summary.detectedByScan());
  }
}
