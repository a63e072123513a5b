package io.turndiff.cli;

import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireSessionTurns;
import io.turndiff.api.wire.WireTurnPage;
import io.turndiff.review.SessionListing;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code turndiff turns [--workspace DIR] [--session ID]}: sessions and their turns. */
@Command(
    name = "turns",
    description =
        "List a session's turns, or every session of a workspace with its turns "
            + "(from the store only).")
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

  @Override
  public Integer call() {
    try (Turndiff turndiff = StoreOptions.of(spec).open()) {
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
}
