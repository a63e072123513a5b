package io.turndiff.bench.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.bench.ScaleBench;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code turndiff bench scale}: a tree of 250,000 small files through a running service. */
@Command(
    name = "scale",
    description =
        "A tree of small files (500 per directory) tracked by a running service with its default"
            + " budgets, beside git add -A + commit; watched turns of 10 changed files posted as"
            + " the hooks post them (begin, Stop) beside git status and git add -A + commit; the"
            + " service's resident memory; the store's size beside git's after git gc.")
final class ScaleBenchCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--files",
      paramLabel = "N",
      defaultValue = "250000",
      description = "Files in the generated tree (default ${DEFAULT-VALUE}).")
  int files;

  @Option(
      names = "--turns",
      paramLabel = "K",
      defaultValue = "20",
      description = "Measured turns (default ${DEFAULT-VALUE}).")
  int turns;

  @Option(
      names = "--warmup",
      paramLabel = "W",
      defaultValue = "5",
      description =
          "Turns run first and not counted; the first one's begin walks the tree and starts the"
              + " watch (default ${DEFAULT-VALUE}).")
  int warmup;

  @Option(
      names = "--idle",
      paramLabel = "SECONDS",
      defaultValue = "30",
      description =
          "Seconds the service is left idle after the turns before its memory is read again"
              + " (default ${DEFAULT-VALUE}).")
  int idle;

  @Option(
      names = "--seed",
      paramLabel = "S",
      defaultValue = "1",
      description = "Seed of the generated tree (default ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--json", description = "Print the figures as JSON.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    ScaleBench.Options options;
    try {
      options = new ScaleBench.Options(files, seed, warmup, turns, idle);
    } catch (IllegalArgumentException e) {
      throw new CliException(ExitCode.USAGE, e.getMessage());
    }
    ScaleBench.Result result = new ScaleBench(options, System.err).run();
    if (json) {
      spec.commandLine().getOut().println(Json.write(result.json(), true));
    } else {
      result.print(spec.commandLine().getOut());
    }
    spec.commandLine().getOut().flush();
    return ExitCode.OK.code();
  }
}
