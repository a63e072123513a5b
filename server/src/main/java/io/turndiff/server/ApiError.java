package io.turndiff.server;

/**
 * A request the service answers with an error: an HTTP status and a stable code, and a message
 * naming the input.
 */
final class ApiError extends RuntimeException {

  private final int status;
  private final String code;

  ApiError(int status, String code, String message) {
    super(message);
    this.status = status;
    this.code = code;
  }

  int status() {
    return status;
  }

  String code() {
    return code;
  }
}
