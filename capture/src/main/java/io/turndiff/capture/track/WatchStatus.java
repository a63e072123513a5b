package io.turndiff.capture.track;

import java.util.Map;
import java.util.Optional;

/**
 * What the watcher of tracked workspaces did since this process started: how many workspaces and
 * directories it watches, how many scans looked only at what changed ({@code watchedScans}) and how
 * many walked the whole tree ({@code fullScans}, each counted by why in {@code fallbacks}), the
 * kernel queue overflows, and the checks against a full scan with the disagreements they found.
 *
 * @param awaitingEvents the names checks found changed that no event has explained yet, fewer than
 *     5 seconds ago: each becomes a disagreement if its event does not come by then (the kernel
 *     queues a write's event after the write is visible, and a write through a shared mapping's
 *     only when its descriptor is closed)
 * @param failedChecks the checks made after a hook's scan, off its path, that failed before they
 *     could compare (an error reading the tree or the store): each found nothing, and the next
 *     check due is made as usual; {@code lastFailedCheck} says why the last one failed. A check is
 *     counted in {@code checks} as its whole walk begins, so a failed one is there too when it
 *     failed in that walk, and not when it failed before it
 */
public record WatchStatus(
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
    Optional<String> lastDisagreement,
    long failedChecks,
    Optional<String> lastFailedCheck) {}
