package io.turndiff.api;

/** A command-line problem with its exit code (the commands of the bench jar raise it too). */
public final class CliException extends RuntimeException {

  private final ExitCode exitCode;

  public CliException(ExitCode exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  public ExitCode exitCode() {
    return exitCode;
  }
}
