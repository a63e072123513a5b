package io.turndiff.server;

import io.turndiff.api.Json;
import io.turndiff.api.wire.WireError;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** A response: status, content type, body, and any headers of its own (a login's cookie). */
record ApiResponse(int status, String contentType, byte[] body, Map<String, String> headers) {

  static final String JSON = "application/json; charset=utf-8";

  ApiResponse(int status, String contentType, byte[] body) {
    this(status, contentType, body, Map.of());
  }

  static ApiResponse json(int status, Object node) {
    return new ApiResponse(status, JSON, Json.writeBytes(node));
  }

  static ApiResponse ok(Object node) {
    return json(200, node);
  }

  /** A patch, as git's text. */
  static ApiResponse patch(String text) {
    return new ApiResponse(
        200, "text/x-diff; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
  }

  static ApiResponse error(int status, String code, String message) {
    return json(status, new WireError(code, message));
  }

  /** This response with one more header. */
  ApiResponse withHeader(String name, String value) {
    Map<String, String> all = new LinkedHashMap<>(headers);
    all.put(name, value);
    return new ApiResponse(status, contentType, body, Map.copyOf(all));
  }
}
