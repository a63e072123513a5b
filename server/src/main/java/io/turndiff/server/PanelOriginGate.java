package io.turndiff.server;

import java.util.Optional;

/**
 * The panel's requests may come from its own origin only (the service's address, by any of its
 * loopback names): an {@code Origin} of any other, the {@code --allow-origin} ones included (those
 * are for bearer calls), is refused, and no CORS headers are ever sent to the panel's callers.
 */
final class PanelOriginGate implements Gate {

  private final PanelLogin login;

  PanelOriginGate(PanelLogin login) {
    this.login = login;
  }

  @Override
  public Verdict check(RequestView request, Passage passage) {
    Optional<String> origin = request.header("Origin");
    if (origin.isPresent() && !login.ownOrigin(origin.get())) {
      throw new ApiError(
          403, "forbidden_origin", "Origin '" + origin.get() + "' is not this service's own");
    }
    return new Verdict.Pass(passage);
  }
}
