package io.turndiff.server;

import java.util.Optional;

/**
 * What the {@linkplain SecurityGates gates} have found out about a request so far, handed from each
 * gate to the next and, once all have passed it, to the endpoint: the origin the response's CORS
 * headers allow (a bearer call from an {@code --allow-origin} origin), the panel's login session (a
 * call with its cookie), and the most the body may hold.
 *
 * <p>It starts with nothing allowed: no CORS, no session, and no body at all until {@link
 * BodyLimitGate} sets the limit, so a gate left out of the row fails closed.
 */
record Passage(
    Optional<String> corsOrigin,
    Optional<PanelSessions.Session> panelSession,
    BodyLimit bodyLimit) {

  static final Passage START = new Passage(Optional.empty(), Optional.empty(), new BodyLimit(0));

  Passage withCorsOrigin(String origin) {
    return new Passage(Optional.of(origin), panelSession, bodyLimit);
  }

  Passage withPanelSession(PanelSessions.Session session) {
    return new Passage(corsOrigin, Optional.of(session), bodyLimit);
  }

  Passage withBodyLimit(BodyLimit limit) {
    return new Passage(corsOrigin, panelSession, limit);
  }
}
