package io.turndiff.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * {@code turndiff bench} in the product jar, which carries no benchmark (and no JMH): it says where
 * the benchmarks are. The bench jar ({@code io.turndiff.bench.cli.BenchMain}) puts the real command
 * in its place.
 */
@Command(
    name = "bench",
    description =
        "Benchmarks: in the bench jar, which ./turndiff bench builds and runs "
            + "(bench/target/turndiff-bench.jar).")
final class BenchPlaceholder implements Callable<Integer> {

  @Unmatched List<String> arguments;

  @Override
  public Integer call() {
    throw new CliException(
        ExitCode.USAGE,
        "benchmarks live in the bench jar: ./turndiff bench ... "
            + "(builds bench/target/turndiff-bench.jar)");
  }
}
