package io.turndiff.model;

import java.util.Arrays;

/** Which implementation of the workspace boundary produced a snapshot. */
public enum BoundaryKind {
  /**
   * {@code openat2} with {@code RESOLVE_BENEATH} relative to the held root fd, checked by {@code
   * fstat}.
   */
  OPENAT2("openat2"),
  /**
   * {@code openat} with {@code O_NOFOLLOW} one component at a time where {@code openat2} is
   * blocked, each directory checked by {@code fstat} (same device) and {@code statx} (not a mount
   * root).
   */
  OPENAT("openat"),
  /**
   * The JDK's {@code SecureDirectoryStream}, walked one component at a time without following
   * links.
   */
  SECURE_DIRECTORY_STREAM("secure_directory_stream");

  private final String code;

  BoundaryKind(String code) {
    this.code = code;
  }

  public String code() {
    return code;
  }

  public static BoundaryKind fromCode(String code) {
    return Arrays.stream(values())
        .filter(kind -> kind.code.equals(code))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown boundary: " + code));
  }
}
