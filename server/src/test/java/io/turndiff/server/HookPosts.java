package io.turndiff.server;

import io.turndiff.api.Json;
import io.turndiff.fixtures.RawHttp;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A runtime's hook calls as the hook script sends them, over a raw loopback connection to a real
 * {@link HttpService}: for the tests that post bodies of their own making.
 */
final class HookPosts {

  private final int port;
  private final String token;
  private final Duration within;

  HookPosts(int port, String token, Duration within) {
    this.port = port;
    this.token = token;
    this.within = within;
  }

  /** Posts {@code body} to {@code /v1/hooks/<runtime>} and returns the answer. */
  RawHttp.Response post(String runtime, byte[] body) {
    byte[] head =
        ("POST /v1/hooks/"
                + runtime
                + " HTTP/1.1\r\nHost: 127.0.0.1:"
                + port
                + "\r\nContent-Type: application/json\r\nAuthorization: Bearer "
                + token
                + "\r\nContent-Length: "
                + body.length
                + "\r\nConnection: close\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    return RawHttp.exchange(port, head, body, within);
  }

  /** The value of the answer's header {@code name}, or null. */
  static String header(RawHttp.Response answer, String name) {
    Matcher matcher =
        Pattern.compile("(?im)^" + Pattern.quote(name) + ":\\s*(.*?)\\s*$").matcher(answer.head());
    return matcher.find() ? matcher.group(1) : null;
  }

  /** {@code text} as a JSON string, quotes and escapes included. */
  static String quoted(String text) {
    return Json.write(Json.mapper().getNodeFactory().textNode(text), false);
  }
}
