package io.turndiff.bench.cli;

import picocli.CommandLine.Option;

/** {@code --turns K}: the turns a benchmark measures, each command with its own default. */
final class MeasuredTurns extends CountOption {

  @Option(
      names = "--turns",
      paramLabel = "K",
      description = "Measured turns (default ${DEFAULT-VALUE}).")
  private int turns;

  /** {@code byDefault}: the command's default, shown in its help. */
  MeasuredTurns(int byDefault) {
    super("--turns", false);
    this.turns = byDefault;
  }

  @Override
  int given() {
    return turns;
  }
}
