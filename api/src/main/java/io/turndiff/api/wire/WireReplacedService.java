package io.turndiff.api.wire;

/**
 * The service {@code turndiff service start} stopped because it ran another turndiff (another
 * version, or another installation's jar), before it started its own.
 */
public record WireReplacedService(long pid, String version, String program) {}
