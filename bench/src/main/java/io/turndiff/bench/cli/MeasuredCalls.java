package io.turndiff.bench.cli;

import picocli.CommandLine.Option;

/**
 * {@code --calls N}: the calls of each kind a benchmark measures, each command with its default.
 */
final class MeasuredCalls extends CountOption {

  @Option(
      names = "--calls",
      paramLabel = "N",
      description = "Measured calls of each kind (default ${DEFAULT-VALUE}).")
  private int calls;

  /** {@code byDefault}: the command's default, shown in its help. */
  MeasuredCalls(int byDefault) {
    super("--calls", false);
    this.calls = byDefault;
  }

  @Override
  int given() {
    return calls;
  }
}
