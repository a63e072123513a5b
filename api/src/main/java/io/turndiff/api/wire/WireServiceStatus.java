package io.turndiff.api.wire;

import java.util.List;
import java.util.Map;

/**
 * {@code GET /v1/service/status}: what the running service says about itself, with the collections
 * it makes on its own ({@code gc}), its hook calls since it started ({@code hooks}, by runtime) and
 * the last of them that failed, what its watcher of tracked workspaces did ({@code watch}), and
 * what the hook calls showed of each runtime per directory ({@code sightings}), and its socket and
 * connection counts ({@code connections}).
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
    WireServiceGc gc,
    Map<String, WireHookCounts> hooks,
    List<WireHookFailure> lastFailures,
    WireServiceWatch watch,
    List<WireHookSighting> sightings,
    WireServiceConnections connections) {}
