package io.turndiff.api.wire;

import io.turndiff.capture.track.WatchStatus;
import java.util.Map;

/**
 * The watcher of tracked workspaces in {@code GET /v1/service/status}: the workspaces and
 * directories it watches, the scans that looked only at what changed and those that walked the
 * whole tree (by why, in {@code fallbacks}), the kernel queue overflows, and the checks of a
 * watched scan against a full one with the names still awaiting their event ({@code
 * awaitingEvents}: a disagreement if it does not come within 5 seconds) and the disagreements they
 * found (the last one described, null when none), and the checks that failed before they could
 * compare ({@code failedChecks}, the last one's reason in {@code lastFailedCheck}, null when none).
 */
public record WireServiceWatch(
    boolean enabled,
    int workspaces,
    int directories,
    long watchedScans,
    long fullScans,
    Map<String, Long> fallbacks,
    long overflows,
    long checks,
    long awaitingEvents,
    long disagreements,
    String lastDisagreement,
    long failedChecks,
    String lastFailedCheck) {

  public static WireServiceWatch of(WatchStatus status) {
    return new WireServiceWatch(
        status.enabled(),
        status.workspaces(),
        status.directories(),
        status.watchedScans(),
        status.fullScans(),
        status.fallbacks(),
        status.overflows(),
        status.checks(),
        status.awaitingEvents(),
        status.disagreements(),
        status.lastDisagreement().orElse(null),
        status.failedChecks(),
        status.lastFailedCheck().orElse(null));
  }
}
