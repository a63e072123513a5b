package io.turndiff.server;

import java.io.IOException;
import java.util.Map;
import java.util.Optional;

/**
 * Sends a response's status line and headers before its body is ready, so that a long request can
 * tell the client something at once: a rewind names its operation ({@code Turndiff-Operation})
 * before its first write, and its report follows as the body when it is done. Once the headers are
 * sent the status is fixed; a failure after that is an error object in the body.
 */
final class EarlyHeaders {

  private final Exchange exchange;
  private final Optional<String> corsOrigin;
  private boolean sent;

  EarlyHeaders(Exchange exchange, Optional<String> corsOrigin) {
    this.exchange = exchange;
    this.corsOrigin = corsOrigin;
  }

  /** Sends {@code 200}, a JSON content type and {@code extra} now; the body follows (chunked). */
  void send(Map<String, String> extra) {
    Map<String, String> headers = ResponseHeaders.of(ApiResponse.JSON, 200, corsOrigin);
    headers.putAll(extra);
    try {
      exchange.sendHeaders(200, headers);
    } catch (IOException clientGone) {
      // the request goes on as it would had the client waited: what it asked for is carried out
    } finally {
      sent = true;
    }
  }

  boolean sent() {
    return sent;
  }
}
