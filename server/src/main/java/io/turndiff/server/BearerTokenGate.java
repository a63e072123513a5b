package io.turndiff.server;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * {@code Authorization: Bearer <token>} with this service's token: the scheme in any case (RFC
 * 7235), the token compared in constant time. Anything else is {@code 401}.
 */
final class BearerTokenGate implements Gate {

  private final byte[] token;

  BearerTokenGate(byte[] token) {
    this.token = token.clone();
  }

  @Override
  public Verdict check(RequestView request, Passage passage) {
    String authorization = request.header("Authorization").orElse("");
    String[] parts = authorization.strip().split("[ \t]+", 2);
    if (parts.length != 2 || !parts[0].equalsIgnoreCase("Bearer")) {
      throw new ApiError(
          401, "unauthorized", "a bearer token is required (Authorization: Bearer <token>)");
    }
    byte[] given = parts[1].strip().getBytes(StandardCharsets.UTF_8);
    if (!MessageDigest.isEqual(given, token)) {
      throw new ApiError(401, "unauthorized", "the bearer token is not this service's token");
    }
    return new Verdict.Pass(passage.withCredential());
  }
}
