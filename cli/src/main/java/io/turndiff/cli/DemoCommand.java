package io.turndiff.cli;

import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireBeganTurn;
import io.turndiff.api.wire.WireFileRecord;
import io.turndiff.api.wire.WireTurnSummary;
import io.turndiff.api.wire.WireVerdict;
import io.turndiff.capture.BeganTurn;
import io.turndiff.capture.CaptureService;
import io.turndiff.capture.SnapshotVerdict;
import io.turndiff.capture.TurnSummary;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code turndiff demo}: one real turn, end to end, on the store. It lays out a small workspace in
 * a temp dir beside an outside "credentials" file that a symlink in the workspace points to ({@link
 * DemoWorkspace}), then acts as an agent would: snapshots, edits, creates, deletes, finishes, and
 * prints what the store recorded and the patch.
 */
@Command(
    name = "demo",
    description = "Run one real turn end to end on the store and print what it recorded.")
final class DemoCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    byte[] random = new byte[12];
    ThreadLocalRandom.current().nextBytes(random);
    String secret = "DEMO_SECRET=" + HexFormat.of().formatHex(random);
    DemoWorkspace demo = DemoWorkspace.create(secret);
    Path workspace = demo.root();
    Path outside = demo.outside();

    Path database = StoreOptions.of(spec).location();
    out.println("workspace: " + workspace);
    out.println(
        "outside:   "
            + outside.resolve("credentials.env")
            + "  (workspace/config.env is a symlink to it)");
    out.println("store:     " + database);
    try (Turndiff turndiff = StoreOptions.of(spec).open()) {
      CaptureService capture = turndiff.capture();
      BeganTurn began =
          capture.beginTurn(
              workspace,
              Optional.of("demo-" + HexFormat.of().formatHex(random, 0, 4)),
              Optional.empty());
      out.println();
      out.println("$ turndiff turn begin --workspace " + workspace);
      out.println(Json.write(WireBeganTurn.of(began), false));

      List<SnapshotVerdict> verdicts = new ArrayList<>();
      verdicts.addAll(
          capture.snapshot(began.turn(), Optional.of("edit-app"), List.of("src/app.py")));
      demo.write(
          "src/app.py",
          String.join(
              "\n",
              "def greet(name, punctuation='!'):",
              "    return 'hello ' + name + punctuation",
              "",
              "",
              "if __name__ == '__main__':",
              "    print(greet('world'))",
              ""));
      verdicts.addAll(
          capture.snapshot(began.turn(), Optional.of("write-docs"), List.of("docs/usage.md")));
      demo.write("docs/usage.md", "Run `python src/app.py`.\n");
      verdicts.addAll(
          capture.snapshot(began.turn(), Optional.of("remove-util"), List.of("src/util.py")));
      demo.delete("src/util.py");
      verdicts.addAll(
          capture.snapshot(began.turn(), Optional.of("read-config"), List.of("config.env")));
      out.println();
      out.println(
          "$ turndiff snapshot ...   (4 tool calls: edit src/app.py, create docs/usage.md, "
              + "delete src/util.py, touch config.env)");
      out.println(Json.write(WireVerdict.of(verdicts), true));

      TurnSummary summary = capture.finishTurn(began.turn());
      out.println();
      out.println("$ turndiff turn finish --turn " + began.turn());
      out.println(Json.write(WireTurnSummary.of(summary), false));

      String records =
          Json.write(WireFileRecord.of(turndiff.queries().records(began.turn()).changes()), true);
      out.println();
      out.println("$ turndiff show --turn " + began.turn());
      out.println(records);

      String patch = turndiff.queries().patch(began.turn(), List.of());
      out.println();
      out.println("$ turndiff diff --turn " + began.turn());
      out.print(patch);

      turndiff.store().checkpoint();
      int found =
          DemoWorkspace.occurrences(secret, database)
              + DemoWorkspace.occurrences(
                  secret, database.resolveSibling(database.getFileName() + "-wal"))
              + (records.contains(secret) ? 1 : 0)
              + (patch.contains(secret) ? 1 : 0);
      out.println();
      out.println(
          "canary: the outside secret appears "
              + found
              + " times in the store file, its WAL, "
              + "the records and the patch");
      out.flush();
      return found == 0 ? ExitCode.OK.code() : ExitCode.ERROR.code();
    }
  }
}
