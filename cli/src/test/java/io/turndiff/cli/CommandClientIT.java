package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.StoreRows;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command client ({@code bin/turndiff-hook-client --command}, hooks/src/main/c) against the
 * real service: each of {@code turns}, {@code show}, {@code diff}, {@code log} and {@code status},
 * human (on a terminal, through {@code script}'s pseudo-terminal) and JSON, with good and bad
 * input, prints through the service the very bytes, and exits with the very code, the jar prints
 * and exits with when it runs the same command line in its own JVM, in the same directory with the
 * same environment. Where the service must not answer (none runs, another store, an option it
 * leaves to the JVM, another command) the client exits 125 having printed nothing: the launchers'
 * signal to run the JVM.
 */
class CommandClientIT {

  private static final int DECLINED = 125;

  @TempDir Path temp;

  private Map<String, String> env;
  private Path client;
  private Path workspace;
  private Path database;

  @BeforeEach
  void setUp() throws Exception {
    client = HookTestStore.repository().resolve("bin/turndiff-hook-client");
    assumeTrue(
        Files.isExecutable(client), "the hook client is built only with a C compiler, on Linux");
    database = temp.resolve("data/turndiff.db");
    env = new HashMap<>();
    env.put("TURNDIFF_DB", database.toString());
    env.put("XDG_RUNTIME_DIR", temp.resolve("xdg-run").toString());
    env.put("HOME", temp.toString());
    env.put("TURNDIFF_HOOK_NO_START", "1");
    // a view through the pager is told by its lines
    env.put("TURNDIFF_PAGER", "sed 's/^/paged: /'");
    workspace = Files.createDirectories(temp.resolve("ws"));
    Files.writeString(workspace.resolve("kept.txt"), "one\ntwo\n");
    Files.writeString(workspace.resolve("gone.txt"), "bye\n");
    // the store is set up by the commands run in this JVM on it (StoreCommands): what this class
    // compares is the client against the jar's own process, not the setup (docs/build.md)
    StoreCommands.run(database, "track", "--workspace", workspace.toString()).expect(0);
    recordTurn();
    // dated three hours back: a view says "3 hours ago" on both sides of a comparison, where a turn
    // just made could be "just now" on one and "1 minute ago" on the other
    StoreRows.execute(
        database,
        "UPDATE turn SET began_at = began_at - 10800000, finished_at = finished_at - 10800000");
    // status has something to say
    Files.writeString(workspace.resolve("after.txt"), "later\n");
  }

  @AfterEach
  void tearDown() throws Exception {
    if (env != null) {
      ServiceCleanUp.stopServices(env);
    }
  }

  /** One turn that changes a file, adds one and deletes one. */
  private void recordTurn() throws Exception {
    StoreCommands.run(
            database,
            "turn",
            "begin",
            "--workspace",
            workspace.toString(),
            "--session",
            "s1",
            "--turn",
            "t1")
        .expect(0);
    // paths relative to the turn's workspace
    StoreCommands.run(database, "snapshot", "--turn", "t1", "kept.txt", "gone.txt", "new.txt")
        .expect(0);
    Files.writeString(workspace.resolve("kept.txt"), "one\n2\nthree\n");
    Files.delete(workspace.resolve("gone.txt"));
    Files.writeString(workspace.resolve("new.txt"), "fresh\n");
    StoreCommands.run(database, "turn", "finish", "--turn", "t1").expect(0);
  }

  /** What one run left: its exit code and the bytes of its standard output and error. */
  private record Printed(int exitCode, byte[] out, byte[] err) {

    /**
     * This run with the one value that differs from run to run of the same command anywhere: {@code
     * status --json}'s {@code elapsed_ms}, how long the comparison took.
     */
    Printed untimed() {
      String text = new String(out, StandardCharsets.UTF_8);
      String masked = text.replaceAll("\"elapsed_ms\":[0-9.E-]+", "\"elapsed_ms\":0");
      return masked.equals(text)
          ? this
          : new Printed(exitCode, masked.getBytes(StandardCharsets.UTF_8), err);
    }

    String describe() {
      return "exit "
          + exitCode
          + "\n--- out\n"
          + new String(out, StandardCharsets.UTF_8)
          + "--- err\n"
          + new String(err, StandardCharsets.UTF_8);
    }
  }

  private Printed printed(List<String> command, boolean terminal) throws Exception {
    List<String> run = command;
    if (terminal) {
      // a pseudo-terminal for stdin and stdout (stderr goes there too), as a person's shell gives
      String line =
          command.stream()
              .map(word -> "'" + word.replace("'", "'\\''") + "'")
              .collect(Collectors.joining(" "));
      run = List.of("script", "-qec", line, "/dev/null");
    }
    Path out = Files.createTempFile(temp, "out", "");
    Path err = Files.createTempFile(temp, "err", "");
    ProcessBuilder builder =
        new ProcessBuilder(run)
            .directory(workspace.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    builder.environment().remove("TURNDIFF_DB");
    builder.environment().putAll(env);
    builder.environment().put("TERM", "xterm-256color");
    Process process = builder.start();
    assertTrue(process.waitFor(2, TimeUnit.MINUTES), String.join(" ", command));
    return new Printed(process.exitValue(), Files.readAllBytes(out), Files.readAllBytes(err));
  }

  private Printed throughService(boolean terminal, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(client.toString(), "--command"));
    command.addAll(List.of(args));
    return printed(command, terminal);
  }

  private Printed inJvm(boolean terminal, String... args) throws Exception {
    return printed(CliProcess.builder(env, args).command(), terminal);
  }

  private void assertSame(boolean terminal, String... args) throws Exception {
    Printed served = throughService(terminal, args).untimed();
    Printed own = inJvm(terminal, args).untimed();
    String what = String.join(" ", args) + (terminal ? " (terminal)" : "");
    assertNotEquals(
        DECLINED, served.exitCode(), what + ": the service answered\n" + served.describe());
    assertEquals(own.describe(), served.describe(), what);
    assertEquals(own.exitCode(), served.exitCode(), what);
    assertArrayEquals(own.out(), served.out(), what);
    assertArrayEquals(own.err(), served.err(), what);
  }

  private void startService() throws Exception {
    CommandRun start = CliProcess.run(env, "service", "start");
    assertEquals(0, start.exitCode(), start.err());
  }

  @Test
  void everyServedCommandPrintsThroughTheServiceWhatItsOwnJvmPrints() throws Exception {
    startService();
    String root = workspace.toString();
    for (boolean terminal : List.of(false, true)) {
      assertSame(terminal, "turns");
      assertSame(terminal, "turns", "--json");
      assertSame(terminal, "turns", "--session", "s1", "--pretty");
      assertSame(terminal, "show", "--turn", "last", "--session", "s1");
      assertSame(terminal, "show", "--turn", "t1", "--json");
      assertSame(terminal, "diff", "--turn", "#1", "--session", "s1");
      assertSame(terminal, "diff", "--turn", "t1", "kept.txt");
      assertSame(terminal, "log", "kept.txt");
      assertSame(terminal, "log", "--workspace", root, "kept.txt", "--json");
      assertSame(terminal, "status");
      assertSame(terminal, "--db", database.toString(), "status", "--json");
    }
    // bad input: the same message and exit 2, wherever it runs
    assertSame(false, "show", "--turn", "nope");
    assertSame(false, "show");
    assertSame(false, "diff", "--turn", "t1", "--from", "t1");
    assertSame(false, "turns", "--limit", "many");
    assertSame(false, "log", "--workspace", temp.resolve("nowhere").toString(), "x");
    assertSame(false, "status", "--bogus");
  }

  /**
   * The workspace was tracked by a JVM of its own, so the service never wrote its index: its first
   * {@code status} walks the tree, and the next ones answer from the watcher (the names with an
   * event since, and those the last status found changed), still exactly what the JVM prints.
   */
  @Test
  void aStatusThroughTheServiceWalksTheTreeOnceThenAnswersFromTheWatcher() throws Exception {
    startService();
    assertSame(false, "status");
    JsonNode first = watch();
    assumeTrue(first.get("workspaces").asInt() == 1, "inotify is available here");
    assertEquals(1, first.get("full_scans").asLong(), first.toString());
    // why the tree was walked, on the screen as in the JSON (a watcher that stopped is told from a
    // first walk only there)
    assertEquals(1, first.get("fallbacks").size(), first.toString());
    String why = first.get("fallbacks").fieldNames().next();
    CommandRun screen = CliProcess.run(env, "service", "status");
    assertEquals(0, screen.exitCode(), screen.err());
    assertTrue(
        screen.out().contains("\nfull scans by reason: " + why + ": 1\n"),
        why + " in " + screen.out());
    Files.writeString(workspace.resolve("later.txt"), "even later\n");
    Files.delete(workspace.resolve("kept.txt"));
    assertSame(false, "status");
    assertSame(false, "status", "--json");
    JsonNode after = watch();
    assertEquals(1, after.get("full_scans").asLong(), "one walk of the tree: " + after);
    assertEquals(2, after.get("watched_scans").asLong(), after.toString());
  }

  /** What the service's watcher did, from {@code service status --json}. */
  private JsonNode watch() throws Exception {
    CommandRun status = CliProcess.run(env, "service", "status", "--json");
    assertEquals(0, status.exitCode(), status.err());
    return Json.mapper().readTree(status.out()).get("service").get("watch");
  }

  @Test
  void whatTheServiceMustNotAnswerIsLeftToTheJvmWithNothingPrinted() throws Exception {
    Printed noService = throughService(false, "turns", "--json");
    assertEquals(DECLINED, noService.exitCode(), noService.describe());
    assertEquals(0, noService.out().length + noService.err().length);
    startService();
    assertNotEquals(DECLINED, throughService(false, "turns", "--json").exitCode());
    Path other = temp.resolve("other.db");
    for (String[] args :
        List.of(
            new String[] {"--db", other.toString(), "turns"},
            new String[] {"turns", "--workspace", "."},
            new String[] {"status", "--size-limit", "10"},
            new String[] {"--help"},
            new String[] {"--version"},
            new String[] {"blame", "kept.txt"},
            new String[] {"rewind", "--turn", "t1", "--dry-run"})) {
      Printed left = throughService(false, args);
      assertEquals(DECLINED, left.exitCode(), String.join(" ", args) + "\n" + left.describe());
      assertEquals(0, left.out().length + left.err().length, String.join(" ", args));
    }
  }
}
