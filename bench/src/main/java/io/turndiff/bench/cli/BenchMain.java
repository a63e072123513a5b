package io.turndiff.bench.cli;

import io.turndiff.cli.Main;
import java.io.PrintStream;
import picocli.CommandLine;

/**
 * The bench jar's {@code turndiff}: every command of the product jar, with the real {@code bench}
 * (and its {@code http} and {@code jmh}) in place of the product's placeholder. {@code ./turndiff
 * bench ...} runs it.
 */
public final class BenchMain {

  private BenchMain() {}

  public static void main(String[] args) {
    Main.launch(args, BenchMain::withBenchmarks);
  }

  /** Runs one command line with the given streams; returns the exit code. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    return Main.run(args, out, err, BenchMain::withBenchmarks);
  }

  private static void withBenchmarks(CommandLine commands) {
    commands.getCommandSpec().removeSubcommand("bench");
    commands.addSubcommand("bench", new BenchCommand());
  }
}
