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
    String cookie = request.header("Cookie").orElse(null);
    if (imageOfThePage(request)) {
      return new Verdict.Pass(passage.withPanelSession(login.session(cookie)));
    }
    PanelSessions.Session session =
        login.authenticate(cookie, request.header(PanelLogin.CSRF_HEADER).orElse(null));
    return new Verdict.Pass(passage.withPanelSession(session));
  }

  /**
   * A stored image the panel's page shows through {@code <img>} ({@link StoredImageEndpoint}): a
   * browser sends the cookie with it but no header of the page's choosing, so it cannot carry the
   * CSRF value. The cookie alone serves it, and only when the browser itself said the request is
   * the page's own or the user's ({@code Sec-Fetch-Site} {@code same-origin} or {@code none}:
   * {@link FetchSiteGate} has refused every other value). What the CSRF value guards against is
   * another site's page acting or reading with the session: this request acts on nothing, the
   * cookie is {@code SameSite=Strict}, and the answer's {@code Cross-Origin-Resource-Policy:
   * same-origin} keeps it from any other origin's page. A request without {@code Sec-Fetch-Site}
   * (not a browser, or an old one) still needs the header.
   */
  private static boolean imageOfThePage(RequestView request) {
    return StoredImageEndpoint.reads(request) && request.header("Sec-Fetch-Site").isPresent();
  }
}
