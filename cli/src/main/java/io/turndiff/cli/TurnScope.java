package io.turndiff.cli;

import io.turndiff.api.Turndiff;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code --workspace DIR} and {@code --session ID} for the commands that take a turn: where {@code
 * last}, {@code last~N} and {@code #N} count ({@link TurnReference}). A whole id or the beginning
 * of one needs neither.
 */
final class TurnScope {

  @Option(
      names = "--workspace",
      paramLabel = "DIR",
      description =
          "Where last, last~N and #N count (default: the current directory, or the nearest "
              + "directory above it with turns).")
  Path workspace;

  @Option(
      names = "--session",
      paramLabel = "ID",
      description =
          "The session last, last~N and #N count in (default: the workspace's one session with "
              + "recent turns).")
  String session;

  @Spec(Spec.Target.MIXEE)
  CommandSpec command;

  Path workspaceOrCurrentDirectory() {
    return workspace != null ? workspace : Main.currentDirectory(command);
  }

  /** The references of this command line, over {@code turndiff}'s store. */
  TurnReference references(Turndiff turndiff) {
    return new TurnReference(
        turndiff, workspaceOrCurrentDirectory(), workspace == null, Optional.ofNullable(session));
  }
}
