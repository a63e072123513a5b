package io.turndiff.capture;

import io.turndiff.model.ChangeKind;
import io.turndiff.model.TurnState;
import java.util.Map;

/**
 * A finished turn in numbers.
 *
 * @param detectedByScan how many of the files were found changed by the tracked workspace's scan,
 *     not announced by a snapshot call
 */
public record TurnSummary(
    String turn,
    String session,
    long seq,
    TurnState state,
    int files,
    Map<ChangeKind, Integer> changes,
    long linesAdded,
    long linesRemoved,
    int notRestorable,
    int detectedByScan) {}
