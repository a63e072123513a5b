package io.turndiff.api;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The identity proof of {@code GET /v1/health?challenge=NONCE} (docs/runtime-hooks.md): an
 * HMAC-SHA256 keyed by the token over the instance, the port and the client's nonce. Only a holder
 * of the token can compute it, so a client that checks it never sends the token to a port that is
 * not the service's; binding instance and port stops an impostor relaying the nonce to the real
 * service.
 */
public final class HealthProof {

  private static final Pattern NONCE = Pattern.compile("[0-9a-f]{32,128}");

  private HealthProof() {}

  /** Whether {@code nonce} is 32–128 lowercase hex characters. */
  public static boolean validNonce(String nonce) {
    return nonce != null && NONCE.matcher(nonce).matches();
  }

  /** The proof, lowercase hex. */
  public static String of(String token, String instance, int port, String nonce) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(token.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      String message = "turndiff-health-v1\n" + instance + "\n" + port + "\n" + nonce;
      return HexFormat.of().formatHex(mac.doFinal(message.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
    }
  }
}
