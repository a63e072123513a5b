package io.turndiff.hooks;

import io.turndiff.api.TurnEvents;
import io.turndiff.capture.BeganTurn;
import io.turndiff.capture.SnapshotVerdict;
import io.turndiff.capture.TurnSummary;
import java.util.List;

/**
 * For tests that do not look at the panel's live updates: told everything, keeps nothing (a test
 * that looks at one kind of event overrides it).
 */
class NoTurnEvents implements TurnEvents {
  @Override
  public void began(BeganTurn began) {}

  @Override
  public void snapshotted(String turn, List<SnapshotVerdict> verdicts) {}

  @Override
  public void finished(String turn, TurnSummary finished) {}
}
