package io.turndiff.api.wire;

/**
 * What {@code turndiff open} prints: the login URL (its code good once, until {@code expires_at}),
 * the service, and whether this command started it ({@code pid} and {@code log} then, else null).
 */
public record WireOpened(
    String url, String expiresAt, String service, boolean started, Long pid, String log) {}
