package io.turndiff.model;

import java.util.Arrays;

/**
 * Which tool calls a recorded change was made during (issue 27: the shell call in flight owns what
 * the watcher saw while it ran): one fact per file change, the record a rewind to before a tool
 * call builds on.
 */
public enum MadeDuring {
  /** A tool call named the path (its snapshot): that call made it. */
  NAMED("named"),
  /**
   * A scan found it, made while these shell calls were in flight: one, or several overlapping in
   * time ("during calls A and B"); the change records list them.
   */
  CALLS("calls"),
  /**
   * A scan found it, made while no tool call of any open turn was in flight: the user's (an
   * editor's save during a turn), which a turn's rewind does not revert without saying so.
   */
  OUTSIDE("outside"),
  /**
   * A scan found it and which calls were in flight is not known: without the watcher a scan's
   * interval spans tool calls, and the change is the turn's with no call rather than a guess.
   */
  UNKNOWN("unknown");

  private final String code;

  MadeDuring(String code) {
    this.code = code;
  }

  public String code() {
    return code;
  }

  public static MadeDuring fromCode(String code) {
    return Arrays.stream(values())
        .filter(during -> during.code.equals(code))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown made_during: " + code));
  }
}
