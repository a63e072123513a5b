package io.turndiff.model;

import java.util.Arrays;

/** An agent's reply, or a rewind recorded as a turn of its own so that it can itself be rewound. */
public enum TurnKind {
  AGENT("agent"),
  REWIND("rewind");

  private final String code;

  TurnKind(String code) {
    this.code = code;
  }

  public String code() {
    return code;
  }

  public static TurnKind fromCode(String code) {
    return Arrays.stream(values())
        .filter(k -> k.code.equals(code))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown turn kind: " + code));
  }
}
