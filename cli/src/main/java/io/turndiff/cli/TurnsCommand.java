package io.turndiff.cli;

import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireSessionTurns;
import io.turndiff.api.wire.WireTurnPage;
import io.turndiff.review.SessionListing;
import io.turndiff.review.TurnPage;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code turndiff turns [--workspace DIR] [--session ID] [--json]}: sessions and their turns, as a
 * table on a terminal and as JSON otherwise.
 */
@Command(
    name = "turns",
    description =
        "List a session's turns, or every session of a workspace with its turns "
            + "(from the store only): a table on a terminal, JSON with --json or when the output "
            + "is not a terminal.")
final class TurnsCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin WorkspaceOption workspace;

  @Option(names = "--session", paramLabel = "ID", description = "Only this session.")
  String session;

  @Option(
      names = "--after",
      paramLabel = "SEQ",
      defaultValue = "0",
      description = "Turns numbered after SEQ.")
  long after;

  @Option(
      names = "--limit",
      paramLabel = "N",
      defaultValue = "100",
      description = "At most N turns per session.")
  int limit;

  @Option(names = "--pretty", description = "Indent the JSON.")
  boolean pretty;

  @Option(names = "--json", description = "Print JSON, also on a terminal.")
  boolean json;

  @Override
  public Integer call() {
    Terminal terminal = Main.terminal(spec);
    try (StoreOptions.Queried queried = StoreOptions.of(spec).queried()) {
      Turndiff turndiff = queried.turndiff();
      if (terminal.interactive() && !json && !pretty) {
        spec.commandLine().getOut().print(table(turndiff, terminal));
        spec.commandLine().getOut().flush();
        return ExitCode.OK.code();
      }
      Object output;
      if (session != null) {
        output = WireTurnPage.of(turndiff.queries().turns(session, after, limit));
      } else {
        Path root = workspace.orCurrentDirectory();
        List<SessionListing> sessions = turndiff.queries().sessions(root);
        output =
            WireSessionTurns.Listing.of(
                root,
                sessions,
                listing -> turndiff.queries().turns(listing.session().externalId(), after, limit));
      }
      spec.commandLine().getOut().println(Json.write(output, pretty));
    }
    return ExitCode.OK.code();
  }

  /** The human view: the session's table, or each session of the workspace with its table. */
  private String table(Turndiff turndiff, Terminal terminal) {
    TurnTable table = new TurnTable(turndiff, terminal);
    StringBuilder text = new StringBuilder();
    if (session != null) {
      Shown shown = shown(turndiff, session);
      text.append(terminal.paint(Terminal.BOLD, "session " + session))
          .append("  ")
          .append(Terminal.printable(shown.page().workspace()))
          .append('\n')
          .append(shown.earlier())
          .append(table.rows(shown.page()))
          .append(more(shown.page()));
      return text.toString();
    }
    Path root = workspace.orCurrentDirectory();
    List<SessionListing> sessions = turndiff.queries().sessions(root);
    Instant now = turndiff.store().clock().instant();
    text.append(Terminal.printable(root.toString())).append('\n');
    for (SessionListing listing : sessions) {
      String id = listing.session().externalId();
      Shown shown = shown(turndiff, id);
      text.append('\n')
          .append(terminal.paint(Terminal.BOLD, "session " + id))
          .append("  ")
          .append(RelativeTime.count(listing.turns(), "turn"))
          .append(
              listing.lastTurnAt().map(at -> ", the last " + RelativeTime.of(at, now)).orElse(""))
          .append('\n')
          .append(shown.earlier())
          .append(table.rows(shown.page()))
          .append(more(shown.page()));
    }
    return text.toString();
  }

  /** A page of turns as a person sees it, with the line that says there are earlier ones. */
  private record Shown(TurnPage page, String earlier) {}

  /**
   * The turns a person sees: those after {@code --after} when it is given, else the newest {@code
   * --limit} (the JSON pages from the first turn, as it always did).
   */
  private Shown shown(Turndiff turndiff, String id) {
    long from = after;
    if (!spec.commandLine().getParseResult().hasMatchedOption("--after")) {
      from = turndiff.queries().afterForNewest(id, limit);
    }
    return new Shown(
        turndiff.queries().turns(id, from, limit),
        from == 0 ? "" : "  … earlier turns with --session " + id + " --after 0\n");
  }

  private static String more(TurnPage page) {
    return page.nextAfter()
        .map(next -> "  … more with --session " + page.session() + " --after " + next + "\n")
        .orElse("");
  }
}
