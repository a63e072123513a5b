package io.turndiff.cli;

import io.turndiff.api.ExitCode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireBlame;
import io.turndiff.model.PathInput;
import io.turndiff.review.BlamedTurn;
import io.turndiff.review.FileBlame;
import io.turndiff.review.LineOrigin;
import io.turndiff.store.StoredTurn;
import java.io.PrintWriter;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code turndiff blame PATH}: who last wrote each line of a file. */
@Command(
    name = "blame",
    description =
        "For each line of a file as it is now, the turn that last wrote it (or 'before any turn', "
            + "'outside any turn'), from the stored states; --json for JSON. Writes nothing.")
final class BlameCommand implements Callable<Integer> {

  private static final DateTimeFormatter WHEN =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneId.systemDefault());

  @Spec CommandSpec spec;

  @Mixin WorkspaceOption workspace;

  @Parameters(
      paramLabel = "PATH",
      description =
          "A path relative to the workspace, or absolute; '.' and '..' are applied to the name.")
  String path;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  @Override
  public Integer call() {
    try (Turndiff turndiff = StoreOptions.of(spec).open()) {
      FileBlame blame = turndiff.blame(workspace.orCurrentDirectory(), PathInput.text(path));
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        out.println(Json.write(WireBlame.of(blame), false));
      } else {
        print(blame, out);
      }
    }
    return ExitCode.OK.code();
  }

  /**
   * As {@code git blame} prints it: who wrote the line (the turn's id, its session and number in
   * it, when it began), the line's number, the line.
   */
  private static void print(FileBlame blame, PrintWriter out) {
    List<String> who = blame.lines().stream().map(line -> who(line.origin())).toList();
    int width = who.stream().mapToInt(String::length).max().orElse(0);
    int numberWidth = Integer.toString(blame.lines().size()).length();
    for (int i = 0; i < who.size(); i++) {
      FileBlame.BlamedLine line = blame.lines().get(i);
      out.printf(
          "%-" + width + "s %" + numberWidth + "d) %s%n", who.get(i), line.number(), line.text());
    }
  }

  private static String who(LineOrigin origin) {
    return switch (origin.kind()) {
      case TURN -> named(origin.turn().orElseThrow());
      case BEFORE_ANY_TURN -> "before any turn";
      // an outside turn recorded the user's edit: the line names it, as git blame names a commit
      case OUTSIDE_ANY_TURN ->
          origin.turn().map(turn -> "outside any turn " + named(turn)).orElse("outside any turn");
      case NOT_KNOWN -> "not known (a state before was not captured)";
    };
  }

  /** The turn's id, its session and number in it, its runtime when known, when it began. */
  private static String named(BlamedTurn blamed) {
    StoredTurn turn = blamed.turn();
    String runtime = blamed.runtime().map(name -> " " + name).orElse("");
    return turn.externalId()
        + " ("
        + turn.sessionExternalId()
        + " #"
        + turn.seq()
        + runtime
        + " "
        + WHEN.format(turn.beganAt())
        + ")";
  }
}
