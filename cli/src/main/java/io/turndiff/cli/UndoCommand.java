package io.turndiff.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireRewindReport;
import io.turndiff.model.RequestException;
import io.turndiff.model.TurnKind;
import io.turndiff.model.TurnState;
import io.turndiff.review.TurnRecords;
import io.turndiff.rewind.RewindReport;
import io.turndiff.rewind.RewindRequest;
import io.turndiff.store.StoredSession;
import io.turndiff.store.StoredTurn;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code turndiff undo [--yes] [--dry-run [--patch]]}: rewinds the last turn of the workspace it
 * runs in, the one command a user needs to remember. It is {@code rewind --turn T} with T found for
 * them, the plan shown and a question asked first on a terminal.
 *
 * <p>The turn is the session's newest agent turn that is finished and not rewound: so a second
 * {@code undo} takes back the turn before, as an editor's undo does, rather than undoing the undo
 * (which {@code turndiff rewind --turn} of the rewind turn does, as its report says). The session
 * is {@code --session}, else the workspace's one session with recent turns; when two runtimes
 * worked in the workspace within the hour, {@code undo} names both sessions and asks which ({@link
 * TurnReference#session}) rather than guess.
 *
 * <p>The workspace is named in the heading, the question and the report. Where it was found above
 * the current directory, and is not the current directory's git repository (an agent once ran in
 * {@code $HOME}; the person is in a new project without turns), the terminal view says so, and
 * {@code --yes} refuses (exit 2) unless {@code --workspace} names it: never rewind work the person
 * did not expect to be in question.
 *
 * <p>What is written is exactly what {@code rewind} writes, and the exit codes are its own: 0 when
 * every path was put back, 3 with the report when some were left as they are. Without a terminal
 * nobody can answer the question: then {@code --yes} (or {@code --dry-run}) is required, and the
 * output is the rewind's JSON report. {@code --dry-run --patch} previews the files the undo would
 * merge as {@code rewind --dry-run --patch} does ({@link MergePreviewPatch}).
 */
@Command(
    name = "undo",
    description =
        "Rewind the last turn of this workspace (--workspace, else the current directory, its "
            + "git repository, or on a terminal the nearest directory above with turns, named): "
            + "the plan first, then a question on a terminal. A second undo takes back the turn "
            + "before. Exit 0 when every file was put back, 3 when some were left (each in the "
            + "report, with why).")
final class UndoCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin TurnScope scope;

  @Option(names = "--yes", description = "Rewind without asking.")
  boolean yes;

  @Option(names = "--dry-run", description = "Print the plan; write nothing.")
  boolean dryRun;

  @Option(names = "--json", description = "Print the report as JSON, also on a terminal.")
  boolean json;

  @Option(
      names = "--patch",
      description =
          "With --dry-run: print, for each file to merge, the change from the file now to what the"
              + " undo would write there, as a patch (after the plan and in colour on a terminal;"
              + " the patch alone through a pipe, for git apply), as rewind --dry-run --patch.")
  boolean patch;

  @Override
  public Integer call() {
    MergePreviewPatch.refuseOutsideAPlan(patch, dryRun, json);
    Terminal terminal = Main.terminal(spec);
    boolean human = terminal.interactive() && !json;
    if (!dryRun && !yes && !terminal.interactive()) {
      throw new CliException(
          ExitCode.USAGE,
          "undo asks before it writes, and the output is not a terminal: give --yes to rewind, "
              + "or --dry-run for the plan");
    }
    PrintWriter out = spec.commandLine().getOut();
    try (Turndiff turndiff = StoreOptions.of(spec).open()) {
      TurnReference references = scope.references(turndiff);
      StoredSession session = references.session();
      if (yes && !dryRun) {
        references.requireNamedWhenAbove("undo");
      }
      StoredTurn turn = lastUndoable(session, references.turnsOf(session));
      String workspaceRoot = Terminal.printable(references.workspaceOf(turn));
      // which turn, where: before the plan on a terminal (a pipe gets the JSON or the patch alone)
      String intro =
          human
              ? heading(turndiff, turn, terminal)
                  + "Workspace: "
                  + workspaceRoot
                  + (references.countedAbove()
                      ? " (the nearest directory above this one with turns, not this directory)"
                      : "")
                  + "\n"
              : "";
      if (human && !patch) {
        out.print(intro);
        out.flush();
      }
      RewindReport plan =
          turndiff
              .rewind()
              .rewind(new RewindRequest(turn.externalId(), false, Optional.empty(), true, false));
      if (patch) {
        // only with --dry-run and without --json (refused above): the previews are the output
        MergePreviewPatch.print(plan, intro, terminal, out);
        return plan.complete() ? ExitCode.OK.code() : ExitCode.SKIPPED.code();
      }
      if (dryRun) {
        print(plan, human, terminal, out);
        return plan.complete() ? ExitCode.OK.code() : ExitCode.SKIPPED.code();
      }
      if (!yes) {
        // only on a terminal (checked above): the plan, then the question
        print(plan, human, terminal, out);
        if (!terminal.confirm("Rewind turn #" + turn.seq() + " in " + workspaceRoot + " now?")) {
          spec.commandLine().getErr().println("turndiff: nothing was changed");
          spec.commandLine().getErr().flush();
          return ExitCode.OK.code();
        }
      }
      RewindReport done =
          turndiff
              .rewind()
              .rewind(
                  new RewindRequest(turn.externalId(), false, Optional.empty(), false, false),
                  (id, resumed) -> announce(id, turn, workspaceRoot));
      if (human) {
        out.println("Workspace: " + workspaceRoot);
      }
      print(done, human, terminal, out);
      out.flush();
      // the report is out: now the sync that puts the rewind on the disk (RewindCommand's note)
      turndiff.rewind().makeDurable(done);
      return done.complete() ? ExitCode.OK.code() : ExitCode.SKIPPED.code();
    }
  }

  /**
   * The session's newest agent turn that is finished and not rewound: never a rewind (the undo of
   * an undo is {@code rewind --turn} of its rewind turn), nor a turn outside any turn (the user's
   * own edits between turns: undo takes back the agent's work, not the user's).
   */
  private static StoredTurn lastUndoable(StoredSession session, List<StoredTurn> turns) {
    return turns.reversed().stream()
        .filter(turn -> turn.kind() == TurnKind.AGENT && turn.state() == TurnState.FINISHED)
        .findFirst()
        .orElseThrow(
            () ->
                new RequestException(
                    RequestException.Problem.WRONG_STATE,
                    "session '"
                        + session.externalId()
                        + "' has no turn left to undo: each of its turns is open, rewound, a "
                        + "rewind, or outside any turn (turndiff rewind --turn REF rewinds any of"
                        + " them)"));
  }

  /** Which turn, when, and its title, before its plan. */
  private static String heading(Turndiff turndiff, StoredTurn turn, Terminal terminal) {
    TurnRecords records = turndiff.queries().records(turn.externalId());
    return "Undo "
        + terminal.paint(Terminal.BOLD, "#" + turn.seq())
        + " of session "
        + turn.sessionExternalId()
        + " ("
        + terminal.paint(Terminal.YELLOW, TurnTable.shortId(turn.externalId()))
        + ", "
        + RelativeTime.of(turn.beganAt(), turndiff.store().clock().instant())
        + "): "
        + TurnTitle.cut(
            TurnTitle.of(
                turn, records.title(), records.changes(), records.rewinds(), TurnTable::shortId),
            TurnTitle.WIDTH * 2)
        + "\n";
  }

  private static void print(
      RewindReport report, boolean human, Terminal terminal, PrintWriter out) {
    if (human) {
      out.print(new RewindReportText(terminal).of(report));
    } else {
      out.println(Json.write(WireRewindReport.of(report), false));
    }
    out.flush();
  }

  /**
   * Before the first write: the operation, the turn and its workspace, and how to finish it if this
   * process dies.
   */
  private void announce(String id, StoredTurn turn, String workspaceRoot) {
    PrintWriter err = spec.commandLine().getErr();
    err.println(
        "turndiff: rewind operation '"
            + id
            + "' of turn "
            + turn.externalId()
            + " in "
            + workspaceRoot
            + " is starting; if it is interrupted, run turndiff rewind --turn "
            + turn.externalId()
            + " --operation "
            + id
            + " to finish it");
    err.flush();
  }
}
