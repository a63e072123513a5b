package io.turndiff.api.wire;

/** One file's diff over a stretch of turns: {@code GET /v1/range/file}. */
public record WireRangeFileDiff(String from, String to, String path, String diff) {}
