package io.turndiff.api.wire;

/**
 * The line {@code turndiff service start} prints: the service it started or found, and the one it
 * replaced (null when it replaced none).
 */
public record WireServiceStarted(
    boolean running,
    boolean started,
    long pid,
    int port,
    String store,
    String discovery,
    WireReplacedService replaced) {}
