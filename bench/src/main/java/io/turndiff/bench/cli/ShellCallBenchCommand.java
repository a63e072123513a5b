package io.turndiff.bench.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.bench.ShellCallBench;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code turndiff bench shell-calls}: the per-call attribution of shell changes, alone. */
@Command(
    name = "shell-calls",
    description =
        "The per-call attribution of shell changes on a tree of small files (500 per directory):"
            + " a shell call's Pre + Post hooks, watched, changing 1 and 10 files, each against"
            + " git add -A && git commit of the whole tree in the same round.")
final class ShellCallBenchCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--files",
      paramLabel = "N",
      defaultValue = "250000",
      description = "Files in the generated tree (default ${DEFAULT-VALUE}).")
  int files;

  @Option(
      names = "--rounds",
      paramLabel = "K",
      defaultValue = "15",
      description = "Measured shell calls of each kind (default ${DEFAULT-VALUE}).")
  int rounds;

  @Option(
      names = "--warmup",
      paramLabel = "W",
      defaultValue = "5",
      description = "Calls of each kind run first and not counted (default ${DEFAULT-VALUE}).")
  int warmup;

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
    if (files < 1 || rounds < 1 || warmup < 0) {
      throw new CliException(
          ExitCode.USAGE, "--files and --rounds must be positive, --warmup not negative");
    }
    ShellCallBench.Result result =
        new ShellCallBench(new ShellCallBench.Options(files, seed, warmup, rounds), System.err)
            .run();
    if (json) {
      spec.commandLine().getOut().println(Json.write(result.json(), true));
    } else {
      result.print(spec.commandLine().getOut());
    }
    spec.commandLine().getOut().flush();
    return ExitCode.OK.code();
  }
}
