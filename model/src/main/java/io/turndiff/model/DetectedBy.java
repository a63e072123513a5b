package io.turndiff.model;

import java.util.Arrays;

/**
 * How a file change came to be recorded: a tool call announced the path, or a scan found it
 * changed.
 */
public enum DetectedBy {
  SNAPSHOT("snapshot"),
  SCAN("scan");

  private final String code;

  DetectedBy(String code) {
    this.code = code;
  }

  public String code() {
    return code;
  }

  public static DetectedBy fromCode(String code) {
    return Arrays.stream(values())
        .filter(d -> d.code.equals(code))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown detection: " + code));
  }
}
