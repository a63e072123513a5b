package io.turndiff.model;

import java.util.Arrays;

/**
 * Why a turn was finished otherwise than by its own end (its runtime's {@code Stop}, the next
 * prompt, a {@code finish} command): the service finished it because its runtime was gone, so that
 * no turn stays open forever. Shown wherever the turn is ({@code "finished_by":"service"} and the
 * {@link #reason()}), since a turn finished so may miss what the runtime did after its last hook.
 */
public enum TurnEnding {
  /** The runtime's session ended (its {@code SessionEnd} hook) while the turn was open. */
  SESSION_ENDED("session_ended", "session ended", "the session ended before the turn's Stop hook"),
  /**
   * The runtime's process was gone and no hook call of its session came for a while: it exited, or
   * was killed, without its {@code Stop} hook.
   */
  RUNTIME_GONE("runtime_gone", "runtime gone", "the runtime exited without its Stop hook");

  private final String code;
  private final String reason;
  private final String explanation;

  TurnEnding(String code, String reason, String explanation) {
    this.code = code;
    this.reason = reason;
    this.explanation = explanation;
  }

  /** The store's and the wire's name. */
  public String code() {
    return code;
  }

  /** A few words for a list: {@code runtime gone}. */
  public String reason() {
    return reason;
  }

  /** A sentence for a turn's page: what happened to the runtime. */
  public String explanation() {
    return explanation;
  }

  /**
   * What the last prompt of a runtime, its turn ended so, says of the runtime's hooks ({@code hooks
   * status}, {@code doctor}): the prompt's end hook never arrived. A runtime killed mid-turn looks
   * the same from here as one whose end hook does not fire, hence "may".
   */
  public String seenFromTheHooks() {
    return "finished by turndiff ("
        + explanation
        + "): hooks may not be firing at the end of a turn";
  }

  /**
   * The ending whose {@link #reason()} is {@code reason} ({@code runtime gone}), as the wire has
   * it.
   */
  public static TurnEnding fromReason(String reason) {
    return Arrays.stream(values())
        .filter(ending -> ending.reason.equals(reason))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown turn ending reason: " + reason));
  }

  public static TurnEnding fromCode(String code) {
    return Arrays.stream(values())
        .filter(ending -> ending.code.equals(code))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown turn ending: " + code));
  }
}
