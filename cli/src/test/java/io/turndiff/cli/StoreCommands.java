package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.turndiff.api.ExitCode;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestWorkspace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Commands on a given store, run in this JVM: for the tests of damaged and read-only stores, and
 * for the process tests' setup where the process is not what the test is about (a turn recorded
 * before the rewind a test kills: a process per command costs about 2 s of CPU, docs/build.md).
 */
final class StoreCommands {

  private StoreCommands() {}

  /**
   * {@code turndiff <command words> --db DB <rest>}: {@code --db} is an option of each subcommand.
   */
  static CommandRun run(Path database, String... args) {
    return CliRun.inProcess(arguments(database, args));
  }

  /** {@code turndiff turn begin} of turn {@code turn} of {@code session} in {@code workspace}. */
  static CommandRun beginTurn(Path database, TestWorkspace workspace, String session, String turn) {
    return run(
        database,
        "turn",
        "begin",
        "--workspace",
        workspace.root().toString(),
        "--session",
        session,
        "--turn",
        turn);
  }

  static String[] arguments(Path database, String... args) {
    int words = args[0].equals("turn") ? 2 : 1;
    List<String> ordered = new ArrayList<>(List.of(args).subList(0, words));
    ordered.addAll(List.of("--db", database.toString()));
    ordered.addAll(List.of(args).subList(words, args.length));
    return ordered.toArray(String[]::new);
  }

  /**
   * Records, through the commands, a finished turn t1 of session s1 over {@code files} files of 600
   * random lines (f0.txt …), each changed, and an open turn t2.
   */
  static void recordTurns(Path database, TestWorkspace workspace, int files) throws Exception {
    List<String> names = new ArrayList<>();
    Random random = new Random(files);
    for (int i = 0; i < files; i++) {
      StringBuilder text = new StringBuilder();
      for (int line = 0; line < 600; line++) {
        text.append(Long.toHexString(random.nextLong())).append('\n');
      }
      workspace.file("f" + i + ".txt", text.toString());
      names.add("f" + i + ".txt");
    }
    beginTurn(database, workspace, "s1", "t1").expect(0);
    List<String> snapshot = new ArrayList<>(List.of("snapshot", "--turn", "t1"));
    snapshot.addAll(names);
    run(database, snapshot.toArray(String[]::new)).expect(0);
    for (String name : names) {
      Files.writeString(workspace.resolve(name), "changed\n", StandardOpenOption.APPEND);
    }
    run(database, "turn", "finish", "--turn", "t1").expect(0);
    run(
            database,
            "turn",
            "begin",
            "--workspace",
            workspace.root().toString(),
            "--session",
            "s1",
            "--turn",
            "t2")
        .expect(0);
  }

  /** Neither stream holds a stack trace or an exception's name. */
  static void assertNoStackTrace(CommandRun run) {
    for (String stream : new String[] {run.out(), run.err()}) {
      assertNoStackTrace(stream);
    }
  }

  static void assertNoStackTrace(String output) {
    assertFalse(
        output
            .lines()
            .anyMatch(line -> line.matches("\\s+at \\S+\\(.*\\)") || line.contains("Exception")),
        "a stack trace or an exception's name was printed:\n" + output);
  }

  /** Refused with exit 4 on stderr only, the message starting as given. */
  static void assertStoreRefused(CommandRun run, String messageStart) {
    run.expect(ExitCode.STORE.code());
    assertNoStackTrace(run);
    assertEquals("", run.out());
    assertFalse(run.err().lines().noneMatch(line -> line.startsWith(messageStart)), run.err());
  }
}
