package io.turndiff.cli;

import io.turndiff.capture.CaptureService;
import io.turndiff.store.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code turndiff diff --turn ID [PATH…]}: the turn as a git patch. */
@Command(name = "diff", description = "Print a turn's changes as a patch that git apply can apply "
    + "(from the store only).")
final class DiffCommand implements Callable<Integer> {

  @Mixin
  StoreOptions storeOptions;

  @Spec
  CommandSpec spec;

  @Option(names = "--turn", required = true, paramLabel = "ID")
  String turn;

  @Parameters(paramLabel = "PATH", arity = "0..*", description = "Only these recorded paths.")
  List<String> paths = new ArrayList<>();

  @Override
  public Integer call() {
    try (Store store = storeOptions.openStore(); CaptureService capture = storeOptions.openCapture(store)) {
      spec.commandLine().getOut().print(capture.patch(turn, paths));
      spec.commandLine().getOut().flush();
    }
    return Main.EXIT_OK;
  }
}
