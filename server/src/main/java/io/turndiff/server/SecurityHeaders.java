package io.turndiff.server;

import java.util.Map;

/**
 * The headers on every response, static and API (docs/review-panel.md, section 3): a CSP that
 * allows no inline script or style, no {@code eval}, no framing, and HTML from strings only through
 * the panel's one Trusted Types policy; no sniffing; no referrer (the login code never leaves in a
 * {@code Referer}).
 */
final class SecurityHeaders {

  static final String CONTENT_SECURITY_POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self';"
          + " base-uri 'none'; form-action 'none'; frame-ancestors 'none';"
          + " require-trusted-types-for 'script'; trusted-types turndiff-diff2html";

  private SecurityHeaders() {}

  static void set(Map<String, String> headers) {
    headers.put("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    headers.put("X-Content-Type-Options", "nosniff");
    headers.put("Referrer-Policy", "no-referrer");
    headers.put("X-Frame-Options", "DENY");
    headers.put("Cross-Origin-Opener-Policy", "same-origin");
    headers.put("Cross-Origin-Resource-Policy", "same-origin");
    headers.put("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  }
}
