package io.turndiff.bench.cli;

import picocli.CommandLine.Option;

/**
 * {@code --seed S}: the seed of a benchmark's random choices, so that two runs (two builds
 * compared) measure the same tree and the same turns.
 */
final class Seed {

  @Option(
      names = "--seed",
      paramLabel = "S",
      defaultValue = "1",
      description =
          "Seed of the generated tree, and of the turns' edits where they are drawn"
              + " (default ${DEFAULT-VALUE}).")
  long value;
}
