package io.turndiff.api.wire;

import java.util.List;
import java.util.Map;

/**
 * {@code GET /v1/service/status}: what the running service says about itself, with its hook calls
 * since it started ({@code hooks}, by runtime) and the last of them that failed.
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
    Map<String, WireHookCounts> hooks,
    List<WireHookFailure> lastFailures) {}
