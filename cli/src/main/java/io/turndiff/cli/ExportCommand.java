package io.turndiff.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireExport;
import io.turndiff.export.TurnExport;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code turndiff export --turn T [--to U] (--commit [--branch B] | --patch PATH)}: a turn or a
 * stretch of turns as a git commit on a branch of the workspace's repository, or as a patch series.
 */
@Command(
    name = "export",
    description =
        "A turn (or turns T..U of its session) as a git commit on a branch of the workspace's own"
            + " .git, leaving the index, the work tree and HEAD alone (--commit; default branch"
            + " turndiff/T), or as a patch series git am takes (--patch PATH: a directory gets one"
            + " file per turn, any other name one mbox file). Exit 3 when a path was left out.")
final class ExportCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--turn",
      required = true,
      paramLabel = "REF",
      description = "The (first) turn: its id or the beginning of it, last, last~N, or #N.")
  String turn;

  @Option(names = "--to", paramLabel = "REF", description = "The last turn of the stretch.")
  String to;

  @Mixin TurnScope scope;

  @ArgGroup(multiplicity = "1")
  Target target;

  static final class Target {
    @Option(
        names = "--commit",
        required = true,
        description = "Write a commit onto a branch of the workspace's .git.")
    boolean commit;

    @Option(
        names = "--patch",
        required = true,
        paramLabel = "PATH",
        description = "Write a patch series: a file, or one file per turn into a directory.")
    Path patch;
  }

  @Option(
      names = "--branch",
      paramLabel = "B",
      description =
          "The branch to commit onto (default: turndiff/<turn>, or turndiff/<turn>-<to>).")
  String branch;

  @Override
  public Integer call() {
    if (target.patch != null && branch != null) {
      throw new CliException(ExitCode.USAGE, "--branch goes with --commit, not --patch");
    }
    try (Turndiff turndiff = StoreOptions.of(spec).open()) {
      TurnReference references = scope.references(turndiff);
      String first = references.resolve(turn);
      String last = to == null ? first : references.resolve(to);
      if (target.patch != null) {
        List<TurnExport.PatchMail> mails = turndiff.export().patches(first, last);
        List<Path> written = PatchSeriesFiles.write(target.patch, mails);
        spec.commandLine()
            .getOut()
            .println(
                Json.write(
                    Map.of("patches", written.stream().map(Path::toString).toList()), false));
        return ExitCode.OK.code();
      }
      TurnExport.Exported exported =
          turndiff.export().commit(first, last, Optional.ofNullable(branch));
      spec.commandLine().getOut().println(Json.write(WireExport.of(exported), false));
      return exported.leftOut().isEmpty() ? ExitCode.OK.code() : ExitCode.SKIPPED.code();
    }
  }
}
