package io.turndiff.bench;

import java.io.PrintStream;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the JMH microbenchmarks (forked JVMs on the same class path) and prints each boundary
 * against its anchor, the plain unchecked read, from the same run.
 */
public final class JmhRun {

  private JmhRun() {}

  public static void run(String include, int forks, int iterations, PrintStream out)
      throws Exception {
    Options options =
        new OptionsBuilder()
            .include(include)
            .forks(forks)
            .warmupIterations(iterations)
            .warmupTime(TimeValue.seconds(1))
            .measurementIterations(iterations)
            .measurementTime(TimeValue.seconds(1))
            .jvmArgsAppend("--enable-native-access=ALL-UNNAMED")
            .shouldFailOnError(true)
            .build();
    Collection<RunResult> results = new Runner(options).run();
    Map<String, Double> scores = new HashMap<>();
    for (RunResult result : results) {
      String name = result.getParams().getBenchmark().replaceAll(".*\\.", "");
      String size = result.getParams().getParam("size");
      scores.put(name + (size == null ? "" : "@" + size), result.getPrimaryResult().getScore());
      if (name.equals("beforeSnapshotOf10KbFile")) {
        var statistics = result.getPrimaryResult().getStatistics();
        out.printf(
            "one before-snapshot call of a 10 KB file, in-process: p50 %.1f us, p90 %.1f us, p99 %.1f us%n",
            statistics.getPercentile(50),
            statistics.getPercentile(90),
            statistics.getPercentile(99));
      }
    }
    Double log = scores.get("logOfTheSamePath");
    Double blame = scores.get("blameOfAFileWith500Turns");
    if (log != null && blame != null) {
      out.printf(
          "a file with 500 turns: log %.2f ms (anchor), blame %.2f ms (%.2fx)%n",
          log, blame, blame / log);
    }
    for (String size : new String[] {"100", "10240"}) {
      Double anchor = scores.get("plainReadAndHash@" + size);
      if (anchor == null) {
        continue;
      }
      out.printf("per file of %s bytes: plain read + SHA-256 %.2f us (anchor)", size, anchor);
      Double openat2 = scores.get("openat2Boundary@" + size);
      Double fallback = scores.get("secureDirectoryStreamFallback@" + size);
      if (openat2 != null) {
        out.printf(", openat2 boundary %.2f us (%.2fx)", openat2, openat2 / anchor);
      }
      if (fallback != null) {
        out.printf(", SecureDirectoryStream fallback %.2f us (%.2fx)", fallback, fallback / anchor);
      }
      out.println();
    }
  }
}
