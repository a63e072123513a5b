package io.turndiff.api.wire;

/** The line {@code turndiff service stop} prints; {@code pid} is null when nothing ran. */
public record WireServiceStopped(boolean running, boolean stopped, Long pid) {}
