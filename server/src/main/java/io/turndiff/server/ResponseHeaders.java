package io.turndiff.server;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The headers the service puts on every response it makes, API and static, before the response's
 * own: its content type, no caching, the {@linkplain SecurityHeaders security headers}, the bearer
 * challenge on a {@code 401}, and the CORS headers when the request came from an allowed origin.
 */
final class ResponseHeaders {

  private ResponseHeaders() {}

  static Map<String, String> of(String contentType, int status, Optional<String> corsOrigin) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Content-Type", contentType);
    headers.put("Cache-Control", "no-store");
    SecurityHeaders.set(headers);
    if (status == 401) {
      headers.put("WWW-Authenticate", "Bearer");
    }
    corsOrigin.ifPresent(
        origin -> {
          headers.put("Access-Control-Allow-Origin", origin);
          headers.put("Vary", "Origin");
          headers.put("Access-Control-Allow-Headers", "Authorization, Content-Type");
          headers.put("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
          headers.put("Access-Control-Expose-Headers", "Turndiff-Operation, Turndiff-Resumed");
        });
    return headers;
  }
}
