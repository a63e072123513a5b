package io.turndiff.cli;

import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireFileRecord;
import io.turndiff.hooks.HookSightings;
import io.turndiff.model.TurnKind;
import io.turndiff.review.TurnRecords;
import io.turndiff.store.StoredTurn;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code turndiff show --turn REF}: the turn and its files with their stats on a terminal, its file
 * records as JSON otherwise.
 */
@Command(
    name = "show",
    description =
        "Print a turn's files with their changed lines on a terminal; its file records as a JSON "
            + "array with --json or when the output is not a terminal (from the store only).")
final class ShowCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--turn",
      required = true,
      paramLabel = "REF",
      description = "The turn: its id or the beginning of it, last, last~N, or #N.")
  String turn;

  @Mixin TurnScope scope;

  @Option(names = "--pretty", description = "Indent the JSON.")
  boolean pretty;

  @Option(names = "--json", description = "Print JSON, also on a terminal.")
  boolean json;

  @Override
  public Integer call() {
    Terminal terminal = Main.terminal(spec);
    try (StoreOptions.Queried queried = StoreOptions.of(spec).queried()) {
      Turndiff turndiff = queried.turndiff();
      TurnRecords records = turndiff.queries().records(scope.references(turndiff).resolve(turn));
      if (terminal.interactive() && !json && !pretty) {
        spec.commandLine().getOut().print(human(records, turndiff, terminal));
        spec.commandLine().getOut().flush();
      } else {
        spec.commandLine()
            .getOut()
            .println(Json.write(WireFileRecord.of(records, turndiff.queries()), pretty));
      }
    }
    return ExitCode.OK.code();
  }

  /**
   * The rest of the prompt below its title (its first line that is not blank), indented as {@code
   * git show} gives a commit message's body; its control characters shown, never sent to the
   * terminal.
   */
  private static String promptBody(String prompt) {
    List<String> lines = prompt.strip().lines().toList();
    if (lines.size() < 2) {
      return "";
    }
    return lines.subList(1, lines.size()).stream()
            .map(line -> line.isBlank() ? "" : "    " + Terminal.printable(line))
            .collect(Collectors.joining("\n"))
            .replaceFirst("^\n+", "")
        + "\n\n";
  }

  /**
   * For a turn outside any turn, the standing warnings such changes raised for the runtimes whose
   * process ran in the workspace then (docs/runtime-hooks.md, "hooks status"): who may have made
   * them with no hook arriving.
   */
  private static String outsideWarnings(TurnRecords records, Turndiff turndiff) {
    if (records.turn().kind() != TurnKind.OUTSIDE) {
      return "";
    }
    return HookSightings.outsideTurnWarnings(turndiff.store(), Path.of(records.workspaceRoot()))
        .stream()
        .map(warning -> "    WARNING: " + Terminal.printable(warning) + "\n\n")
        .collect(Collectors.joining());
  }

  /** A header as {@code git show} gives a commit, the title, and the files' stats. */
  static String human(TurnRecords records, Turndiff turndiff, Terminal terminal) {
    StoredTurn turn = records.turn();
    String title =
        TurnTitle.of(
            turn,
            records.title(),
            records.changes(),
            records.rewinds(),
            id -> id.equals(turn.externalId()) ? "#" + turn.seq() : TurnTable.shortId(id));
    return terminal.paint(Terminal.YELLOW, "turn " + turn.externalId())
        + "\n"
        + "Session: "
        + turn.sessionExternalId()
        + " #"
        + turn.seq()
        + switch (turn.kind()) {
          case REWIND -> " (rewind)";
          case OUTSIDE -> " (" + TurnTitle.OUTSIDE + ")";
          case AGENT -> "";
        }
        + ", "
        + turn.state().code()
        + turn.ending()
            .map(ending -> " by turndiff (" + ending.reason() + ": " + ending.explanation() + ")")
            .orElse("")
        + "\n"
        + "Where:   "
        + Terminal.printable(records.workspaceRoot())
        + "\n"
        + "Date:    "
        + RelativeTime.of(turn.beganAt(), turndiff.store().clock().instant())
        + " ("
        + RelativeTime.exact(turn.beganAt())
        + ")\n\n    "
        + Terminal.printable(title)
        + "\n\n"
        + records.prompt().map(ShowCommand::promptBody).orElse("")
        + outsideWarnings(records, turndiff)
        + new FileStat(terminal)
            .of(
                records.changes(),
                turndiff.queries().renames(records),
                rename -> turndiff.queries().renamePatch(records, rename))
        + ChangeCalls.of(records.changes());
  }
}
