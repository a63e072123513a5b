package io.turndiff.api.wire;

/**
 * The collections a running service makes on its own, in {@code GET /v1/service/status}: how often
 * ({@code every_s}, 0 when never on a schedule), how often it looks at the store's size against the
 * kept {@code --max-size} ({@code size_check_s}), when the next scheduled one is due, and the last
 * one (null before the first).
 */
public record WireServiceGc(long everyS, long sizeCheckS, String nextAt, WireGcRun last) {}
