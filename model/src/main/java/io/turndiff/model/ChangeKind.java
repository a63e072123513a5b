package io.turndiff.model;

import java.util.Arrays;
import java.util.Optional;

/** What a turn did to a path, from its before- and after-snapshot. */
public enum ChangeKind {
  ADDED("added"),
  MODIFIED("modified"),
  DELETED("deleted"),
  UNCHANGED("unchanged"),
  TYPE_CHANGED("type_changed"),
  /**
   * A side was not captured and nothing known proves a change; always so for a path that leads
   * outside.
   */
  UNKNOWN("unknown"),
  /**
   * A path that held nothing became a directory (a snapshot named it): no file changed, and the
   * directory is the directories' to remove in a rewind.
   */
  DIRECTORY_CREATED("directory_created"),
  /** A directory a snapshot named is gone, and nothing is at its path: the reverse. */
  DIRECTORY_REMOVED("directory_removed");

  private final String code;

  ChangeKind(String code) {
    this.code = code;
  }

  public String code() {
    return code;
  }

  public static ChangeKind fromCode(String code) {
    return Arrays.stream(values())
        .filter(k -> k.code.equals(code))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown change: " + code));
  }

  /**
   * Classifies a change. A state that was not captured equals nothing, so a side that was not
   * captured makes the change {@link #UNKNOWN} unless what is known proves what happened (a file
   * that appeared, vanished, changed type, mode, size or hash). A path that leads outside the
   * workspace is always {@link #UNKNOWN}: what the turn did there was never read. A directory
   * before and after is {@link #UNCHANGED} or, when its mode changed, {@link #MODIFIED} (see {@link
   * Snapshot#compareState}); one that appeared from nothing is {@link #DIRECTORY_CREATED}, one gone
   * to nothing {@link #DIRECTORY_REMOVED}; a file replaced by a directory, or the reverse, is
   * {@link #TYPE_CHANGED}.
   */
  public static ChangeKind between(Snapshot before, Snapshot after) {
    if (before.leadsOutside() || after.leadsOutside()) {
      return UNKNOWN;
    }
    // a directory is never a file change: one that appeared where nothing was, or went leaving
    // nothing, changed no file (a file replaced by a directory, or the reverse, is a type change)
    if (before instanceof Snapshot.Absent && after.isDirectory()) {
      return DIRECTORY_CREATED;
    }
    if (before.isDirectory() && after instanceof Snapshot.Absent) {
      return DIRECTORY_REMOVED;
    }
    return switch (before.compareState(after)) {
      case SAME -> UNCHANGED;
      case UNKNOWN -> UNKNOWN;
      case DIFFERENT -> {
        if (before.presence() == Presence.ABSENT) {
          yield ADDED;
        }
        if (after.presence() == Presence.ABSENT) {
          yield DELETED;
        }
        yield before.type().equals(after.type()) ? MODIFIED : TYPE_CHANGED;
      }
    };
  }

  /** Why a change is {@link #UNKNOWN}, in one line for a reviewer; empty for every other change. */
  public static Optional<String> whyUnknown(Snapshot before, Snapshot after) {
    if (between(before, after) != UNKNOWN) {
      return Optional.empty();
    }
    if (before.leadsOutside() || after.leadsOutside()) {
      return Optional.of("touched outside the workspace: not captured");
    }
    boolean beforeCaptured = before.captured();
    Snapshot uncaptured = beforeCaptured ? after : before;
    String side = beforeCaptured ? "after" : "before";
    return Optional.of(
        side
            + "-state not captured ("
            + uncaptured.reason().map(Reason::code).orElse("unknown")
            + "): whether it changed cannot be known");
  }
}
