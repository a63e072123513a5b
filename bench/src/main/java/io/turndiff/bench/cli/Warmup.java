package io.turndiff.bench.cli;

import picocli.CommandLine.Option;

/**
 * {@code --warmup W}: what a benchmark runs first and does not count, of the kind it measures
 * (turns, or calls of each kind), each command with its own default.
 */
final class Warmup extends CountOption {

  @Option(
      names = "--warmup",
      paramLabel = "W",
      description =
          "Warm-up: turns or calls, as the command measures them, run first and not counted"
              + " (default ${DEFAULT-VALUE}).")
  private int rounds;

  /** {@code byDefault}: the command's default, shown in its help. */
  Warmup(int byDefault) {
    super("--warmup", true);
    this.rounds = byDefault;
  }

  @Override
  int given() {
    return rounds;
  }
}
