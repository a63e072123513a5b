package io.turndiff.server;

import java.util.Optional;
import java.util.Set;

/**
 * CORS for the bearer-token API: a browser page may call it only from an origin given with {@code
 * --allow-origin} (none by default). A request from another origin is refused; one from an allowed
 * origin gets the CORS headers on its answer, whatever it is, and its preflight ({@code OPTIONS})
 * is answered here. A request with no {@code Origin} (a runtime, curl) passes as it is.
 */
final class CorsGate implements Gate {

  private final Set<String> allowedOrigins;

  CorsGate(Set<String> allowedOrigins) {
    this.allowedOrigins = Set.copyOf(allowedOrigins);
  }

  @Override
  public Verdict check(RequestView request, Passage passage) {
    Optional<String> origin = request.header("Origin");
    if (origin.isEmpty()) {
      return new Verdict.Pass(passage);
    }
    if (!allowedOrigins.contains(origin.get())) {
      throw new ApiError(403, "forbidden_origin", "Origin '" + origin.get() + "' is not allowed");
    }
    Passage withCors = passage.withCorsOrigin(origin.get());
    if (request.method().equals("OPTIONS")) {
      return new Verdict.Answer(new ApiResponse(204, "text/plain", new byte[0]), withCors);
    }
    return new Verdict.Pass(withCors);
  }
}
