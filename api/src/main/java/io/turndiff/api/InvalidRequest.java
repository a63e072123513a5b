package io.turndiff.api;

/** A request body or query that does not fit its endpoint's shape; the message names the field. */
public final class InvalidRequest extends RuntimeException {

  public InvalidRequest(String message) {
    super(message);
  }

  /** A field that was required and is missing (or {@code null}). */
  static InvalidRequest missing(String field) {
    return new InvalidRequest("field '" + field + "' is required");
  }
}
