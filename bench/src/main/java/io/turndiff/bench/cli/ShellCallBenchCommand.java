package io.turndiff.bench.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.bench.ShellCallBench;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code turndiff bench shell-calls}: the per-call attribution of shell changes, alone. */
@Command(
    name = "shell-calls",
    description =
        "The per-call attribution of shell changes on a tree of small files (500 per directory):"
            + " a shell call's Pre + Post hooks, watched, changing 1 and 10 files, each against"
            + " git add -A && git commit of the whole tree in the same round.")
final class ShellCallBenchCommand implements Callable<Integer> {

  @Mixin GeneratedFiles files = new GeneratedFiles(250_000);

  @Mixin Warmup warmup = new Warmup(5);

  @Mixin Seed seed;

  @Mixin FiguresOutput output;

  @Option(
      names = "--rounds",
      paramLabel = "K",
      defaultValue = "15",
      description = "Measured shell calls of each kind (default ${DEFAULT-VALUE}).")
  int rounds;

  @Override
  public Integer call() throws Exception {
    ShellCallBench.Options options =
        new ShellCallBench.Options(files.count(), seed.value, warmup.count(), rounds);
    if (rounds < 1) {
      throw new CliException(ExitCode.USAGE, "--rounds must be positive, not " + rounds);
    }
    ShellCallBench.Result result = new ShellCallBench(options, System.err).run();
    output.print(result::json, result::print);
    return ExitCode.OK.code();
  }
}
