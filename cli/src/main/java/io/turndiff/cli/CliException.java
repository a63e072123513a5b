package io.turndiff.cli;

/** A command-line problem with its exit code (the commands of the bench jar raise it too). */
public final class CliException extends RuntimeException {

  private final int exitCode;

  public CliException(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  public int exitCode() {
    return exitCode;
  }
}
