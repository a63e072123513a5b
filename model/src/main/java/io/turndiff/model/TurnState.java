package io.turndiff.model;

import java.util.Arrays;

/** A turn is open until it is finished; a finished turn that was put back is rewound. */
public enum TurnState {
  OPEN("open"),
  FINISHED("finished"),
  REWOUND("rewound");

  private final String code;

  TurnState(String code) {
    this.code = code;
  }

  public String code() {
    return code;
  }

  public static TurnState fromCode(String code) {
    return Arrays.stream(values())
        .filter(s -> s.code.equals(code))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown turn state: " + code));
  }
}
