package io.turndiff.bench.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.bench.HookLatencyBench;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code turndiff bench hooks}: what a runtime pays per hook call through bin/turndiff-hook and
 * through the hook client beside it.
 */
@Command(
    name = "hooks",
    description =
        "Latency of one hook call through bin/turndiff-hook and through the hook client beside "
            + "it (bin/turndiff-hook-client, when built) to a running service (p50/p90/p99), "
            + "against the same payload posted by a running HTTP client, and of a turn's start "
            + "and end through the script, in a generated workspace of 1 KB files (more when the "
            + "turns need them); the warm-up is of hook calls, the turns have none.")
final class HooksBenchCommand implements Callable<Integer> {

  @Mixin MeasuredCalls calls = new MeasuredCalls(300);

  @Mixin Warmup warmup = new Warmup(50);

  @Mixin MeasuredTurns turns = new MeasuredTurns(20);

  @Mixin GeneratedFiles files = new GeneratedFiles(1000);

  @Option(
      names = "--script",
      paramLabel = "FILE",
      description =
          "The hook script (default: bin/turndiff-hook of $TURNDIFF_HOME, else of the checkout "
              + "the jar was built in).")
  Path script;

  @Mixin FiguresOutput output;

  @Override
  public Integer call() throws Exception {
    HookLatencyBench.Options options;
    try {
      Path script = script();
      // the hook client beside the script, when the build made it (it needs a C compiler)
      Path client = script.resolveSibling("turndiff-hook-client");
      options =
          new HookLatencyBench.Options(
              calls.count(),
              warmup.count(),
              turns.count(),
              files.count(),
              script,
              Files.isExecutable(client) ? client : null);
    } catch (IllegalArgumentException e) {
      throw new CliException(ExitCode.USAGE, e.getMessage());
    }
    if (!Files.isExecutable(options.script())) {
      throw new CliException(
          ExitCode.USAGE,
          "the hook script " + options.script() + " is not there or not executable (--script)");
    }
    HookLatencyBench.Result result = new HookLatencyBench(options, System.err).run();
    output.print(result::json, result::print);
    return ExitCode.OK.code();
  }

  /** The script given, else the checkout's: $TURNDIFF_HOME, else two levels above the jar. */
  private Path script() throws Exception {
    if (script != null) {
      return script.toAbsolutePath();
    }
    String home = System.getenv("TURNDIFF_HOME");
    if (home != null && !home.isEmpty()) {
      return Path.of(home, "bin", "turndiff-hook");
    }
    File jar =
        new File(
            HooksBenchCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Path checkout = jar.toPath().toAbsolutePath().getParent().getParent().getParent();
    return checkout.resolve("bin").resolve("turndiff-hook");
  }
}
