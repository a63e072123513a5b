package io.turndiff.api;

/**
 * The documented exit codes of {@code turndiff}: 0 on success, 2 for bad usage or input that can
 * never be valid, 3 when a rewind skipped files, 4 when the store cannot be used for the command
 * (damaged, not a store, or read-only for a write), and 1 for every other error.
 */
public enum ExitCode {
  OK(0),
  ERROR(1),
  USAGE(2),
  /** A rewind that did not restore every path: each one is in its report, with the reason. */
  SKIPPED(3),
  STORE(4);

  private final int code;

  ExitCode(int code) {
    this.code = code;
  }

  /** The process's exit status. */
  public int code() {
    return code;
  }
}
