package io.turndiff.api.wire;

/**
 * The service's connections in {@code GET /v1/service/status}: its Unix domain socket (null when it
 * serves TCP only), the TCP connections that showed the token or the panel's cookie, those closed
 * without having shown one (at the deadline, or to make room for newer ones), and the socket's
 * connections closed because the peer was another user.
 */
public record WireServiceConnections(
    String socket, long authenticated, long unauthenticatedCut, long peerRefused) {}
