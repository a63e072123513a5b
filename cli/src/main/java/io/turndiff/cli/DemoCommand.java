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
import io.turndiff.store.StoreAddress.SqliteFile;
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
 * {@code turndiff demo}: one real turn, end to end. It lays out a small workspace in a temp dir
 * beside an outside "credentials" file that a symlink in the workspace points to ({@link
 * DemoWorkspace}), then acts as an agent would: snapshots, edits, creates, deletes, finishes, and
 * prints what the store recorded and the patch.
 *
 * <p>A demo is something to try, not a record to keep: unless {@code --db} names a store, the turn
 * goes into a temporary store in the demo's temp dir, not into the user's default store (where it
 * would sit in {@code turns} and the panel for good, naming a workspace that is gone). Either way
 * the temp dir — workspace, outside file, temporary store — is removed at the end, also when the
 * demo fails; with {@code --db} the store keeps the turn.
 */
@Command(
    name = "demo",
    description =
        "Run one real turn end to end and print what it recorded; on a temporary store that is "
            + "removed with the demo's workspace, unless --db names the store to keep it in.")
final class DemoCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    byte[] random = new byte[12];
    ThreadLocalRandom.current().nextBytes(random);
    String secret = "DEMO_SECRET=" + HexFormat.of().formatHex(random);
    StoreOptions options = StoreOptions.of(spec);
    DemoWorkspace demo = DemoWorkspace.create(secret);
    try {
      Path database = options.storeGiven() ? options.location() : demo.temporaryStore();
      out.println("workspace: " + demo.root());
      out.println(
          "outside:   "
              + demo.outside().resolve("credentials.env")
              + "  (workspace/config.env is a symlink to it)");
      out.println(
          "store:     "
              + database
              + (options.storeGiven() ? "" : "  (temporary: give --db FILE to keep the turn)"));
      int found;
      try (Turndiff turndiff =
          options.storeGiven() ? options.open() : options.open(new SqliteFile(database))) {
        found = playTurn(out, turndiff, demo, random, secret, database);
      }
      out.println(
          "canary: the outside secret appears "
              + found
              + " times in the store file, its WAL, "
              + "the records and the patch");
      return found == 0 ? ExitCode.OK.code() : ExitCode.ERROR.code();
    } finally {
      demo.remove();
      out.println(
          "removed: the demo's workspace"
              + (options.storeGiven() ? "" : " and its temporary store")
              + " ("
              + demo.root().getParent()
              + ")");
      out.flush();
    }
  }

  /**
   * Plays the agent's turn on {@code turndiff}, printing each step's command and what it answered;
   * returns how many times {@code secret} was found in the store's files, the records and the
   * patch.
   */
  private static int playTurn(
      PrintWriter out,
      Turndiff turndiff,
      DemoWorkspace demo,
      byte[] random,
      String secret,
      Path database)
      throws IOException {
    Path workspace = demo.root();
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
    verdicts.addAll(capture.snapshot(began.turn(), Optional.of("edit-app"), List.of("src/app.py")));
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
    out.println();

    turndiff.store().checkpoint();
    return DemoWorkspace.occurrences(secret, database)
        + DemoWorkspace.occurrences(
            secret, database.resolveSibling(database.getFileName() + "-wal"))
        + (records.contains(secret) ? 1 : 0)
        + (patch.contains(secret) ? 1 : 0);
  }
}
