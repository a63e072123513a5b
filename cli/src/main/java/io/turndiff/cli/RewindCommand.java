package io.turndiff.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.turndiff.capture.WorkspaceHandles;
import io.turndiff.model.WorkspacePath;
import io.turndiff.rewind.RewindReport;
import io.turndiff.rewind.RewindRequest;
import io.turndiff.rewind.RewindService;
import io.turndiff.store.Store;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code turndiff rewind --turn ID [--to] [--operation ID] [--dry-run] [--force]}. */
@Command(name = "rewind", description = "Put a turn's files back (with --to: the turn and every later one "
    + "in its session). Exit 0 when every file was handled, 3 when some were skipped or in conflict.")
final class RewindCommand implements Callable<Integer> {

  static final int EXIT_SKIPPED = 3;

  @Mixin
  StoreOptions storeOptions;

  @Spec
  CommandSpec spec;

  @Option(names = "--turn", required = true, paramLabel = "ID")
  String turn;

  @Option(names = "--to", description = "Also every later turn of the session, newest first, one write per file.")
  boolean to;

  @Option(names = "--operation", paramLabel = "ID",
      description = "The operation's id (generated when omitted); running it again returns its receipt, "
          + "and finishes it if it was interrupted.")
  String operation;

  @Option(names = "--dry-run", description = "Print the plan, with conflicts and skips; write nothing.")
  boolean dryRun;

  @Option(names = "--force", description = "Overwrite files changed since the turn when their current state "
      + "can itself be put back (never deletes a changed file).")
  boolean force;

  @Override
  public Integer call() {
    try (Store store = storeOptions.openStore();
         WorkspaceHandles workspaces = new WorkspaceHandles(store, storeOptions.boundaryOptions())) {
      RewindService rewind = new RewindService(store, workspaces, TestHold.rewindPause());
      RewindReport report = rewind.rewind(new RewindRequest(turn, to, Optional.ofNullable(operation), dryRun,
          force));
      spec.commandLine().getOut().println(Json.write(report(report), false));
      return report.complete() ? Main.EXIT_OK : EXIT_SKIPPED;
    }
  }

  static ObjectNode report(RewindReport report) {
    ObjectNode node = Json.object();
    node.put("operation", report.operation());
    node.put("dry_run", report.dryRun());
    node.put("replayed", report.replayed());
    ArrayNode turns = node.putArray("turns");
    report.turns().forEach(turns::add);
    node.set("restored", paths(report.restored()));
    node.set("merged", paths(report.merged()));
    ArrayNode skipped = node.putArray("skipped");
    for (RewindReport.Skipped skip : report.skipped()) {
      ObjectNode entry = skipped.addObject();
      Json.putPath(entry, "path", skip.path());
      entry.put("reason", skip.reason());
      entry.put("detail", skip.detail());
    }
    node.set("unchanged", paths(report.unchanged()));
    report.rewindTurn().ifPresentOrElse(id -> node.put("rewind_turn", id), () -> node.putNull("rewind_turn"));
    return node;
  }

  private static ArrayNode paths(List<WorkspacePath> paths) {
    ArrayNode array = Json.array();
    paths.forEach(path -> array.add(path.display()));
    return array;
  }
}
