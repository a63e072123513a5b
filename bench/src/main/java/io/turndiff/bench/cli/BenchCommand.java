package io.turndiff.bench.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.bench.BenchResult;
import io.turndiff.bench.StoreComparisonBench;
import io.turndiff.bench.TurnBench;
import io.turndiff.store.PostgresDatabase;
import io.turndiff.store.StoreAddress;
import io.turndiff.store.StoreLocation;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code turndiff bench}: turndiff against shadow git on the same turns, in one run. */
@Command(
    name = "bench",
    description =
        "Measure capture and rewind against shadow git on the same turns "
            + "(medians, p90, ratios git/turndiff, store size), both sides warmed by the same "
            + "warm-up turns; with --db jdbc:postgresql://..., "
            + "capture and queries on that database beside a SQLite store instead.",
    subcommands = {
      HttpBenchCommand.class,
      HooksBenchCommand.class,
      JmhBenchCommand.class,
      CliBenchCommand.class,
      BigFileBenchCommand.class,
      ShellCallBenchCommand.class,
      ScaleBenchCommand.class
    })
final class BenchCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--workspace",
      paramLabel = "DIR",
      description =
          "An existing tree, copied to a temp dir first and never modified (default: generated).")
  Path workspace;

  @Mixin GeneratedFiles files = new GeneratedFiles(11_000);

  @Mixin MeasuredTurns turns = new MeasuredTurns(10);

  @Mixin Warmup warmup = new Warmup(5);

  @Mixin Seed seed;

  @Option(
      names = "--turn-files",
      paramLabel = "M",
      defaultValue = "50",
      description = "Edited files per turn (plus 10 %% as many new, 4 %% deleted).")
  int turnFiles;

  @Option(
      names = "--locality",
      paramLabel = "L",
      defaultValue = "0",
      description =
          "Share of edits that go to files earlier turns touched (0..1, default 0: uniform).")
  double locality;

  @Option(
      names = "--dirty-writer-mb",
      paramLabel = "MB",
      defaultValue = "0",
      description =
          "Also time the rewinds (turndiff's and git checkout's) each right after a child process"
              + " wrote MB megabytes beside the workspace without syncing (default 0: not run).")
  int dirtyWriterMegabytes;

  @Mixin FiguresOutput output;

  /**
   * The store the inherited {@code --db} (or {@code $TURNDIFF_DB}) names: a PostgreSQL database
   * makes this run compare capture and queries there with a SQLite store.
   */
  private StoreAddress storeAddress() {
    try {
      return StoreLocation.address(
          Optional.ofNullable(spec.root().findOption("--db").getValue()),
          Optional.ofNullable(spec.root().findOption("--db-password-file").<Path>getValue()),
          System.getenv());
    } catch (IllegalArgumentException e) {
      throw new CliException(ExitCode.USAGE, e.getMessage());
    }
  }

  @Override
  public Integer call() throws Exception {
    int fileCount = files.count();
    int measured = turns.count();
    int warmupTurns = warmup.count();
    if (turnFiles < 1 || locality < 0 || locality > 1 || dirtyWriterMegabytes < 0) {
      throw new CliException(
          ExitCode.USAGE,
          "--turn-files must be positive; --locality within 0..1; --dirty-writer-mb not negative");
    }
    if (workspace != null && !Files.isDirectory(workspace)) {
      throw new CliException(ExitCode.USAGE, "--workspace " + workspace + " is not a directory");
    }
    PrintStream progress = System.err;
    StoreAddress store = storeAddress();
    if (store instanceof PostgresDatabase) {
      List<StoreComparisonBench.Figures> figures =
          new StoreComparisonBench(
                  new StoreComparisonBench.Options(
                      fileCount, turnFiles, measured, warmupTurns, seed.value),
                  progress)
              .run(store);
      output.print(
          () -> StoreComparisonBench.json(figures),
          out -> StoreComparisonBench.print(figures, out));
      return ExitCode.OK.code();
    }
    BenchResult result;
    try {
      result =
          new TurnBench(
                  new TurnBench.Options(
                      Optional.ofNullable(workspace),
                      fileCount,
                      turnFiles,
                      measured,
                      warmupTurns,
                      seed.value,
                      locality,
                      dirtyWriterMegabytes),
                  progress)
              .run();
    } catch (IllegalArgumentException e) {
      // the tree cannot carry the turns asked for
      throw new CliException(ExitCode.USAGE, e.getMessage());
    } catch (IOException e) {
      throw new CliException(ExitCode.ERROR, "the benchmark failed: " + named(e));
    } catch (UncheckedIOException e) {
      throw new CliException(ExitCode.ERROR, "the benchmark failed: " + named(e.getCause()));
    }
    output.print(result::json, result::print);
    return ExitCode.OK.code();
  }

  /** The failure as one line: a bare {@code NoSuchFileException} message is only a path. */
  private static String named(IOException e) {
    return e.getClass().getSimpleName() + ": " + e.getMessage();
  }
}
