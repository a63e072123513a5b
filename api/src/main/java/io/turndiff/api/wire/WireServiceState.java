package io.turndiff.api.wire;

import java.util.List;

/**
 * {@code turndiff service status --json}: whether it runs, where it is found, what the running
 * service said about itself ({@code service}, null when none runs), why a discovery file was not
 * trusted ({@code problem}), the hook clients' last failed deliveries, and how many hook calls wait
 * in the hook script's spool for the service to take them ({@code hook_calls_kept}: kept while no
 * service ran); when the per-user service does not run, what else serves the store ({@code
 * served_by}: a {@code turndiff serve}, null when nothing does).
 */
public record WireServiceState(
    boolean running,
    String store,
    String discovery,
    String log,
    String problem,
    WireServiceStatus service,
    List<String> hookFailures,
    int hookCallsKept,
    WireServedBy servedBy) {}
