package io.turndiff.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --workspace DIR} for the commands that default to the current directory. */
final class WorkspaceOption {

  @Option(
      names = "--workspace",
      paramLabel = "DIR",
      description = "The workspace (default: the current directory).")
  Path workspace;

  Path orCurrentDirectory() {
    return workspace != null ? workspace : Path.of("").toAbsolutePath();
  }
}
