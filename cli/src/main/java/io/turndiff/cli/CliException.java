package io.turndiff.cli;

/** A command-line problem with its exit code. */
final class CliException extends RuntimeException {

  private final int exitCode;

  CliException(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  int exitCode() {
    return exitCode;
  }
}
