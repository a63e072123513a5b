package io.turndiff.api.wire;

/** One file's diff in a turn: {@code GET /v1/turns/{turn}/file}. */
public record WireFileDiff(String turn, String path, String diff) {}
