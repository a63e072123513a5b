package io.turndiff.boundary;

import java.util.Locale;

/**
 * Which of the kernel's facilities this process may use, from {@code TURNDIFF_PORTABILITY} (read
 * once per process).
 *
 * <p>{@link #LINUX}, the default, uses whatever works here: {@code openat2}, inotify, {@code
 * /proc}. {@link #POSIX} uses only what macOS and the BSDs offer as well: the boundary is {@code
 * openat(O_NOFOLLOW)} one component at a time, each directory checked to be on the root's device
 * and not a mount root (by the kernel's own word about the opened descriptor, never by {@code
 * /proc/self/mountinfo}); nothing is watched, so every finish and track walks the whole tree; and
 * no file is named through {@code /proc/self/fd} (so a git index is not read: the ignore rules
 * alone decide what a scan leaves out). It is the mode a port to another system starts from (a port
 * then brings that system's constants, struct layouts and watcher: docs/portability.md), and a way
 * out where a sandbox forbids {@code openat2} or inotify outright.
 *
 * <p>The mode is the whole process's, as an environment variable is: a service and the hooks that
 * call it run in one mode, and a test suite run with the variable set runs every test in it.
 */
public enum Portability {
  /** Every facility Linux offers that works here. */
  LINUX("linux"),
  /** Only what POSIX systems share: openat per component, full scans, no {@code /proc}. */
  POSIX("posix");

  /** The environment variable that chooses the mode. */
  public static final String VARIABLE = "TURNDIFF_PORTABILITY";

  private final String value;

  Portability(String value) {
    this.value = value;
  }

  /** The value of {@link #VARIABLE} that chooses this mode. */
  public String value() {
    return value;
  }

  /**
   * This process's mode.
   *
   * @throws BoundaryException when {@link #VARIABLE} holds a value that names no mode
   */
  public static Portability current() {
    if (Current.MODE == null) {
      throw new BoundaryException(Current.WRONG);
    }
    return Current.MODE;
  }

  /** The mode {@code value} names (unset or empty: {@link #LINUX}), or null. */
  static Portability named(String value) {
    if (value == null || value.isEmpty()) {
      return LINUX;
    }
    for (Portability mode : values()) {
      if (mode.value.equals(value.toLowerCase(Locale.ROOT))) {
        return mode;
      }
    }
    return null;
  }

  /** Whether a root may be held by {@code mechanism} in this mode. */
  public boolean allows(BoundaryOptions.Mechanism mechanism) {
    return this == LINUX
        || mechanism == BoundaryOptions.Mechanism.AUTO
        || mechanism == BoundaryOptions.Mechanism.OPENAT;
  }

  /** Whether directories may be watched (inotify) in this mode. */
  public boolean watches() {
    return this == LINUX;
  }

  /** Whether files may be named through {@code /proc} in this mode. */
  public boolean readsProc() {
    return this == LINUX;
  }

  private static final class Current {
    private static final String SET = System.getenv(VARIABLE);
    private static final Portability MODE = named(SET);
    private static final String WRONG =
        VARIABLE + " must be linux or posix (or unset), not '" + SET + "'";
  }
}
