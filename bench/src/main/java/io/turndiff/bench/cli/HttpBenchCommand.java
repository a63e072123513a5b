package io.turndiff.bench.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.bench.HttpLatencyBench;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code turndiff bench http}: the latency of one snapshot call over loopback HTTP. */
@Command(
    name = "http",
    description =
        "Latency of one snapshot call over loopback HTTP (p50/p90/p99), against "
            + "the same call in-process and an HTTP health check, in the same run.")
final class HttpBenchCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--calls",
      paramLabel = "N",
      defaultValue = "2000",
      description = "Measured calls of each kind (default ${DEFAULT-VALUE}).")
  int calls;

  @Option(
      names = "--warmup",
      paramLabel = "W",
      defaultValue = "1000",
      description = "Calls made first and not counted (default ${DEFAULT-VALUE}).")
  int warmup;

  @Option(names = "--json", description = "Print the figures as JSON.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    if (calls < 1 || warmup < 0) {
      throw new CliException(ExitCode.USAGE, "--calls must be positive, --warmup not negative");
    }
    HttpLatencyBench.Result result = new HttpLatencyBench(calls, warmup, System.err).run();
    if (json) {
      spec.commandLine().getOut().println(Json.write(result.json(), true));
    } else {
      result.print(spec.commandLine().getOut());
    }
    spec.commandLine().getOut().flush();
    return ExitCode.OK.code();
  }
}
