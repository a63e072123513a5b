package io.turndiff.cli;

import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireRewindReport;
import io.turndiff.rewind.RewindReport;
import io.turndiff.rewind.RewindRequest;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code turndiff rewind --turn ID [--to] [--operation ID] [--dry-run] [--force]}. */
@Command(
    name = "rewind",
    description =
        "Put a turn's files back (with --to: the turn and every later one "
            + "in its session). Exit 0 when every file was handled, 3 when some were skipped or in conflict.")
final class RewindCommand implements Callable<Integer> {

  static final int EXIT_SKIPPED = 3;

  @Spec CommandSpec spec;

  @Option(names = "--turn", required = true, paramLabel = "ID")
  String turn;

  @Option(
      names = "--to",
      description = "Also every later turn of the session, newest first, one write per file.")
  boolean to;

  @Option(
      names = "--operation",
      paramLabel = "ID",
      description =
          "The operation's id (generated when omitted); running it again returns its receipt, "
              + "and finishes it if it was interrupted.")
  String operation;

  @Option(
      names = "--dry-run",
      description = "Print the plan, with conflicts and skips; write nothing.")
  boolean dryRun;

  @Option(
      names = "--force",
      description =
          "Overwrite files changed since the turn, or whose after-state was "
              + "not captured, once their current state is stored so the rewind's undo puts it back (never deletes a "
              + "file proven changed, never touches one it cannot read).")
  boolean force;

  @Override
  public Integer call() {
    try (Turndiff turndiff = StoreOptions.of(spec).open()) {
      RewindReport report =
          turndiff
              .rewind()
              .rewind(
                  new RewindRequest(turn, to, Optional.ofNullable(operation), dryRun, force),
                  this::announce);
      spec.commandLine().getOut().println(Json.write(WireRewindReport.of(report), false));
      return report.complete() ? Main.EXIT_OK : EXIT_SKIPPED;
    }
  }

  /** Before the first write: which operation this is, and how to finish it if this process dies. */
  private void announce(String id, boolean resumed) {
    PrintWriter err = spec.commandLine().getErr();
    err.println(
        "turndiff: "
            + (resumed
                ? "resuming rewind operation '" + id + "', which did not finish"
                : "rewind operation '" + id + "' is starting")
            + "; if it is interrupted, run the same command again"
            + (operation == null ? " (or with --operation " + id + ")" : "")
            + " to finish it");
    err.flush();
  }
}
