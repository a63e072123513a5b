package io.turndiff.hooks;

import io.turndiff.api.TurnEvents;
import io.turndiff.api.Turndiff;
import io.turndiff.capture.track.TrackingOptions;
import java.nio.file.Path;

/**
 * {@code track=auto} ({@code hooks install --user}): a turn's workspace that is not tracked yet is
 * tracked, as {@code turndiff track} does with its default budgets (a tree over them is tracked
 * partially), before the turn begins, so that the turn's finish scan records what shell commands
 * change. The first prompt in a new workspace waits for its index. One workspace is tracked at a
 * time, so that two sessions starting in the same new workspace index it once. The workspace policy
 * applies as to any workspace: {@code /}, a pseudo file system and a directory outside the
 * service's allowed ones are refused before anything is indexed.
 */
final class AutoTracking {

  private final Turndiff turndiff;
  private final TurnEvents events;

  /**
   * @param events told of the track ({@link TurnEvents#tracked})
   */
  AutoTracking(Turndiff turndiff, TurnEvents events) {
    this.turndiff = turndiff;
    this.events = events;
  }

  synchronized void trackUnlessTracked(Path workspace) {
    // by the directory, not the text of its name: a workspace tracked as /work/app and named
    // /home/me/app through a symlink was tracked again, with its budgets reset to the defaults
    if (!turndiff.isTracked(workspace)) {
      events.tracked(turndiff.track(workspace, TrackingOptions.DEFAULTS));
    }
  }
}
