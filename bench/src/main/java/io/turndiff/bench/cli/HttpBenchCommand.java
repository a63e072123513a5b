package io.turndiff.bench.cli;

import io.turndiff.api.ExitCode;
import io.turndiff.bench.HttpLatencyBench;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code turndiff bench http}: the latency of one snapshot call over loopback HTTP. */
@Command(
    name = "http",
    description =
        "Latency of one snapshot call over loopback HTTP (p50/p90/p99), against "
            + "the same call in-process and an HTTP health check, in the same run.")
final class HttpBenchCommand implements Callable<Integer> {

  @Mixin MeasuredCalls calls = new MeasuredCalls(2000);

  @Mixin Warmup warmup = new Warmup(1000);

  @Mixin FiguresOutput output;

  @Override
  public Integer call() throws Exception {
    HttpLatencyBench.Result result =
        new HttpLatencyBench(calls.count(), warmup.count(), System.err).run();
    output.print(result::json, result::print);
    return ExitCode.OK.code();
  }
}
