package io.turndiff.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.api.Turndiff;
import io.turndiff.model.PathInput;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code turndiff diff --turn ID [PATH…]} or {@code turndiff diff --from ID --to ID}: a git patch.
 */
@Command(
    name = "diff",
    description =
        "Print a turn's changes, or a stretch of turns' changes, as a patch that "
            + "git apply can apply (from the store only).")
final class DiffCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Scope scope;

  static final class Scope {
    @Option(names = "--turn", paramLabel = "ID", description = "One turn.")
    String turn;

    @ArgGroup(exclusive = false)
    Range range;
  }

  static final class Range {
    @Option(
        names = "--from",
        required = true,
        paramLabel = "ID",
        description = "From this turn's before-state…")
    String from;

    @Option(
        names = "--to",
        required = true,
        paramLabel = "ID",
        description = "…to this turn's after-state.")
    String to;
  }

  @Parameters(
      paramLabel = "PATH",
      arity = "0..*",
      description = "Only these recorded paths (with --turn).")
  List<String> paths = new ArrayList<>();

  @Override
  public Integer call() {
    try (Turndiff turndiff = StoreOptions.of(spec).open()) {
      String patch;
      if (scope.turn != null) {
        patch = turndiff.queries().patch(scope.turn, PathInput.texts(paths));
      } else {
        if (!paths.isEmpty()) {
          throw new CliException(ExitCode.USAGE, "PATH arguments go with --turn, not --from/--to");
        }
        patch = turndiff.queries().range(scope.range.from, scope.range.to).patch();
      }
      spec.commandLine().getOut().print(patch);
      spec.commandLine().getOut().flush();
    }
    return ExitCode.OK.code();
  }
}
