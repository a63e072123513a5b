package io.turndiff.cli;

import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireBeganTurn;
import io.turndiff.api.wire.WireTurnSummary;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code turndiff turn begin|finish}. */
@Command(
    name = "turn",
    description = "Begin or finish a turn.",
    subcommands = {TurnCommand.Begin.class, TurnCommand.Finish.class})
final class TurnCommand {

  @Command(
      name = "begin",
      description = "Begin a turn in a workspace; prints {session, turn, seq}.")
  static final class Begin implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(
        names = "--workspace",
        required = true,
        paramLabel = "DIR",
        description = "The workspace root.")
    Path workspace;

    @Option(
        names = "--session",
        paramLabel = "ID",
        description = "The session (created on first use; " + "a new one when omitted).")
    String session;

    @Option(
        names = "--turn",
        paramLabel = "ID",
        description = "The turn's id (generated when omitted).")
    String turn;

    @Override
    public Integer call() {
      try (Turndiff turndiff = StoreOptions.of(spec).open()) {
        spec.commandLine()
            .getOut()
            .println(
                Json.write(
                    WireBeganTurn.of(
                        turndiff
                            .capture()
                            .beginTurn(
                                workspace,
                                Optional.ofNullable(session),
                                Optional.ofNullable(turn))),
                    false));
      }
      return ExitCode.OK.code();
    }
  }

  @Command(name = "finish", description = "Finish a turn: after-states, diffs; prints a summary.")
  static final class Finish implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--turn", required = true, paramLabel = "ID")
    String turn;

    @Override
    public Integer call() {
      try (Turndiff turndiff = StoreOptions.of(spec).open()) {
        spec.commandLine()
            .getOut()
            .println(Json.write(WireTurnSummary.of(turndiff.capture().finishTurn(turn)), false));
      }
      return ExitCode.OK.code();
    }
  }
}
