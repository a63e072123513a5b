package io.turndiff.server;

import java.io.IOException;

/**
 * Answers the panel's login, {@code POST /v1/login}, the one panel request that comes without a
 * session: its body (a JSON code, within the service's body limit) is exchanged for a session
 * cookie by {@link PanelLogin}. It passes the panel's origin checks first, and every other request
 * passes on to need a session.
 */
final class PanelLoginGate implements Gate {

  static final String LOGIN = "/v1/login";

  private final PanelLogin login;
  private final BodyLimit limit;

  PanelLoginGate(PanelLogin login, BodyLimit limit) {
    this.login = login;
    this.limit = limit;
  }

  @Override
  public Verdict check(RequestView request, Passage passage) throws IOException {
    if (!request.rawPath().equals(LOGIN)) {
      return new Verdict.Pass(passage);
    }
    if (!request.method().equals("POST")) {
      throw new ApiError(
          405, "method_not_allowed", request.method() + " is not allowed on " + LOGIN);
    }
    limit.requireDeclaredWithin(request.firstHeader("Content-Length"));
    String type = request.header("Content-Type").orElse(null);
    return new Verdict.Answer(login.login(type, request.body(limit)), passage);
  }
}
