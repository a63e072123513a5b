package io.turndiff.model;

import java.util.Arrays;

/**
 * Where one path of a rewind stands: planned, then journaled as started just before its write, then
 * restored, merged or skipped; or unchanged when the turn left it as it found it.
 */
public enum RewindStatus {
  PLANNED("planned"),
  STARTED("started"),
  RESTORED("restored"),
  MERGED("merged"),
  SKIPPED("skipped"),
  UNCHANGED("unchanged");

  private final String code;

  RewindStatus(String code) {
    this.code = code;
  }

  public String code() {
    return code;
  }

  public static RewindStatus fromCode(String code) {
    return Arrays.stream(values())
        .filter(s -> s.code.equals(code))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown rewind status: " + code));
  }
}
