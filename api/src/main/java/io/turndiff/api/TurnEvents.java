package io.turndiff.api;

import io.turndiff.capture.BeganTurn;
import io.turndiff.capture.SnapshotVerdict;
import io.turndiff.capture.TurnSummary;
import java.util.List;

/**
 * Told what the service did to a turn, after its transaction committed, whichever endpoint did it
 * (the turn API or a runtime's hook): the review panel's live updates.
 */
public interface TurnEvents {

  void began(BeganTurn began);

  void snapshotted(String turn, List<SnapshotVerdict> verdicts);

  void finished(String turn, TurnSummary finished);
}
