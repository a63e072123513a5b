package io.turndiff.server;

/**
 * Sets the most a request's body may hold, by its route, and refuses one declared larger before a
 * byte of it is read: the service's limit ({@link ServiceOptions#maxBodyBytes()}), and for the hook
 * endpoints, which take a runtime's payload that may hold a whole file, the hooks' limit when that
 * is more. It runs after the credential gates: no body is read for a caller not yet known.
 */
final class BodyLimitGate implements Gate {

  private static final String HOOKS = "/v1/hooks/";

  private final BodyLimit limit;
  private final BodyLimit hookLimit;

  BodyLimitGate(int maxBodyBytes, int hookBodyBytes) {
    this.limit = new BodyLimit(maxBodyBytes);
    this.hookLimit = new BodyLimit(Math.max(maxBodyBytes, hookBodyBytes));
  }

  @Override
  public Verdict check(RequestView request, Passage passage) {
    BodyLimit route = request.rawPath().startsWith(HOOKS) ? hookLimit : limit;
    route.requireDeclaredWithin(request.firstHeader("Content-Length"));
    return new Verdict.Pass(passage.withBodyLimit(route));
  }
}
