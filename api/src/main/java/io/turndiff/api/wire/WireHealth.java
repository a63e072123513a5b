package io.turndiff.api.wire;

/** {@code GET /v1/health}. */
public record WireHealth(boolean ok) {

  public static final WireHealth OK = new WireHealth(true);
}
