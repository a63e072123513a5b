package io.turndiff.capture;

import io.turndiff.model.ChangeKind;
import io.turndiff.model.TurnState;
import java.util.Map;

/**
 * A finished turn in numbers.
 *
 * @param diffsPending how many of the changes have their line diff and line counts computed after
 *     the finish returned (every change that is not {@code unchanged}): the summary has no line
 *     counts, the turn's records and listing have them
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
    int diffsPending,
    int notRestorable,
    int detectedByScan) {}
