package io.turndiff.api.wire;

import java.util.List;

/**
 * {@code GET /v1/service/status}: what the running service says about itself, with the collections
 * it makes on its own ({@code gc}).
 */
public record WireServiceStatus(
    boolean running,
    long pid,
    int port,
    String instance,
    String version,
    String startedAt,
    long uptimeS,
    String store,
    List<WireOpenTurn> openTurns,
    WireServiceGc gc) {}
