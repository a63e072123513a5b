package io.turndiff.bench.cli;

import io.turndiff.api.Json;
import java.io.PrintWriter;
import java.util.function.Consumer;
import java.util.function.Supplier;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code --json}, shared by the benchmarks that print figures: a run's figures as text for a
 * person, or as JSON for a script, on the command's standard output.
 */
final class FiguresOutput {

  @Spec(Spec.Target.MIXEE)
  CommandSpec command;

  @Option(names = "--json", description = "Print the figures as JSON.")
  boolean json;

  /**
   * Prints a run's figures as the command line asks ({@code json} their JSON tree, {@code text}
   * their text) and flushes the output: the run's progress went to stderr meanwhile.
   */
  void print(Supplier<?> json, Consumer<PrintWriter> text) {
    PrintWriter out = command.commandLine().getOut();
    if (this.json) {
      out.println(Json.write(json.get(), true));
    } else {
      text.accept(out);
    }
    out.flush();
  }
}
