package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.fixtures.TreeContent;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Rewinds as real processes: the report and exit codes, and a rewind killed with SIGKILL then finished. */
class RewindProcessIT {

  @TempDir
  Path temp;

  private static final int FILES = 12;

  /** A finished turn that modified, deleted and created files; returns its id. */
  private static String turnOverManyFiles(TestWorkspace workspace, Map<String, String> env) throws Exception {
    for (int i = 0; i < FILES; i++) {
      workspace.file(String.format("src/f%02d.txt", i), "before " + i + "\n");
    }
    String turn = CliProcess.run(env, "turn", "begin", "--workspace", workspace.root().toString())
        .expect(0).json().get("turn").asText();
    List<String> args = new ArrayList<>(List.of("snapshot", "--turn", turn));
    for (int i = 0; i < FILES; i++) {
      args.add(String.format("src/f%02d.txt", i));
    }
    args.add("src/created.txt");
    CliProcess.run(env, args.toArray(String[]::new)).expect(0);
    for (int i = 0; i < FILES; i++) {
      Path file = workspace.resolve(String.format("src/f%02d.txt", i));
      if (i % 4 == 3) {
        Files.delete(file);
      } else {
        Files.writeString(file, "after " + i + "\n");
      }
    }
    workspace.file("src/created.txt", "created by the agent\n");
    CliProcess.run(env, "turn", "finish", "--turn", turn).expect(0);
    return turn;
  }

  /** A store, a workspace, the tree before a turn over many files, and that turn. */
  private record CrashableTurn(TestWorkspace workspace, Path database, Map<String, String> env,
                               Map<String, String> beforeTurn, String turn) {

    static CrashableTurn in(Path temp) throws Exception {
      TestWorkspace workspace = TestWorkspace.in(temp);
      Path database = temp.resolve("store/turndiff.db");
      Map<String, String> env = Map.of("TURNDIFF_DB", database.toString());
      for (int i = 0; i < FILES; i++) {
        workspace.file(String.format("src/f%02d.txt", i), "before " + i + "\n");
      }
      Map<String, String> beforeTurn = TreeContent.of(workspace.root());
      return new CrashableTurn(workspace, database, env, beforeTurn, turnOverManyFiles(workspace, env));
    }

    /** {@code turndiff rewind --turn T ARGS}, pausing 300 ms before each rename. */
    Process startRewind(String... args) throws IOException {
      List<String> command = new ArrayList<>(List.of("rewind", "--turn", turn));
      command.addAll(List.of(args));
      return CliProcess.start(Map.of("TURNDIFF_DB", database.toString(), TestHold.REWIND_PAUSE, "300"),
          command.toArray(String[]::new));
    }

    /** Kills the rewind with SIGKILL while it renames its staged files over their names, once two landed. */
    void killOnceUnderWay(Process rewind) throws Exception {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (restoredOnDisk(workspace) < 2) {
        assertTrue(System.nanoTime() < deadline && rewind.isAlive(), "the rewind got under way: " + journal(database));
        Thread.sleep(20);
      }
      rewind.destroyForcibly();
      assertTrue(rewind.waitFor(30, TimeUnit.SECONDS));
      assertEquals(137, rewind.exitValue(), "killed by SIGKILL mid-way");
    }
  }

  @Test
  void aRewindKilledMidWayIsFinishedByTheSameOperationId() throws Exception {
    CrashableTurn crashable = CrashableTurn.in(temp);
    TestWorkspace workspace = crashable.workspace();
    Path database = crashable.database();
    Map<String, String> env = crashable.env();
    Map<String, String> beforeTurn = crashable.beforeTurn();
    String turn = crashable.turn();
    crashable.killOnceUnderWay(crashable.startRewind("--operation", "op-crash"));
    Map<String, String> interrupted = TreeContent.of(workspace.root());
    assertNotEquals(beforeTurn, interrupted, "the rewind was interrupted before it finished");
    assertTrue(journal(database).matches("(\\d+=started )+"), "every path was journaled as started: "
        + journal(database));

    // a crashed write leaves its temporary file under the name the journal gives it: plant one, half written
    List<Path> planted = plantHalfWrittenTemporaries(database, workspace.root());
    assertFalse(planted.isEmpty(), "paths were journaled as started when the process died");

    CliRun finished = CliProcess.run(env, "rewind", "--turn", turn, "--operation", "op-crash").expect(0);
    JsonNode report = finished.json();
    assertFalse(report.get("replayed").asBoolean(), "it resumed the operation");
    assertEquals(FILES + 1, report.get("restored").size(), finished.out());
    assertEquals(beforeTurn, TreeContent.of(workspace.root()), "exactly as a clean rewind leaves it");
    for (Path temporary : planted) {
      assertFalse(Files.exists(temporary), "the half-written temporary was removed: " + temporary);
    }
    try (Stream<Path> files = Files.walk(workspace.root())) {
      assertTrue(files.noneMatch(path -> path.getFileName().toString().endsWith(".tmp")), "no temporary left");
    }

    CliRun replayed = CliProcess.run(env, "rewind", "--turn", turn, "--operation", "op-crash").expect(0);
    assertTrue(replayed.json().get("replayed").asBoolean());
    assertEquals(report.get("restored"), replayed.json().get("restored"));
    workspace.assertOutsideUnchanged();
  }

  @Test
  void aRewindKilledMidWayIsResumedByTheSameCommandWithoutItsOperationId() throws Exception {
    CrashableTurn crashable = CrashableTurn.in(temp);
    TestWorkspace workspace = crashable.workspace();
    Map<String, String> env = crashable.env();
    String turn = crashable.turn();
    Process rewind = crashable.startRewind();
    CompletableFuture<String> announced = CompletableFuture.supplyAsync(() -> {
      try {
        return new BufferedReader(new InputStreamReader(rewind.getErrorStream(), StandardCharsets.UTF_8)).readLine();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    crashable.killOnceUnderWay(rewind);
    try (Stream<Path> files = Files.walk(workspace.root())) {
      assertTrue(files.anyMatch(path -> path.getFileName().toString().startsWith(".turndiff-rewind-")),
          "the killed rewind left staged files behind");
    }

    CliRun forced = CliProcess.run(env, "rewind", "--turn", turn, "--force");
    assertEquals(1, forced.exitCode(), "another request for the turn is refused: " + forced.err());
    assertTrue(forced.err().contains("--operation "), "it names the unfinished operation: " + forced.err());

    CliRun again = CliProcess.run(env, "rewind", "--turn", turn).expect(0);
    assertEquals(crashable.beforeTurn(), TreeContent.of(workspace.root()),
        "the tree the turn started from, nothing staged");
    try (Stream<Path> files = Files.walk(workspace.root())) {
      assertTrue(files.noneMatch(path -> path.getFileName().toString().startsWith(".turndiff-")), "no temporary");
    }
    JsonNode report = again.json();
    assertTrue(report.get("complete").asBoolean(), again.out());
    String line = announced.get(30, TimeUnit.SECONDS);
    assertTrue(line != null && line.contains("'" + report.get("operation").asText() + "'"),
        "the killed process named the operation before its first write, and the second run resumed it: " + line
            + " / " + again.out());
    assertTrue(again.err().contains("resuming rewind operation '" + report.get("operation").asText() + "'"),
        again.err());
    assertFalse(report.get("replayed").asBoolean());
    workspace.assertOutsideUnchanged();
  }

  /** How many of the turn's edited files hold their before-state again. */
  private static int restoredOnDisk(TestWorkspace workspace) throws Exception {
    int restored = 0;
    for (int i = 0; i < FILES; i++) {
      Path file = workspace.resolve(String.format("src/f%02d.txt", i));
      if (i % 4 != 3 && Files.exists(file) && Files.readString(file).startsWith("before")) {
        restored++;
      }
    }
    return restored;
  }

  private static String journal(Path database) throws Exception {
    StringBuilder out = new StringBuilder();
    if (!Files.exists(database)) {
      return "";
    }
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database);
         ResultSet rows = connection.createStatement().executeQuery("SELECT id, status FROM rewind_entry")) {
      while (rows.next()) {
        out.append(rows.getLong(1)).append('=').append(rows.getString(2)).append(' ');
      }
    }
    return out.toString();
  }

  /** For each path journaled as started, a half-written file at its first temporary name. */
  private static List<Path> plantHalfWrittenTemporaries(Path database, Path root) throws Exception {
    List<Path> planted = new ArrayList<>();
    // read-write: the writer was killed, and a read-only connection cannot recover its WAL
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database);
         ResultSet rows = connection.createStatement().executeQuery(
             "SELECT id, CAST(path AS TEXT) FROM rewind_entry WHERE status = 'started'")) {
      while (rows.next()) {
        Path target = root.resolve(rows.getString(2));
        Path temporary = target.resolveSibling(".turndiff-rewind-" + rows.getLong(1) + ".tmp");
        Files.createDirectories(temporary.getParent());
        Files.writeString(temporary, "half wri");
        planted.add(temporary);
      }
    }
    return planted;
  }

  @Test
  void theReportAndItsExitCodes() throws Exception {
    TestWorkspace workspace = TestWorkspace.in(temp).file("a.txt", "a\n").file("b.txt", "b\n");
    workspace.symlink("leak.txt", workspace.secret().toString());
    Map<String, String> env = Map.of("TURNDIFF_DB", temp.resolve("store/turndiff.db").toString());
    String turn = CliProcess.run(env, "turn", "begin", "--workspace", workspace.root().toString())
        .expect(0).json().get("turn").asText();
    CliProcess.run(env, "snapshot", "--turn", turn, "a.txt", "b.txt", "leak.txt").expect(0);
    Files.writeString(workspace.resolve("a.txt"), "agent a\n");
    Files.writeString(workspace.resolve("b.txt"), "agent b\n");
    Files.delete(workspace.resolve("leak.txt"));
    CliProcess.run(env, "turn", "finish", "--turn", turn).expect(0);
    Files.writeString(workspace.resolve("b.txt"), "user b\n");

    CliRun dry = CliProcess.run(env, "rewind", "--turn", turn, "--dry-run").expect(3);
    assertTrue(dry.json().get("dry_run").asBoolean());
    assertEquals("agent a\n", Files.readString(workspace.resolve("a.txt")), "a dry run writes nothing");

    CliRun run = CliProcess.run(env, "rewind", "--turn", turn, "--operation", "op-1").expect(3);
    JsonNode report = run.json();
    assertEquals("op-1", report.get("operation").asText());
    assertEquals("a.txt", report.get("restored").get(0).asText());
    assertEquals(2, report.get("skipped").size(), run.out());
    JsonNode conflict = report.get("skipped").get(0);
    assertEquals("b.txt", conflict.get("path").asText());
    assertEquals("conflict", conflict.get("reason").asText());
    JsonNode escaped = report.get("skipped").get(1);
    assertEquals("leak.txt", escaped.get("path").asText());
    assertEquals("escapes_workspace", escaped.get("reason").asText());
    assertTrue(report.get("rewind_turn").asText().startsWith("turn-"));
    workspace.canary().assertNotIn("rewind output", run.out());

    CliProcess.run(env, "rewind", "--turn", turn, "--operation", "op-1", "--force").expect(2);
    CliRun forced = CliProcess.run(env, "rewind", "--turn", turn, "--force").expect(3);
    assertEquals("b.txt", forced.json().get("restored").get(1).asText(), forced.out());
    assertEquals("b\n", Files.readString(workspace.resolve("b.txt")));
    CliProcess.run(env, "rewind", "--turn", "no-such-turn").expect(1);
    workspace.assertOutsideUnchanged();
  }
}
