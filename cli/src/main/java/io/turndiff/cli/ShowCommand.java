package io.turndiff.cli;

import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireFileRecord;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code turndiff show --turn ID}: the turn's file records as JSON. */
@Command(
    name = "show",
    description = "Print a turn's file records as a JSON array (from the store only).")
final class ShowCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--turn", required = true, paramLabel = "ID")
  String turn;

  @Option(names = "--pretty", description = "Indent the JSON.")
  boolean pretty;

  @Override
  public Integer call() {
    try (Turndiff turndiff = StoreOptions.of(spec).open()) {
      spec.commandLine()
          .getOut()
          .println(
              Json.write(WireFileRecord.of(turndiff.queries().records(turn).changes()), pretty));
    }
    return ExitCode.OK.code();
  }
}
