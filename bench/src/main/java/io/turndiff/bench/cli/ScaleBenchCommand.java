package io.turndiff.bench.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.bench.ScaleBench;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code turndiff bench scale}: a tree of 250,000 small files through a running service. */
@Command(
    name = "scale",
    description =
        "A tree of small files (500 per directory) tracked by a running service with its default"
            + " budgets, beside git add -A + commit; watched turns of 10 changed files posted as"
            + " the hooks post them (begin, Stop) beside git status and git add -A + commit (the"
            + " first warm-up turn's begin walks the tree and starts the watch); the"
            + " service's resident memory; the store's size beside git's after git gc.")
final class ScaleBenchCommand implements Callable<Integer> {

  @Mixin GeneratedFiles files = new GeneratedFiles(250_000);

  @Mixin MeasuredTurns turns = new MeasuredTurns(20);

  @Mixin Warmup warmup = new Warmup(5);

  @Mixin Seed seed;

  @Mixin FiguresOutput output;

  @Option(
      names = "--idle",
      paramLabel = "SECONDS",
      defaultValue = "30",
      description =
          "Seconds the service is left idle after the turns before its memory is read again"
              + " (default ${DEFAULT-VALUE}).")
  int idle;

  @Override
  public Integer call() throws Exception {
    ScaleBench.Options options;
    try {
      options =
          new ScaleBench.Options(files.count(), seed.value, warmup.count(), turns.count(), idle);
    } catch (IllegalArgumentException e) {
      throw new CliException(ExitCode.USAGE, e.getMessage());
    }
    ScaleBench.Result result = new ScaleBench(options, System.err).run();
    output.print(result::json, result::print);
    return ExitCode.OK.code();
  }
}
