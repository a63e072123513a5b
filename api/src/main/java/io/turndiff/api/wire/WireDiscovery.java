package io.turndiff.api.wire;

/** The per-user service's discovery file, as its clients read it back. */
public record WireDiscovery(
    int format,
    String instance,
    long pid,
    Long procStartTicks,
    int port,
    String url,
    String store,
    String tokenFile,
    String headerFile,
    String logFile,
    String version,
    String program,
    String startedAt) {}
