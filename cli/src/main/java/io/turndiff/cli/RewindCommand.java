package io.turndiff.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireRewindReport;
import io.turndiff.model.PathInput;
import io.turndiff.model.TestHook;
import io.turndiff.model.WorkspacePath;
import io.turndiff.rewind.RewindReport;
import io.turndiff.rewind.RewindRequest;
import io.turndiff.rewind.RewindStarted;
import io.turndiff.store.StoredTurn;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code turndiff rewind --turn REF [--to | --before-tool-call ID | --hunk PATH:N] [--operation ID]
 * [--dry-run [--patch]] [--force] [--path-base64 B64]… [PATH…]}. The paths are decoded once into
 * their {@link PathInput} by {@link PathArguments}, as {@code snapshot}'s are: the arguments as
 * text, the base64 ones as exact bytes.
 */
@Command(
    name = "rewind",
    description =
        "Put a turn's files back (with --to: the turn and every later one "
            + "in its session; with PATHs: only those files, or what is under those directories). "
            + "Exit 0 when every file was handled, 3 when some were skipped or in conflict.")
final class RewindCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--turn",
      required = true,
      paramLabel = "REF",
      description = "The turn: its id or the beginning of it, last, last~N, or #N.")
  String turn;

  @Mixin TurnScope scope;

  @Option(names = "--json", description = "Print the report as JSON, also on a terminal.")
  boolean json;

  @Option(
      names = "--to",
      description = "Also every later turn of the session, newest first, one write per file.")
  boolean to;

  @Option(
      names = "--before-tool-call",
      paramLabel = "ID",
      description =
          "Put back the state before this tool call of the turn: it and every later call are "
              + "rewound, earlier calls' changes stay (show --turn lists the calls).")
  String beforeToolCall;

  @Option(
      names = "--hunk",
      paramLabel = "PATH:N",
      description =
          "Reverse only hunk N of PATH (numbered from 1 as diff and show number the turn's hunks)"
              + " onto the file as it is now; the turn's other hunks and later edits stay, and a"
              + " hunk whose context changed is left as a conflict (exit 3).")
  String hunk;

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
      names = "--patch",
      description =
          "With --dry-run: print, for each file to merge, the change from the file now to what the"
              + " rewind would write there, as a patch (after the plan and in colour on a terminal;"
              + " the patch alone through a pipe, for git apply).")
  boolean patch;

  @Option(
      names = "--force",
      description =
          "Overwrite files changed since the turn, or whose after-state was "
              + "not captured, once their current state is stored so the rewind's undo puts it back (never deletes a "
              + "file proven changed, never touches one it cannot read).")
  boolean force;

  @Option(
      names = "--path-base64",
      paramLabel = "B64",
      description =
          "A path to rewind given as base64 of its raw bytes (for names that are not UTF-8); "
              + "repeatable.")
  List<String> base64Paths = new ArrayList<>();

  @Parameters(
      paramLabel = "PATH",
      arity = "0..*",
      description =
          "Rewind only these paths of the turn (relative to the workspace, or absolute inside it); "
              + "a directory stands for what the turn changed under it.")
  List<String> paths = new ArrayList<>();

  @Override
  public Integer call() {
    List<PathInput> inputs = PathArguments.decode(paths, base64Paths);
    Optional<HunkArgument> oneHunk = Optional.ofNullable(hunk).map(HunkArgument::parse);
    if (oneHunk.isPresent()) {
      if (!inputs.isEmpty()) {
        throw new CliException(
            ExitCode.USAGE, "--hunk names its file (PATH:N): give no other PATH with it");
      }
      inputs = List.of(oneHunk.get().path());
    }
    MergePreviewPatch.refuseOutsideAPlan(patch, dryRun, json);
    Terminal terminal = Main.terminal(spec);
    try (Turndiff turndiff = StoreOptions.of(spec).open()) {
      TurnReference references = scope.references(turndiff);
      StoredTurn target = references.toRewind(turn);
      if (!dryRun) {
        references.requireNamedWhenAbove("rewind");
      }
      String id = target.externalId();
      String workspaceRoot = Terminal.printable(references.workspaceOf(target));
      if (!id.equals(turn)) {
        // a reference, not the whole id: which turn it named is said before anything is written
        spec.commandLine()
            .getErr()
            .println(
                "turndiff: '"
                    + Terminal.printable(turn)
                    + "' is turn "
                    + id
                    + " (session "
                    + target.sessionExternalId()
                    + " #"
                    + target.seq()
                    + ") in "
                    + workspaceRoot);
        spec.commandLine().getErr().flush();
      }
      RewindReport report =
          turndiff
              .rewind()
              .rewind(
                  new RewindRequest(
                      id,
                      to,
                      Optional.ofNullable(operation),
                      dryRun,
                      force,
                      inputs,
                      Optional.ofNullable(beforeToolCall),
                      oneHunk.map(HunkArgument::number)),
                  new RewindStarted() {
                    @Override
                    public void started(String operationId, boolean resumed) {
                      announce(operationId, resumed, id, workspaceRoot);
                    }

                    @Override
                    public void recovered(String operationId, Map<WorkspacePath, String> paths) {
                      announceRecovery(operationId, paths);
                    }
                  });
      if (patch) {
        MergePreviewPatch.print(
            report, "Workspace: " + workspaceRoot + "\n", terminal, spec.commandLine().getOut());
      } else if (terminal.interactive() && !json) {
        spec.commandLine().getOut().println("Workspace: " + workspaceRoot);
        spec.commandLine().getOut().print(new RewindReportText(terminal).of(report));
        spec.commandLine().getOut().flush();
      } else {
        spec.commandLine().getOut().println(Json.write(WireRewindReport.of(report), false));
      }
      spec.commandLine().getOut().flush();
      turndiff.hook().reached(TestHook.Point.REWIND_PRINTED);
      // the report is out: now the one syncfs that puts what the rewind wrote on the disk, and the
      // operation's synced mark (a kill before it leaves that to the next rewind here)
      turndiff.rewind().makeDurable(report);
      return report.complete() ? ExitCode.OK.code() : ExitCode.SKIPPED.code();
    }
  }

  /**
   * An earlier rewind of the workspace lost writes to a power loss, and they were redone from the
   * store (or left, with why): said before anything else, since it changed files this command was
   * not asked to touch.
   */
  private void announceRecovery(String operationId, Map<WorkspacePath, String> paths) {
    PrintWriter err = spec.commandLine().getErr();
    err.println(
        "turndiff: rewind operation '"
            + operationId
            + "' was not known to be on the disk after a restart; its files were checked against"
            + " the store:");
    paths.forEach((path, what) -> err.println("  " + path.display() + ": " + what));
    err.flush();
  }

  /**
   * Before the first write: which operation this is, of which turn in which workspace, and how to
   * finish it if this process dies.
   */
  private void announce(String id, boolean resumed, String turnId, String workspaceRoot) {
    PrintWriter err = spec.commandLine().getErr();
    String of = " of turn " + turnId + " in " + workspaceRoot;
    err.println(
        "turndiff: "
            + (resumed
                ? "resuming rewind operation '" + id + "'" + of + ", which did not finish"
                : "rewind operation '" + id + "'" + of + " is starting")
            + "; if it is interrupted, run the same command again"
            + (operation == null ? " (or with --operation " + id + ")" : "")
            + " to finish it");
    err.flush();
  }
}
