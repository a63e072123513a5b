package io.turndiff.cli;

import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireHistoryEntry;
import io.turndiff.model.PathInput;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code turndiff log PATH}: every turn that touched a path. */
@Command(
    name = "log",
    description = "Every turn that recorded a path, oldest first, with its change and stats.")
final class LogCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin WorkspaceOption workspace;

  @Parameters(
      paramLabel = "PATH",
      description =
          "A path relative to the workspace, or absolute; '.' and '..' are "
              + "applied to the name.")
  String path;

  @Option(names = "--pretty", description = "Indent the JSON.")
  boolean pretty;

  @Override
  public Integer call() {
    try (Turndiff turndiff = StoreOptions.of(spec).open()) {
      Path root = workspace.orCurrentDirectory();
      PathInput given = PathInput.text(path);
      spec.commandLine()
          .getOut()
          .println(Json.write(WireHistoryEntry.of(turndiff.queries().log(root, given)), pretty));
    }
    return ExitCode.OK.code();
  }
}
