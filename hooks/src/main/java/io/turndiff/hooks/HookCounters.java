package io.turndiff.hooks;

import io.turndiff.api.wire.WireHookCounts;
import io.turndiff.api.wire.WireHookFailure;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the runtimes' hook calls did since the service started, for {@code service status}: calls by
 * runtime and outcome, and the last {@value #KEPT_FAILURES} failures (each also a line in the
 * service's log). In memory only.
 */
public final class HookCounters {

  static final int KEPT_FAILURES = 20;

  private static final List<String> OUTCOMES =
      List.of("begun", "snapshotted", "finished", "ignored", "duplicate", "noop", "failed", "late");

  private final Map<String, long[]> counts = new LinkedHashMap<>();
  private final Deque<WireHookFailure> failures = new ArrayDeque<>();

  HookCounters(List<String> runtimes) {
    runtimes.forEach(runtime -> counts.put(runtime, new long[OUTCOMES.size() + 2]));
  }

  /** A call that was a hook payload, and what it did. */
  synchronized void accepted(HookCall call, HookOutcome outcome) {
    long[] of = counts.get(call.runtime());
    of[0]++;
    for (String done : outcome.outcomes()) {
      int counted = OUTCOMES.indexOf(done);
      // a shell call's begin or end (call_began, call_ended) is counted as received only
      if (counted >= 0) {
        of[1 + counted]++;
      }
    }
    outcome
        .failure()
        .ifPresent(
            failure -> {
              failures.addLast(
                  new WireHookFailure(
                      Instant.now().toString(),
                      call.runtime(),
                      call.event(),
                      call.session(),
                      failure.code(),
                      failure.message()));
              if (failures.size() > KEPT_FAILURES) {
                failures.removeFirst();
              }
            });
  }

  /** A body that was not a hook payload ({@code 400}). */
  synchronized void refused(String runtime) {
    long[] of = counts.get(runtime);
    of[0]++;
    of[OUTCOMES.size() + 1]++;
  }

  /** The calls of each runtime by outcome. */
  public synchronized Map<String, WireHookCounts> counts() {
    Map<String, WireHookCounts> all = new LinkedHashMap<>();
    counts.forEach(
        (runtime, of) ->
            all.put(
                runtime,
                new WireHookCounts(
                    of[0], of[1], of[2], of[3], of[4], of[5], of[6], of[7], of[9], of[8])));
    return all;
  }

  /** The last failures, oldest first. */
  public synchronized List<WireHookFailure> lastFailures() {
    return new ArrayList<>(failures);
  }
}
