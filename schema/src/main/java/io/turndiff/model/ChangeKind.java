package io.turndiff.model;

import java.util.Arrays;

/** What a turn did to a path, from its before- and after-snapshot. */
public enum ChangeKind {
  ADDED("added"),
  MODIFIED("modified"),
  DELETED("deleted"),
  UNCHANGED("unchanged"),
  TYPE_CHANGED("type_changed");

  private final String code;

  ChangeKind(String code) {
    this.code = code;
  }

  public String code() {
    return code;
  }

  public static ChangeKind fromCode(String code) {
    return Arrays.stream(values()).filter(k -> k.code.equals(code)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown change: " + code));
  }

  /**
   * Classifies a change. A path whose existence was not known on either side counts as modified when its
   * fingerprint moved: its state is unknown, never assumed absent.
   */
  public static ChangeKind between(Snapshot before, Snapshot after) {
    if (before.sameStateAs(after)) {
      return UNCHANGED;
    }
    if (before.presence() == Presence.ABSENT && after.presence() == Presence.PRESENT) {
      return ADDED;
    }
    if (before.presence() == Presence.PRESENT && after.presence() == Presence.ABSENT) {
      return DELETED;
    }
    if (before.presence() == Presence.PRESENT && after.presence() == Presence.PRESENT
        && !before.type().equals(after.type())) {
      return TYPE_CHANGED;
    }
    return MODIFIED;
  }
}
