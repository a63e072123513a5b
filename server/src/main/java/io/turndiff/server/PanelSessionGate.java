package io.turndiff.server;

/**
 * Every other request of the panel needs its login session: a cookie naming a live session ({@code
 * 401} without one, and no data) and that session's CSRF header ({@code 403 csrf} without it), as
 * {@link PanelLogin#authenticate} checks them. The session goes on in the passage, for the
 * endpoints that are the panel's only (the event stream, logout).
 */
final class PanelSessionGate implements Gate {

  private final PanelLogin login;

  PanelSessionGate(PanelLogin login) {
    this.login = login;
  }

  @Override
  public Verdict check(RequestView request, Passage passage) {
    PanelSessions.Session session =
        login.authenticate(
            request.header("Cookie").orElse(null),
            request.header(PanelLogin.CSRF_HEADER).orElse(null));
    return new Verdict.Pass(passage.withPanelSession(session));
  }
}
