package io.turndiff.bench.cli;

import picocli.CommandLine.Option;

/**
 * {@code --files N}: the size of the tree a benchmark generates, each command with its own default
 * (the size its figures are quoted for).
 */
final class GeneratedFiles extends CountOption {

  @Option(
      names = "--files",
      paramLabel = "N",
      description = "Files in the generated tree (default ${DEFAULT-VALUE}).")
  private int files;

  /** {@code byDefault}: the command's default, shown in its help. */
  GeneratedFiles(int byDefault) {
    super("--files", false);
    this.files = byDefault;
  }

  @Override
  int given() {
    return files;
  }
}
