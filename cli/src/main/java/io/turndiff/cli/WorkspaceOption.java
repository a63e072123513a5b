package io.turndiff.cli;

import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code --workspace DIR} for the commands that default to the current directory. */
final class WorkspaceOption {

  @Option(
      names = "--workspace",
      paramLabel = "DIR",
      description = "The workspace (default: the current directory).")
  Path workspace;

  @Spec(Spec.Target.MIXEE)
  CommandSpec command;

  Path orCurrentDirectory() {
    return workspace != null ? workspace : Main.currentDirectory(command);
  }
}
