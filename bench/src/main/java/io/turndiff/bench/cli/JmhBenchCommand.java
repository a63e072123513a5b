package io.turndiff.bench.cli;

import io.turndiff.api.ExitCode;
import io.turndiff.bench.JmhRun;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code turndiff bench jmh [REGEX]}: the JMH microbenchmarks, with ratios to their anchors. */
@Command(
    name = "jmh",
    description =
        "JMH microbenchmarks: the per-file boundary cost (openat2, the fallback, "
            + "a plain read), one before-snapshot call, a runtime's Pre hook and a prompt of 50 "
            + "tool calls through the hooks, a prompt in a watched tracked workspace, a watched "
            + "call's live update, the turn look-ups and "
            + "a file's blame; prints the "
            + "ratios to the plain read.")
final class JmhBenchCommand implements Callable<Integer> {

  @Parameters(
      paramLabel = "REGEX",
      arity = "0..1",
      defaultValue = "io.turndiff.bench.jmh.*",
      description = "Which benchmarks (default: all).")
  String include;

  @Option(
      names = "--forks",
      paramLabel = "N",
      defaultValue = "1",
      description = "JVMs forked per benchmark (default ${DEFAULT-VALUE}).")
  int forks;

  @Option(
      names = "--iterations",
      paramLabel = "N",
      defaultValue = "5",
      description = "Warm-up and measurement iterations of 1 s each (default ${DEFAULT-VALUE}).")
  int iterations;

  @Override
  public Integer call() throws Exception {
    JmhRun.run(include, forks, iterations, System.out);
    return ExitCode.OK.code();
  }
}
