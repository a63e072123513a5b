package io.turndiff.cli;

import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireVerdict;
import io.turndiff.capture.SnapshotVerdict;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code turndiff snapshot --turn ID [--tool-call ID] PATH…}: record before-states. */
@Command(name = "snapshot", description = "Record the before-state of paths a tool is about to change; "
    + "prints one JSON object per recorded path.")
final class SnapshotCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--turn", required = true, paramLabel = "ID")
  String turn;

  @Option(names = "--tool-call", paramLabel = "ID", description = "The tool call (generated when omitted).")
  String toolCall;

  @Option(names = "--path-base64", paramLabel = "B64",
      description = "A path given as base64 of its raw bytes (for names that are not UTF-8); repeatable.")
  List<String> base64Paths = new ArrayList<>();

  @Parameters(paramLabel = "PATH", arity = "0..*", description = "Paths, relative to the workspace or absolute.")
  List<String> paths = new ArrayList<>();

  @Override
  public Integer call() {
    if (paths.isEmpty() && base64Paths.isEmpty()) {
      throw new CliException(Main.EXIT_USAGE, "snapshot needs at least one PATH");
    }
    List<byte[]> raw = new ArrayList<>();
    paths.forEach(path -> raw.add(path.getBytes(StandardCharsets.UTF_8)));
    for (String encoded : base64Paths) {
      try {
        raw.add(Base64.getDecoder().decode(encoded));
      } catch (IllegalArgumentException e) {
        throw new CliException(Main.EXIT_USAGE, "--path-base64 '" + encoded + "' is not base64");
      }
    }
    try (Turndiff turndiff = StoreOptions.of(spec).open()) {
      List<SnapshotVerdict> verdicts = base64Paths.isEmpty()
          ? turndiff.capture().snapshot(turn, Optional.ofNullable(toolCall), paths)
          : turndiff.capture().snapshotBytes(turn, Optional.ofNullable(toolCall), raw);
      spec.commandLine().getOut().println(Json.write(WireVerdict.of(verdicts), false));
      spec.commandLine().getOut().flush();
      TestHold.afterSnapshot();
    }
    return Main.EXIT_OK;
  }
}
