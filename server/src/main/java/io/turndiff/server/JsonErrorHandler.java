package io.turndiff.server;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's own refusals — a request line it cannot parse, headers over the limit, a URI too long —
 * answered in the service's error shape ({@code {"error": code, "message": text}}, the security
 * headers, no caching) instead of Jetty's HTML page, so that a client meets one error format
 * whichever layer refused it. Jetty writes a refusal from its parser ({@link #badMessageError})
 * before any handler runs, and one from its own request handling through {@link #generateResponse}.
 */
final class JsonErrorHandler extends ErrorHandler {

  @Override
  public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
    ApiResponse answer = answer(status, reason);
    headers(status).forEach(fields::put);
    return ByteBuffer.wrap(answer.body());
  }

  @Override
  protected void generateResponse(
      Request request,
      Response response,
      int status,
      String message,
      Throwable cause,
      Callback callback) {
    ApiResponse answer = answer(status, message);
    headers(status).forEach(response.getHeaders()::put);
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, answer.body().length);
    response.write(true, ByteBuffer.wrap(answer.body()), callback);
  }

  private static Map<String, String> headers(int status) {
    return ResponseHeaders.of(ApiResponse.JSON, status, Optional.empty());
  }

  /** The refusal as the service words it: a code a client can switch on, Jetty's reason as text. */
  private static ApiResponse answer(int status, String reason) {
    String code =
        switch (status) {
          case 400 -> "bad_request";
          case 404 -> "not_found";
          case 405 -> "method_not_allowed";
          case 408 -> "request_timeout";
          case 413 -> "too_large";
          case 414 -> "uri_too_long";
          case 431 -> "headers_too_large";
          case 501 -> "not_implemented";
          case 505 -> "http_version";
          default -> status >= 500 ? "internal" : "refused";
        };
    String text = reason == null || reason.isBlank() ? "the request was refused" : reason;
    return ApiResponse.error(status, code, "HTTP " + status + ": " + text);
  }
}
