package io.turndiff.model;

/**
 * Whether a path existed when it was snapshotted. {@link #UNKNOWN} when the boundary could not
 * tell: a read error is never taken for an absence, since a rewind would then delete the file.
 */
public enum Presence {
  PRESENT,
  ABSENT,
  UNKNOWN;

  /** The stored form: true, false, or null when unknown. */
  public Boolean toNullableBoolean() {
    return switch (this) {
      case PRESENT -> Boolean.TRUE;
      case ABSENT -> Boolean.FALSE;
      case UNKNOWN -> null;
    };
  }

  public static Presence fromNullableBoolean(Boolean stored) {
    return stored == null ? UNKNOWN : stored ? PRESENT : ABSENT;
  }
}
