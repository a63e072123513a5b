package io.turndiff.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireVerdict;
import io.turndiff.capture.SnapshotVerdict;
import io.turndiff.model.PathInput;
import io.turndiff.model.TestHook;
import io.turndiff.model.ToolName;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code turndiff snapshot --turn ID [--tool-call ID] [--tool NAME] PATH… [--path-base64 B64]…}:
 * record before-states. Every path is decoded here, once, into its {@link PathInput}: the arguments
 * as text, the base64 ones as exact bytes.
 */
@Command(
    name = "snapshot",
    description =
        "Record the before-state of paths a tool is about to change; "
            + "prints one JSON object per recorded path.")
final class SnapshotCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--turn", required = true, paramLabel = "ID")
  String turn;

  @Option(
      names = "--tool-call",
      paramLabel = "ID",
      description = "The tool call (generated when omitted).")
  String toolCall;

  @Option(
      names = "--tool",
      paramLabel = "NAME",
      description =
          "The name of the tool about to act (Write, Edit, …), listed in the turn's files.")
  String tool;

  @Option(
      names = "--path-base64",
      paramLabel = "B64",
      description =
          "A path given as base64 of its raw bytes (for names that are not UTF-8); repeatable.")
  List<String> base64Paths = new ArrayList<>();

  @Parameters(
      paramLabel = "PATH",
      arity = "0..*",
      description = "Paths, relative to the workspace or absolute.")
  List<String> paths = new ArrayList<>();

  @Override
  public Integer call() {
    if (paths.isEmpty() && base64Paths.isEmpty()) {
      throw new CliException(ExitCode.USAGE, "snapshot needs at least one PATH");
    }
    if (tool != null && !ToolName.isValid(tool)) {
      throw new CliException(
          ExitCode.USAGE,
          "--tool must be 1-" + ToolName.MAX_LENGTH + " characters, none a control character");
    }
    List<PathInput> inputs = PathArguments.decode(paths, base64Paths);
    try (Turndiff turndiff = StoreOptions.of(spec).open()) {
      List<SnapshotVerdict> verdicts =
          turndiff
              .capture()
              .snapshot(turn, Optional.ofNullable(toolCall), Optional.ofNullable(tool), inputs);
      spec.commandLine().getOut().println(Json.write(WireVerdict.of(verdicts), false));
      spec.commandLine().getOut().flush();
      turndiff.hook().reached(TestHook.Point.SNAPSHOT_PRINTED);
    }
    return ExitCode.OK.code();
  }
}
