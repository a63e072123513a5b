package io.turndiff.bench.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.bench.CliWallBench;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code turndiff bench cli}: the wall time of one-shot CLI calls against {@code git status}. */
@Command(
    name = "cli",
    description =
        "Wall time of one-shot CLI calls through the launcher (--version, status of a tracked "
            + "workspace, turns, show; then status, turns and show answered by a running "
            + "service), against git status on the same tree, in the same run.")
final class CliBenchCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin GeneratedFiles files = new GeneratedFiles(11_000);

  @Mixin MeasuredCalls calls = new MeasuredCalls(20);

  @Mixin Warmup warmup = new Warmup(2);

  @Option(
      names = "--launcher",
      paramLabel = "FILE",
      description =
          "The turndiff launcher to time (default: $TURNDIFF_LAUNCHER, which ./turndiff sets).")
  Path launcher;

  @Override
  public Integer call() throws Exception {
    int fileCount = files.count();
    int measured = calls.count();
    int warmupCalls = warmup.count();
    Path timed = launcher;
    if (timed == null) {
      String named = System.getenv("TURNDIFF_LAUNCHER");
      if (named == null || named.isBlank()) {
        throw new CliException(
            ExitCode.USAGE, "name the launcher: --launcher FILE (./turndiff bench cli sets it)");
      }
      timed = Path.of(named);
    }
    if (!Files.isExecutable(timed)) {
      throw new CliException(ExitCode.USAGE, "--launcher " + timed + " is not an executable file");
    }
    new CliWallBench(timed, fileCount, measured, warmupCalls, System.err)
        .run()
        .print(spec.commandLine().getOut());
    spec.commandLine().getOut().flush();
    return ExitCode.OK.code();
  }
}
