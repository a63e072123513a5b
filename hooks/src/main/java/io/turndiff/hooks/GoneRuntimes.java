package io.turndiff.hooks;

import io.turndiff.api.Turndiff;
import io.turndiff.model.RuntimeProcess;
import io.turndiff.model.TurnEnding;
import io.turndiff.ownfiles.Proc;
import io.turndiff.store.StoredTurn;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds the open hooked turns whose runtime is gone and finishes them (issue 21 item 0;
 * docs/runtime-hooks.md, "A turn whose runtime is gone"): a runtime killed mid-turn, or one that
 * crashed, never sends the Stop that finishes its turn, and an open turn would stay open forever,
 * its changes never diffed and every later change in its workspace credited to it.
 *
 * <p>A turn is taken for one whose runtime is gone when both hold: the process its hook calls came
 * from (pid, start time and boot, {@link RuntimeProcess}) no longer runs, and no hook call of its
 * session came for {@link #GRACE}. The process alone is not enough: the hook script names the
 * runtime as the nearest ancestor that is not a shell, and a runtime whose hooks run through a
 * wrapper that exits may look gone while it works; a hook call proves it is not. A turn no call
 * named a process for (begun by a command, taken late from the spool, sent by an older hook script)
 * is never taken, nor is any turn where {@code /proc} cannot be read: nothing tells there whether a
 * process runs.
 *
 * <p>Each such turn is finished as its Stop would have finished it — the scan of its workspace
 * through the boundary records what the runtime did before it died — and marked {@link
 * TurnEnding#RUNTIME_GONE}, so that the user sees it was finished by turndiff, not by its runtime.
 * Turns a previous service left open are found the same way: their last call is measured from this
 * service's start.
 */
public final class GoneRuntimes {

  /**
   * How long a session whose process is gone must have been silent before its turn is finished.
   * Hook calls of one prompt come seconds apart at most, and a call the hook script kept in its
   * spool while the service was starting is taken within the spool's look (2 s); 30 s covers both
   * with room, and a turn finished 30 s after its runtime died is still at the top of the user's
   * list.
   */
  public static final Duration GRACE = Duration.ofSeconds(30);

  private final Turndiff turndiff;
  private final HookTurns turns;
  private final Duration grace;
  private final Instant startedAt;

  GoneRuntimes(Turndiff turndiff, HookTurns turns, Duration grace) {
    if (grace.isNegative()) {
      throw new IllegalArgumentException("a grace is not negative, not " + grace);
    }
    this.turndiff = turndiff;
    this.turns = turns;
    this.grace = grace;
    this.startedAt = turndiff.store().clock().instant();
  }

  /**
   * Finishes every open hooked turn whose runtime is gone now.
   *
   * @return the ids of the turns finished, oldest first
   */
  public List<String> finishTurnsOfGoneRuntimes() {
    if (!Proc.mounted()) {
      return List.of();
    }
    List<String> finished = new ArrayList<>();
    for (StoredTurn open : turndiff.store().readWithoutFolding(tx -> tx.turns().open())) {
      if (open.runtime().isEmpty() || isRunning(open.runtime().get())) {
        continue;
      }
      if (turns.finishUnattended(
          open.sessionExternalId(), open.externalId(), TurnEnding.RUNTIME_GONE, this::silent)) {
        finished.add(open.externalId());
      }
    }
    return finished;
  }

  /** Whether {@code runtime} is the process that runs as its pid now, in this boot. */
  static boolean isRunning(RuntimeProcess runtime) {
    return runtime.isRunning(Proc.startTicks(runtime.pid()), Proc.bootId());
  }

  /**
   * Whether a session whose last call in this service came at {@code lastCall} (empty: none since
   * the service started) has been silent for the grace.
   */
  private boolean silent(Optional<Instant> lastCall) {
    Instant since = lastCall.orElse(startedAt);
    return !turndiff.store().clock().instant().isBefore(since.plus(grace));
  }
}
