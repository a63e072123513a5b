package io.turndiff.api.wire;

/**
 * {@code turndiff service status --json}, {@code served_by}: the process that serves the store when
 * the per-user service does not (a {@code turndiff serve}, one {@code turndiff open} started), as
 * its record beside the store names it ({@code <store>.service.json}). {@code problem} is null when
 * its port proved it holds the token the record names; else why it is not trusted (it holds the
 * store's lock and does not prove itself: hung, or stopping).
 */
public record WireServedBy(
    long pid, int port, String url, String version, String startedAt, String log, String problem) {}
