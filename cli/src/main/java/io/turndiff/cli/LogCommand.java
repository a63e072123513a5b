package io.turndiff.cli;

import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireHistoryEntry;
import io.turndiff.model.PathInput;
import io.turndiff.review.HistoryEntry;
import io.turndiff.store.StoredTurn;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code turndiff log PATH}: every turn that touched a path, as {@code git log --stat} on a
 * terminal (through the pager), as JSON otherwise.
 */
@Command(
    name = "log",
    description =
        "Every turn that recorded a path, oldest first, with its change and stats: as git log "
            + "--stat on a terminal (through $PAGER), a JSON array with --json or when the output "
            + "is not a terminal.")
final class LogCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin WorkspaceOption workspace;

  @Parameters(
      paramLabel = "PATH",
      description =
          "A path relative to the workspace, or absolute; '.' and '..' are "
              + "applied to the name.")
  String path;

  @Option(names = "--pretty", description = "Indent the JSON.")
  boolean pretty;

  @Option(names = "--json", description = "Print JSON, also on a terminal.")
  boolean json;

  @Override
  public Integer call() {
    Terminal terminal = Main.terminal(spec);
    try (StoreOptions.Queried queried = StoreOptions.of(spec).queried()) {
      Turndiff turndiff = queried.turndiff();
      Path root = workspace.orCurrentDirectory();
      PathInput given = PathInput.text(path);
      List<HistoryEntry> history = turndiff.queries().log(root, given);
      if (terminal.interactive() && !json && !pretty) {
        terminal.page(human(history, turndiff, terminal), spec.commandLine().getOut());
      } else {
        spec.commandLine().getOut().println(Json.write(WireHistoryEntry.of(history), pretty));
      }
    }
    return ExitCode.OK.code();
  }

  /**
   * Each turn as git log shows a commit: the id, session and number, when, title, the file's stat.
   */
  private static String human(List<HistoryEntry> history, Turndiff turndiff, Terminal terminal) {
    Instant now = turndiff.store().clock().instant();
    FileStat stat = new FileStat(terminal);
    StringBuilder text = new StringBuilder();
    for (HistoryEntry entry : history) {
      StoredTurn turn = entry.turn();
      var records = turndiff.queries().records(turn.externalId());
      String standing = TurnTable.standing(turn, entry.rewinds(), TurnTable::shortId);
      if (!text.isEmpty()) {
        text.append('\n');
      }
      text.append(terminal.paint(Terminal.YELLOW, "turn " + turn.externalId()))
          .append(standing.isEmpty() ? "" : " (" + standing + ")")
          .append("\nSession: ")
          .append(turn.sessionExternalId())
          .append(" #")
          .append(turn.seq())
          .append("\nDate:    ")
          .append(RelativeTime.of(turn.beganAt(), now))
          .append(" (")
          .append(RelativeTime.exact(turn.beganAt()))
          .append(")\n\n    ")
          .append(
              Terminal.printable(
                  TurnTitle.of(
                      turn,
                      records.title(),
                      records.changes(),
                      records.rewinds(),
                      TurnTable::shortId)))
          .append("\n\n")
          .append(stat.of(List.of(entry.change())));
    }
    return text.toString();
  }
}
