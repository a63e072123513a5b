package io.turndiff.model;

import java.util.Arrays;

/**
 * Why a snapshot holds metadata only. A snapshot with a reason is never restorable: its content was
 * not read, or was not read safely.
 */
public enum Reason {
  /** An absolute path, or a {@code ..}, that names something outside the workspace root. */
  OUTSIDE_WORKSPACE("outside_workspace", Containment.OUTSIDE),
  /** A symlink, a mount or a magic link whose resolution leaves the workspace. */
  ESCAPES_WORKSPACE("escapes_workspace", Containment.ESCAPED),
  /** A regular file with more than one link: its inode may be shared with a file outside. */
  HARDLINKED("hardlinked", Containment.HARDLINKED),
  /** A FIFO, socket or device. */
  SPECIAL_FILE("special_file", Containment.SPECIAL),
  DIRECTORY("directory", Containment.INSIDE),
  /** Bigger than the size limit: hashed while streaming, content not stored. */
  TOO_LARGE("too_large", Containment.INSIDE),
  /** The kernel refused or failed the open or the read; existence may be unknown. */
  UNREADABLE("unreadable", Containment.INSIDE),
  /** Size or modification time moved while the content was read, every retry. */
  CHANGED_DURING_READ("changed_during_read", Containment.INSIDE),
  /**
   * A file git ignores, in a workspace whose store keeps ignored files' stat and hash only (a
   * shared store's default: a {@code .env} holds secrets): its content was read to hash it, and not
   * stored.
   */
  IGNORED_NOT_STORED("ignored_not_stored", Containment.INSIDE);

  private final String code;
  private final Containment containment;

  Reason(String code, Containment containment) {
    this.code = code;
    this.containment = containment;
  }

  public String code() {
    return code;
  }

  public Containment containment() {
    return containment;
  }

  public static Reason fromCode(String code) {
    return Arrays.stream(values())
        .filter(reason -> reason.code.equals(code))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown reason: " + code));
  }
}
