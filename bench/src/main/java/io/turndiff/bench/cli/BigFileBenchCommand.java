package io.turndiff.bench.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.bench.BigFileBench;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code turndiff bench big-file}: a turn that changes one big file, against shadow git. */
@Command(
    name = "big-file",
    description =
        "A turn that changes a few lines in the middle of one big file (a lockfile): capture time,"
            + " store growth and rewind time against git add + commit, the growth of .git and"
            + " git checkout of the same file, in the same run; the measured turns come after one"
            + " warm-up turn.")
final class BigFileBenchCommand implements Callable<Integer> {

  @Mixin MeasuredTurns turns = new MeasuredTurns(5);

  @Mixin FiguresOutput output;

  @Option(
      names = "--mb",
      paramLabel = "MB",
      defaultValue = "30",
      description = "The file's size in megabytes (default ${DEFAULT-VALUE}).")
  int megabytes;

  @Override
  public Integer call() throws Exception {
    int measured = turns.count();
    if (megabytes < 1 || megabytes > 64) {
      throw new CliException(ExitCode.USAGE, "--mb must be within 1..64 (the size limit)");
    }
    BigFileBench.Result result = new BigFileBench(megabytes, measured, System.err).run();
    output.print(result::json, result::print);
    return ExitCode.OK.code();
  }
}
