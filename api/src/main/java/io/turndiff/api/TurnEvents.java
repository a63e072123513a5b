package io.turndiff.api;

import io.turndiff.capture.BeganTurn;
import io.turndiff.capture.SnapshotVerdict;
import io.turndiff.capture.TurnSummary;
import io.turndiff.capture.track.TrackSummary;
import java.util.List;

/**
 * Told what the service did to a turn, after its transaction committed, whichever endpoint did it
 * (the turn API or a runtime's hook): the review panel's live updates; and of a workspace it
 * tracked, by its endpoint or for a hook ({@code track=auto}).
 */
public interface TurnEvents {

  void began(BeganTurn began);

  void snapshotted(String turn, List<SnapshotVerdict> verdicts);

  void finished(String turn, TurnSummary finished);

  /**
   * A workspace was tracked, its index written whole ({@code summary}); the service gives back the
   * heap a large one took.
   */
  default void tracked(TrackSummary summary) {}
}
