package io.turndiff.cli;

import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireStatus;
import io.turndiff.capture.track.IgnoredFilesSeen;
import io.turndiff.capture.track.PathChange;
import io.turndiff.capture.track.WorkspaceStatus;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.StoredTurn;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code turndiff status --workspace DIR}: what changed since the index, like {@code git status
 * --porcelain}.
 */
@Command(
    name = "status",
    description =
        "What changed in a tracked workspace since its index was written "
            + "(one line per path: A, M, D or T and the path; a '#' line after it names the open "
            + "turns it could belong to; --json for JSON). Writes nothing.")
final class StatusCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin WorkspaceOption workspace;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  @Override
  public Integer call() {
    try (StoreOptions.Queried queried = StoreOptions.of(spec).queried()) {
      Turndiff turndiff = queried.turndiff();
      WorkspaceStatus status = turndiff.status(workspace.orCurrentDirectory());
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        out.println(Json.write(WireStatus.of(status), false));
      } else {
        for (PathChange change : status.changes()) {
          out.println(change.letter() + " " + change.path().display());
          openTurns(status, change).ifPresent(out::println);
        }
        if (status.partial()) {
          out.println("# partially tracked: " + status.leftOut().size() + " subtrees left out");
        }
        overTheCap(status).ifPresent(out::println);
      }
    }
    return ExitCode.OK.code();
  }

  /**
   * The ignored files the index left out for their size, on a comment line: a turn that deletes one
   * records it without content, so a rewind cannot give it back.
   */
  private static Optional<String> overTheCap(WorkspaceStatus status) {
    IgnoredFilesSeen ignored = status.ignoredFiles();
    if (ignored.overCap().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        "# ignored files over "
            + ignored.maxBytes()
            + " bytes, not indexed: "
            + ignored.overCap().stream()
                .map(WorkspacePath::display)
                .collect(Collectors.joining(", ")));
  }

  /**
   * The open turns a change could belong to, on a comment line of its own after the change's
   * ({@code # x.txt could be turn A1 of session A, turn B1 of session B}), so a script reading
   * {@code X path} lines reads the path alone; nothing while no turn is open.
   */
  private static Optional<String> openTurns(WorkspaceStatus status, PathChange change) {
    List<StoredTurn> turns = status.couldBelongTo(change.path());
    if (turns.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        "# "
            + change.path().display()
            + " could be "
            + turns.stream()
                .map(
                    turn -> "turn " + turn.externalId() + " of session " + turn.sessionExternalId())
                .collect(Collectors.joining(", ")));
  }
}
