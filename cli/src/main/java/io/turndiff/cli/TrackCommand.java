package io.turndiff.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireTrackSummary;
import io.turndiff.capture.track.IgnoredFiles;
import io.turndiff.capture.track.TrackSummary;
import io.turndiff.capture.track.Tracker;
import io.turndiff.capture.track.TrackingOptions;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code turndiff track --workspace DIR}: build the index, and track the workspace from now on. */
@Command(
    name = "track",
    description =
        "Index every path of a workspace that is not ignored (with a content "
            + "baseline), so that turns see changes made by shell commands.")
final class TrackCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--workspace",
      required = true,
      paramLabel = "DIR",
      description = "The workspace to track.")
  Path workspace;

  @Option(
      names = "--max-files",
      paramLabel = "N",
      defaultValue = "1000000",
      description = "At most N files in the baseline (default ${DEFAULT-VALUE}).")
  long maxFiles;

  @Option(
      names = "--max-bytes",
      paramLabel = "N",
      defaultValue = "2147483648",
      description = "At most N bytes of content in the baseline (default ${DEFAULT-VALUE}).")
  long maxBytes;

  @Option(
      names = "--ignored-files",
      paramLabel = "none|metadata|small",
      description =
          "What the index keeps of the files git ignores in the directories it walks (.env, logs;"
              + " a directory git ignores, such as node_modules, is never walked): small (content"
              + " of each up to 5 MiB; the default in a local store), metadata (stat and hash"
              + " only; the default in a shared PostgreSQL store, since .env holds secrets) or"
              + " none. Without it, a tracked workspace keeps what it kept.")
  String ignoredFiles;

  @Option(
      names = "--ignored-max-bytes",
      paramLabel = "N",
      description =
          "An ignored file over N bytes is not indexed (its content is not kept; status names it):"
              + " 5242880 (5 MiB) by default. Without it, a tracked workspace keeps its cap.")
  Long ignoredMaxBytes;

  @Override
  public Integer call() {
    TrackingOptions options;
    try {
      options = new TrackingOptions(maxFiles, maxBytes);
      if (ignoredFiles != null) {
        options = options.withIgnoredFiles(IgnoredFiles.fromCode(ignoredFiles));
      }
      if (ignoredMaxBytes != null) {
        options = options.withIgnoredMaxBytes(ignoredMaxBytes);
      }
    } catch (IllegalArgumentException e) {
      throw new CliException(ExitCode.USAGE, e.getMessage());
    }
    Tracker.Progress progress =
        System.console() == null
            ? Tracker.Progress.NONE
            : (done, total) -> {
              int width = 30;
              int filled = total == 0 ? width : (int) ((long) done * width / total);
              System.err.printf(
                  "\rindexing [%s%s] %d/%d files",
                  "#".repeat(filled), " ".repeat(width - filled), done, total);
              if (done == total) {
                System.err.println();
              }
            };
    try (Turndiff turndiff = StoreOptions.of(spec).open()) {
      TrackSummary summary = turndiff.track(workspace, options, progress);
      spec.commandLine().getOut().println(Json.write(WireTrackSummary.of(summary), false));
    }
    return ExitCode.OK.code();
  }
}
