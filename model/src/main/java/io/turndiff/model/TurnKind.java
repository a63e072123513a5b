package io.turndiff.model;

import java.util.Arrays;

/**
 * An agent's reply; a rewind recorded as a turn of its own so that it can itself be rewound; or the
 * changes a turn's begin found in a tracked workspace that no turn could have made (the user's own
 * edits between turns, a tool run with no hooks), recorded "outside any turn" just before it so
 * that the timeline is complete and a rewind's conflict can name them.
 */
public enum TurnKind {
  AGENT("agent"),
  REWIND("rewind"),
  OUTSIDE("outside");

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
