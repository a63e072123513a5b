package io.turndiff.bench.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.bench.BigFileBench;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code turndiff bench big-file}: a turn that changes one big file, against shadow git. */
@Command(
    name = "big-file",
    description =
        "A turn that changes a few lines in the middle of one big file (a lockfile): capture time,"
            + " store growth and rewind time against git add + commit, the growth of .git and"
            + " git checkout of the same file, in the same run.")
final class BigFileBenchCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--mb",
      paramLabel = "MB",
      defaultValue = "30",
      description = "The file's size in megabytes (default ${DEFAULT-VALUE}).")
  int megabytes;

  @Option(
      names = "--turns",
      paramLabel = "K",
      defaultValue = "5",
      description = "Measured turns, after one warm-up turn (default ${DEFAULT-VALUE}).")
  int turns;

  @Option(names = "--json", description = "Print the figures as JSON.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    if (megabytes < 1 || megabytes > 64 || turns < 1) {
      throw new CliException(
          ExitCode.USAGE, "--mb must be within 1..64 (the size limit), --turns positive");
    }
    BigFileBench.Result result = new BigFileBench(megabytes, turns, System.err).run();
    if (json) {
      spec.commandLine().getOut().println(Json.write(result.json(), true));
    } else {
      result.print(spec.commandLine().getOut());
    }
    spec.commandLine().getOut().flush();
    return ExitCode.OK.code();
  }
}
