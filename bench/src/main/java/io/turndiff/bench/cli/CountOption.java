package io.turndiff.bench.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;

/**
 * A count a benchmark takes on its command line ({@code --files}, {@code --turns}, {@code --calls},
 * {@code --warmup}), each command with its own default: the subclass holds the picocli option (its
 * name is the annotation's), this the check, made where the command reads it, before the run
 * starts.
 */
abstract sealed class CountOption permits GeneratedFiles, MeasuredTurns, MeasuredCalls, Warmup {

  private final String name;
  private final boolean noneAllowed;

  /** {@code noneAllowed}: whether 0 is a count this option takes (a warm-up may be none). */
  CountOption(String name, boolean noneAllowed) {
    this.name = name;
    this.noneAllowed = noneAllowed;
  }

  /** The value the command line gave, or the command's default. */
  abstract int given();

  /** The count; a negative one, or none where none is no run, is bad input (exit 2). */
  final int count() {
    int given = given();
    if (given < 0 || (given == 0 && !noneAllowed)) {
      throw new CliException(
          ExitCode.USAGE,
          name + (noneAllowed ? " must not be negative" : " must be positive") + ", not " + given);
    }
    return given;
  }
}
