package io.turndiff.server;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.regex.Pattern;

/**
 * {@code Authorization: Bearer <token>} with this service's token: the scheme in any case (RFC
 * 7235), the token compared in constant time. Anything else is {@code 401}.
 */
final class BearerTokenGate implements Gate {

  /** Between the scheme and the token; compiled once, not per request as String.split would. */
  private static final Pattern BLANKS = Pattern.compile("[ \t]+");

  private final byte[] token;

  BearerTokenGate(byte[] token) {
    this.token = token.clone();
  }

  @Override
  public Verdict check(RequestView request, Passage passage) {
    String authorization = request.header("Authorization").orElse("");
    String[] parts = BLANKS.split(authorization.strip(), 2);
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
