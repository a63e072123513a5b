package io.turndiff.api.wire;

/**
 * The service's connections in {@code GET /v1/service/status}: its Unix domain socket (null when it
 * serves TCP only), the TCP connections that showed the token or the panel's cookie, those closed
 * without having shown one (at the deadline, or to make room for newer ones), the socket's
 * connections closed because the peer was another user, and the TCP connections open now and the
 * most open at once since the start (never more than the service's connection limit).
 */
public record WireServiceConnections(
    String socket,
    long authenticated,
    long unauthenticatedCut,
    long peerRefused,
    int tcpOpen,
    int tcpMostOpen) {}
