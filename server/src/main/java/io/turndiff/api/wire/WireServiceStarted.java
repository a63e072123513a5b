package io.turndiff.api.wire;

/** The line {@code turndiff service start} prints: the service it started or found. */
public record WireServiceStarted(
    boolean running, boolean started, long pid, int port, String store, String discovery) {}
