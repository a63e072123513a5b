package io.turndiff.api.wire;

/**
 * One runtime's hook calls since the service started, by outcome ({@code GET /v1/service/status},
 * {@code hooks}): {@code received} counts every call, {@code refused} the bodies that were not hook
 * payloads ({@code 400}); a call with several outcomes ({@code begun,snapshotted}) counts in each.
 * {@code late} counts the calls the hook script kept in its spool while the service was not running
 * and the service took when it was up (each also counts in what it did).
 */
public record WireHookCounts(
    long received,
    long begun,
    long snapshotted,
    long finished,
    long ignored,
    long duplicate,
    long noop,
    long failed,
    long refused,
    long late) {}
