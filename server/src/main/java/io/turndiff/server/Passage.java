package io.turndiff.server;

import java.util.Optional;

/**
 * What the {@linkplain SecurityGates gates} have found out about a request so far, handed from each
 * gate to the next and, once all have passed it, to the endpoint: the origin the response's CORS
 * headers allow (a bearer call from an {@code --allow-origin} origin), the panel's login session (a
 * call with its cookie), whether it proved itself otherwise (the token, the socket's peer), and the
 * most the body may hold.
 *
 * <p>It starts with nothing allowed: no CORS, no session, and no body at all until {@link
 * BodyLimitGate} sets the limit, so a gate left out of the row fails closed.
 */
record Passage(
    Optional<String> corsOrigin,
    Optional<PanelSessions.Session> panelSession,
    boolean credential,
    BodyLimit bodyLimit) {

  static final Passage START =
      new Passage(Optional.empty(), Optional.empty(), false, new BodyLimit(0));

  Passage withCorsOrigin(String origin) {
    return new Passage(Optional.of(origin), panelSession, credential, bodyLimit);
  }

  Passage withPanelSession(PanelSessions.Session session) {
    return new Passage(corsOrigin, Optional.of(session), credential, bodyLimit);
  }

  /**
   * The caller proved who it is without the panel's cookie: the bearer token ({@link
   * BearerTokenGate}), or the Unix socket's peer credentials ({@link SecurityGates#socket}).
   */
  Passage withCredential() {
    return new Passage(corsOrigin, panelSession, true, bodyLimit);
  }

  Passage withBodyLimit(BodyLimit limit) {
    return new Passage(corsOrigin, panelSession, credential, limit);
  }

  /**
   * The caller showed a credential: the token or the panel's session cookie. Its connection is then
   * no longer a stranger's ({@link ConnectionGuard}).
   */
  boolean credentialed() {
    return credential || panelSession.isPresent();
  }
}
