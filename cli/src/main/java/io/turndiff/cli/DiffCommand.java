package io.turndiff.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.api.Turndiff;
import io.turndiff.diff.DiffOptions;
import io.turndiff.model.PathInput;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code turndiff diff --turn REF [PATH…]} or {@code turndiff diff --from REF --to REF}: a git
 * patch; on a terminal coloured, binary files named rather than encoded, through the pager.
 */
@Command(
    name = "diff",
    description =
        "Print a turn's changes, or a stretch of turns' changes, as a patch that "
            + "git apply can apply (from the store only); on a terminal in colour, through $PAGER "
            + "(else less), a binary file's patch shown as one line.")
final class DiffCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Scope scope;

  static final class Scope {
    @Option(
        names = "--turn",
        paramLabel = "REF",
        description = "One turn: its id or the beginning of it, last, last~N, or #N.")
    String turn;

    @ArgGroup(exclusive = false)
    Range range;
  }

  static final class Range {
    @Option(
        names = "--from",
        required = true,
        paramLabel = "REF",
        description = "From this turn's before-state…")
    String from;

    @Option(
        names = "--to",
        required = true,
        paramLabel = "REF",
        description = "…to this turn's after-state.")
    String to;
  }

  @Parameters(
      paramLabel = "PATH",
      arity = "0..*",
      description = "Only these recorded paths (with --turn).")
  List<String> paths = new ArrayList<>();

  @Option(
      names = {"-w", "--ignore-all-space"},
      description =
          "Ignore whitespace when comparing lines, as git diff -w: a line changed only in "
              + "whitespace is no change, and a file changed only so shows its header alone. "
              + "Drawn from the stored states; the patch is for reading, not for git apply.")
  boolean ignoreAllSpace;

  @Mixin TurnScope turnScope;

  @Override
  public Integer call() {
    Terminal terminal = Main.terminal(spec);
    try (StoreOptions.Queried queried = StoreOptions.of(spec).queried()) {
      Turndiff turndiff = queried.turndiff();
      TurnReference references = turnScope.references(turndiff);
      DiffOptions options = DiffOptions.DEFAULT.withIgnoreAllSpace(ignoreAllSpace);
      String patch;
      if (scope.turn != null) {
        patch =
            turndiff
                .queries()
                .patch(references.resolve(scope.turn), PathInput.texts(paths), options);
      } else {
        if (!paths.isEmpty()) {
          throw new CliException(ExitCode.USAGE, "PATH arguments go with --turn, not --from/--to");
        }
        patch =
            turndiff
                .queries()
                .range(
                    references.resolve(scope.range.from),
                    references.resolve(scope.range.to),
                    options)
                .patch();
      }
      if (terminal.interactive()) {
        terminal.page(
            ColouredPatch.of(patch, terminal, scope.turn != null), spec.commandLine().getOut());
      } else {
        spec.commandLine().getOut().print(patch);
        spec.commandLine().getOut().flush();
      }
    }
    return ExitCode.OK.code();
  }
}
