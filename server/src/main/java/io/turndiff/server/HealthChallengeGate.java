package io.turndiff.server;

import io.turndiff.api.HealthProof;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Answers a daemon's identity challenge, {@code GET /v1/health?challenge=NONCE}, with its proof
 * ({@link HealthProof}): the one API request answered without the token, so that a client checks
 * whom it talks to before it sends the token. The nonce must be well formed and alone; an {@code
 * Origin}, if given, must be one allowed with {@code --allow-origin} (no CORS headers are sent). A
 * service that is not a daemon answers no challenge: every request passes on to need the token.
 */
final class HealthChallengeGate implements Gate {

  private final Set<String> allowedOrigins;
  private final Optional<Function<String, ApiResponse>> proof;

  /**
   * @param proof the proof's answer for a nonce; empty when the service answers no challenge
   */
  HealthChallengeGate(Set<String> allowedOrigins, Optional<Function<String, ApiResponse>> proof) {
    this.allowedOrigins = Set.copyOf(allowedOrigins);
    this.proof = proof;
  }

  @Override
  public Verdict check(RequestView request, Passage passage) {
    if (proof.isEmpty()
        || !request.method().equals("GET")
        || !request.rawPath().equals("/v1/health")) {
      return new Verdict.Pass(passage);
    }
    Map<String, List<String>> query = request.query();
    if (!query.containsKey("challenge")) {
      return new Verdict.Pass(passage);
    }
    List<String> nonces = query.get("challenge");
    if (query.size() > 1 || nonces.size() != 1 || !HealthProof.validNonce(nonces.getFirst())) {
      throw new ApiError(
          400,
          "bad_request",
          "challenge must be given once, alone, as 32 to 128 lowercase hex characters");
    }
    Optional<String> origin = request.header("Origin");
    if (origin.isPresent() && !allowedOrigins.contains(origin.get())) {
      throw new ApiError(403, "forbidden_origin", "Origin '" + origin.get() + "' is not allowed");
    }
    return new Verdict.Answer(proof.get().apply(nonces.getFirst()), passage);
  }
}
