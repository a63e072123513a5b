package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.fixtures.TreeContent;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Rewinds as real processes: the report and exit codes, and a rewind killed with SIGKILL then
 * finished.
 */
// its tests run at once (cli/pom.xml, Failsafe): each test has its own store and workspace in its
// own temp dir
@Execution(ExecutionMode.CONCURRENT)
class RewindProcessIT {

  @TempDir Path temp;

  private static final int FILES = 12;

  /** What a test does to the workspace while a turn records it. */
  @FunctionalInterface
  private interface Edit {
    void run() throws Exception;
  }

  /**
   * A finished turn of {@code workspace} on the store {@code database}: begun, {@code paths}
   * snapshotted, {@code edit} run, finished; returns its id. The turn is recorded by the commands
   * run in this JVM ({@link StoreCommands}) on the store the processes then use: what these tests
   * run as processes is the rewind, and a process per setup command cost about 2 s of CPU each
   * (docs/build.md, "What CI costs").
   */
  private static String recordedTurn(
      TestWorkspace workspace, Path database, List<String> paths, Edit edit) throws Exception {
    String turn =
        StoreCommands.run(database, "turn", "begin", "--workspace", workspace.root().toString())
            .expect(0)
            .json()
            .get("turn")
            .asText();
    List<String> args = new ArrayList<>(List.of("snapshot", "--turn", turn));
    args.addAll(paths);
    StoreCommands.run(database, args.toArray(String[]::new)).expect(0);
    edit.run();
    StoreCommands.run(database, "turn", "finish", "--turn", turn).expect(0);
    return turn;
  }

  /** A store, a workspace, the tree before a turn, and that turn: what a crash test rewinds. */
  private record CrashableTurn(
      TestWorkspace workspace,
      Path database,
      Map<String, String> env,
      Map<String, String> beforeTurn,
      String turn) {

    /** A turn over {@link #FILES} files that modified, deleted and created files. */
    static CrashableTurn overManyFiles(Path temp) throws Exception {
      TestWorkspace workspace = TestWorkspace.in(temp);
      List<String> paths = new ArrayList<>();
      for (int i = 0; i < FILES; i++) {
        workspace.file(String.format("src/f%02d.txt", i), "before " + i + "\n");
        paths.add(String.format("src/f%02d.txt", i));
      }
      paths.add("src/created.txt");
      return recorded(
          temp,
          workspace,
          paths,
          () -> {
            for (int i = 0; i < FILES; i++) {
              Path file = workspace.resolve(String.format("src/f%02d.txt", i));
              if (i % 4 == 3) {
                Files.delete(file);
              } else {
                Files.writeString(file, "after " + i + "\n");
              }
            }
            workspace.file("src/created.txt", "created by the agent\n");
          });
    }

    /**
     * A turn that replaced the file {@code node} by a directory of {@link #FILES} files: its rewind
     * deletes the files, removes the directory and puts the file back, in that order.
     */
    static CrashableTurn fileIntoDirectory(Path temp) throws Exception {
      TestWorkspace workspace =
          TestWorkspace.in(temp).file("node", "the file before\n").file("keep.txt", "k\n");
      List<String> paths = new ArrayList<>(List.of("node"));
      for (int i = 0; i < FILES; i++) {
        paths.add(String.format("node/f%02d.txt", i));
      }
      return recorded(
          temp,
          workspace,
          paths,
          () -> {
            Files.delete(workspace.resolve("node"));
            for (int i = 0; i < FILES; i++) {
              workspace.file(String.format("node/f%02d.txt", i), "made by the turn " + i + "\n");
            }
          });
    }

    private static CrashableTurn recorded(
        Path temp, TestWorkspace workspace, List<String> paths, Edit edit) throws Exception {
      Path database = temp.resolve("store/turndiff.db");
      Map<String, String> beforeTurn = TreeContent.of(workspace.root());
      return new CrashableTurn(
          workspace,
          database,
          Map.of("TURNDIFF_DB", database.toString()),
          beforeTurn,
          recordedTurn(workspace, database, paths, edit));
    }

    /** {@code turndiff rewind --turn T ARGS}, pausing 300 ms before each rename. */
    Process startRewind(String... args) throws IOException {
      return startRewindHeldAt(EnvTestHook.REWIND_PAUSE, "300", args);
    }

    /** {@code turndiff rewind --turn T ARGS}, held at {@code hold} (a test hook's variable). */
    Process startRewindHeldAt(String hold, String millis, String... args) throws IOException {
      List<String> command = new ArrayList<>(List.of("rewind", "--turn", turn));
      command.addAll(List.of(args));
      return CliProcess.start(
          Map.of("TURNDIFF_DB", database.toString(), hold, millis), command.toArray(String[]::new));
    }

    /** Kills the rewind with SIGKILL once {@code reached} holds. */
    void killOnce(Process rewind, String what, Check reached) throws Exception {
      killWhen(rewind, database, what, reached);
    }

    /**
     * Kills the rewind with SIGKILL while it renames its staged files over their names, once two
     * landed.
     */
    void killOnceUnderWay(Process rewind) throws Exception {
      killWhen(rewind, database, "mid-way", () -> restoredOnDisk(workspace) >= 2);
    }
  }

  /**
   * Kills {@code rewind} with SIGKILL once {@code reached} holds (within a minute, while it runs);
   * {@code database} is its store, whose journal a failure shows.
   */
  private static void killWhen(Process rewind, Path database, String what, Check reached)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!reached.holds()) {
      assertTrue(
          System.nanoTime() < deadline && rewind.isAlive(),
          "the rewind reached " + what + ": " + journal(database));
      Thread.sleep(20);
    }
    rewind.destroyForcibly();
    assertTrue(rewind.waitFor(30, TimeUnit.SECONDS));
    assertEquals(137, rewind.exitValue(), "killed by SIGKILL " + what);
  }

  /**
   * The operation of a {@link CrashableTurn#fileIntoDirectory} rewind run again: it finishes at the
   * tree the turn started from.
   */
  private static void resumedToTheFileNode(CrashableTurn crashable, String operation)
      throws Exception {
    CommandRun finished =
        CliProcess.run(
                crashable.env(), "rewind", "--turn", crashable.turn(), "--operation", operation)
            .expect(0);
    JsonNode report = finished.json();
    assertFalse(report.get("replayed").asBoolean(), "it resumed the operation");
    assertTrue(report.get("complete").asBoolean(), finished.out());
    assertEquals(FILES + 1, report.get("restored").size(), finished.out());
    assertEquals(List.of("node"), texts(report.get("removed_directories")), finished.out());
    assertEquals(
        crashable.beforeTurn(),
        TreeContent.of(crashable.workspace().root()),
        "the file node again");
    assertEquals(List.of(), temporariesIn(crashable.workspace().root()), "no temporary left");
    crashable.workspace().assertOutsideUnchanged();
  }

  @Test
  void aFileIntoDirectoryRewindKilledWhileItDeletesTheDirectorysFilesIsFinishedByItsResume()
      throws Exception {
    CrashableTurn crashable = CrashableTurn.fileIntoDirectory(temp);
    Path node = crashable.workspace().resolve("node");
    Process rewind = crashable.startRewind("--operation", "op-type-changed-mid-way");
    crashable.killOnce(
        rewind,
        "after deleting some of the directory's files",
        () -> {
          try (Stream<Path> left = Files.list(node)) {
            return left.count() <= FILES - 2;
          }
        });
    assertTrue(Files.isDirectory(node), "killed before the directory was removed");
    assertTrue(
        journal(crashable.database()).contains("=started"),
        "paths were journaled started: " + journal(crashable.database()));
    resumedToTheFileNode(crashable, "op-type-changed-mid-way");
  }

  @Test
  void aFileIntoDirectoryRewindKilledAfterItPutTheFileBackBeforeItJournaledItIsFinished()
      throws Exception {
    CrashableTurn crashable = CrashableTurn.fileIntoDirectory(temp);
    // held before each step's paths are journaled done: after the directory's files went, then
    // after the file node was renamed into place (the directory removed in between)
    Process rewind =
        crashable.startRewindHeldAt(
            EnvTestHook.REWIND_DONE_PAUSE, "3000", "--operation", "op-type-changed-landed");
    crashable.killOnce(
        rewind,
        "after the file was put back",
        () -> crashable.beforeTurn().equals(treeOrNothing(crashable.workspace())));
    assertTrue(
        journal(crashable.database()).contains("=started"),
        "the file was still journaled started: " + journal(crashable.database()));
    resumedToTheFileNode(crashable, "op-type-changed-landed");
  }

  /** A condition a crash test waits for. */
  @FunctionalInterface
  private interface Check {
    boolean holds() throws Exception;
  }

  @Test
  void aRewindKilledWhileItStagesLeavesNoStagedFileAndIsFinished() throws Exception {
    CrashableTurn crashable = CrashableTurn.overManyFiles(temp);
    TestWorkspace workspace = crashable.workspace();
    Process rewind =
        crashable.startRewindHeldAt(
            EnvTestHook.REWIND_STAGED_PAUSE, "60000", "--operation", "op-staging");
    // the rewind holds after its first staged file (the files are staged one after another on its
    // one thread): staged, not synced, not yet in place; every path was journaled started, with
    // what it replaces, before the first file was staged
    crashable.killOnce(rewind, "while staging", () -> temporariesIn(workspace.root()).size() >= 1);
    assertTrue(
        journal(crashable.database()).matches("(\\d+=started )+"),
        "every path journaled started before its file was staged: "
            + journal(crashable.database()));
    assertTrue(
        restoredOnDisk(workspace) == 0 && Files.exists(workspace.resolve("src/created.txt")),
        "nothing was renamed into place while the files were staged");

    CommandRun finished =
        CliProcess.run(
                crashable.env(), "rewind", "--turn", crashable.turn(), "--operation", "op-staging")
            .expect(0);
    assertEquals(FILES + 1, finished.json().get("restored").size(), finished.out());
    assertEquals(
        crashable.beforeTurn(),
        TreeContent.of(workspace.root()),
        "exactly as a clean rewind leaves it");
    assertEquals(List.of(), temporariesIn(workspace.root()), "no temporary left");
    workspace.assertOutsideUnchanged();
  }

  /**
   * A turn over many files whose rewind (operation {@code operation}) was killed with SIGKILL once
   * every rename landed, before it journaled them done.
   */
  private CrashableTurn killedAfterEveryRename(String operation) throws Exception {
    CrashableTurn crashable = CrashableTurn.overManyFiles(temp);
    Process rewind =
        crashable.startRewindHeldAt(
            EnvTestHook.REWIND_DONE_PAUSE, "60000", "--operation", operation);
    // the whole tree, not a count of restored files: the deleted files come back by renames too,
    // and a count that left them out killed the rewind before its last rename (a staged file in
    // place of src/f11.txt, CI on b3188fb)
    crashable.killOnce(
        rewind,
        "after every rename",
        () -> crashable.beforeTurn().equals(treeOrNothing(crashable.workspace())));
    return crashable;
  }

  @Test
  void aRewindKilledAfterItsRenamesBeforeItJournaledThemDoneIsFinishedAsRestored()
      throws Exception {
    CrashableTurn crashable = killedAfterEveryRename("op-landed");
    TestWorkspace workspace = crashable.workspace();
    Path database = crashable.database();
    assertEquals(
        crashable.beforeTurn(),
        TreeContent.of(workspace.root()),
        "every path was in place when the process died");
    assertTrue(
        journal(database).matches("(\\d+=started )+"),
        "every path was still journaled as started: " + journal(database));

    CommandRun finished =
        CliProcess.run(
                crashable.env(), "rewind", "--turn", crashable.turn(), "--operation", "op-landed")
            .expect(0);
    JsonNode report = finished.json();
    assertFalse(report.get("replayed").asBoolean(), "it resumed the operation");
    assertEquals(FILES + 1, report.get("restored").size(), finished.out());
    assertEquals(crashable.beforeTurn(), TreeContent.of(workspace.root()));
    assertEquals(List.of(), temporariesIn(workspace.root()), "no temporary left");
    workspace.assertOutsideUnchanged();
  }

  /**
   * A rewind writes its files without syncing each, its journal having made them durable before the
   * first one: killed after every rename, then a power loss (the files it renamed into place
   * emptied, cut short or gone, and the operation recorded in another boot, as the store's row is
   * after a restart), the same command redoes them from the store, byte for byte, and its report
   * says which.
   */
  @Test
  void aRewindKilledAfterItsRenamesThenAPowerLossIsRedoneFromTheStoreByTheSameCommand()
      throws Exception {
    CrashableTurn crashable = killedAfterEveryRename("op-power");
    TestWorkspace workspace = crashable.workspace();
    Path database = crashable.database();
    Files.write(workspace.resolve("src/f00.txt"), new byte[0]);
    Files.writeString(workspace.resolve("src/f01.txt"), "bef");
    Files.delete(workspace.resolve("src/f02.txt"));
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database)) {
      assertEquals(
          1,
          connection
              .createStatement()
              .executeUpdate(
                  "UPDATE rewind_operation SET boot_id = 'a boot before the power loss'"
                      + " WHERE external_id = 'op-power' AND synced = 0"),
          "the killed rewind had recorded its boot and was not synced");
    }

    CommandRun finished =
        CliProcess.run(
                crashable.env(), "rewind", "--turn", crashable.turn(), "--operation", "op-power")
            .expect(0);
    JsonNode report = finished.json();
    assertEquals(FILES + 1, report.get("restored").size(), finished.out());
    assertEquals(crashable.beforeTurn(), TreeContent.of(workspace.root()), "byte for byte");
    List<String> redone = new ArrayList<>();
    report.get("notes").fieldNames().forEachRemaining(redone::add);
    assertEquals(
        List.of("src/f00.txt", "src/f01.txt", "src/f02.txt"),
        redone.stream().sorted().toList(),
        finished.out());
    assertTrue(
        report.get("notes").get("src/f02.txt").asText().startsWith("redone after a restart: "),
        finished.out());
    assertEquals(List.of(), temporariesIn(workspace.root()), "no temporary left");
    workspace.assertOutsideUnchanged();
  }

  /**
   * The command answers before the disk does: killed with SIGKILL once it has printed its report
   * and before its sync after it (held there), it leaves every file in place, no temporary file,
   * and the operation done and not marked synced; its report said {@code in_place}. After a power
   * loss in that window (files the journal says were written emptied or gone, the operation's row
   * from another boot), the next rewind in the workspace redoes them from the store, says which on
   * stderr, and marks the operation synced.
   */
  @Test
  void aRewindKilledAfterItsReportBeforeItsSyncThenAPowerLossIsRedoneByTheNextRewind()
      throws Exception {
    CrashableTurn crashable = CrashableTurn.overManyFiles(temp);
    TestWorkspace workspace = crashable.workspace();
    Path database = crashable.database();
    Process rewind =
        crashable.startRewindHeldAt(
            EnvTestHook.REWIND_PRINTED_PAUSE, "60000", "--operation", "op-answered");
    // read before the kill, which closes the pipe: the report is one line
    InputStream out = rewind.getInputStream();
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    crashable.killOnce(
        rewind,
        "after its report",
        () -> {
          printed.write(out.readNBytes(out.available()));
          return printed.toString(StandardCharsets.UTF_8).endsWith("\n");
        });
    JsonNode report = new ObjectMapper().readTree(printed.toByteArray());
    assertEquals("in_place", report.get("durability").asText(), report.toString());
    assertTrue(report.get("complete").asBoolean(), report.toString());
    Map<String, String> rewound = TreeContent.of(workspace.root());
    assertEquals(crashable.beforeTurn(), rewound, "every file in place when it answered");
    assertEquals(List.of(), temporariesIn(workspace.root()), "no temporary left");
    assertEquals("done 0", operationState(database, "op-answered"), "done, not synced");

    // the power goes: two files the journal says were written lose what the rewind put there
    Files.write(workspace.resolve("src/f00.txt"), new byte[0]);
    Files.delete(workspace.resolve("src/f01.txt"));
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database)) {
      connection
          .createStatement()
          .executeUpdate(
              "UPDATE rewind_operation SET boot_id = 'a boot before the power loss'"
                  + " WHERE external_id = 'op-answered'");
    }
    // the next rewind in the workspace: the turn it recorded, undone
    CommandRun next =
        CliProcess.run(
                crashable.env(), "rewind", "--turn", report.get("rewind_turn").asText(), "--json")
            .expect(0);
    assertTrue(
        next.err().contains("'op-answered' was not known to be on the disk after a restart"),
        next.err());
    assertTrue(next.err().contains("src/f00.txt: redone: "), next.err());
    assertTrue(next.err().contains("src/f01.txt: redone: it was gone"), next.err());
    assertEquals("done 1", operationState(database, "op-answered"), "checked, synced");
    assertEquals(List.of(), temporariesIn(workspace.root()), "no temporary left");
    workspace.assertOutsideUnchanged();
  }

  /** An operation's state and synced mark, as the store's row holds them. */
  private static String operationState(Path database, String operation) throws Exception {
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database);
        ResultSet row =
            connection
                .createStatement()
                .executeQuery(
                    "SELECT state, synced FROM rewind_operation WHERE external_id = '"
                        + operation
                        + "'")) {
      return row.next() ? row.getString(1) + " " + row.getLong(2) : "none";
    }
  }

  @Test
  void aRewindKilledMidWayIsFinishedByTheSameOperationId() throws Exception {
    CrashableTurn crashable = CrashableTurn.overManyFiles(temp);
    TestWorkspace workspace = crashable.workspace();
    Path database = crashable.database();
    Map<String, String> env = crashable.env();
    Map<String, String> beforeTurn = crashable.beforeTurn();
    String turn = crashable.turn();
    crashable.killOnceUnderWay(crashable.startRewind("--operation", "op-crash"));
    Map<String, String> interrupted = TreeContent.of(workspace.root());
    assertNotEquals(beforeTurn, interrupted, "the rewind was interrupted before it finished");
    assertTrue(
        journal(database).matches("(\\d+=started )+"),
        "every path was journaled as started: " + journal(database));

    // a crashed write leaves its temporary file under the name the journal gives it: plant one,
    // half written
    List<Path> planted = plantHalfWrittenTemporaries(database, workspace.root());
    assertFalse(planted.isEmpty(), "paths were journaled as started when the process died");

    CommandRun finished =
        CliProcess.run(env, "rewind", "--turn", turn, "--operation", "op-crash").expect(0);
    JsonNode report = finished.json();
    assertFalse(report.get("replayed").asBoolean(), "it resumed the operation");
    assertEquals(FILES + 1, report.get("restored").size(), finished.out());
    assertEquals(
        beforeTurn, TreeContent.of(workspace.root()), "exactly as a clean rewind leaves it");
    for (Path temporary : planted) {
      assertFalse(Files.exists(temporary), "the half-written temporary was removed: " + temporary);
    }
    try (Stream<Path> files = Files.walk(workspace.root())) {
      assertTrue(
          files.noneMatch(path -> path.getFileName().toString().endsWith(".tmp")),
          "no temporary left");
    }

    CommandRun replayed =
        CliProcess.run(env, "rewind", "--turn", turn, "--operation", "op-crash").expect(0);
    assertTrue(replayed.json().get("replayed").asBoolean());
    assertEquals(report.get("restored"), replayed.json().get("restored"));
    workspace.assertOutsideUnchanged();
  }

  @Test
  void aRewindKilledMidWayIsResumedByTheSameCommandWithoutItsOperationId() throws Exception {
    CrashableTurn crashable = CrashableTurn.overManyFiles(temp);
    TestWorkspace workspace = crashable.workspace();
    Map<String, String> env = crashable.env();
    String turn = crashable.turn();
    Process rewind = crashable.startRewind();
    CompletableFuture<String> announced =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return new BufferedReader(
                        new InputStreamReader(rewind.getErrorStream(), StandardCharsets.UTF_8))
                    .readLine();
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
    crashable.killOnceUnderWay(rewind);
    assertFalse(
        temporariesIn(workspace.root()).isEmpty(), "the killed rewind left staged files behind");

    CommandRun forced = CliProcess.run(env, "rewind", "--turn", turn, "--force");
    assertEquals(1, forced.exitCode(), "another request for the turn is refused: " + forced.err());
    assertTrue(
        forced.err().contains("--operation "),
        "it names the unfinished operation: " + forced.err());

    CommandRun again = CliProcess.run(env, "rewind", "--turn", turn).expect(0);
    assertEquals(
        crashable.beforeTurn(),
        TreeContent.of(workspace.root()),
        "the tree the turn started from, nothing staged");
    try (Stream<Path> files = Files.walk(workspace.root())) {
      assertTrue(
          files.noneMatch(path -> path.getFileName().toString().startsWith(".turndiff-")),
          "no temporary");
    }
    JsonNode report = again.json();
    assertTrue(report.get("complete").asBoolean(), again.out());
    String line = announced.get(30, TimeUnit.SECONDS);
    assertTrue(
        line != null && line.contains("'" + report.get("operation").asText() + "'"),
        "the killed process named the operation before its first write, and the second run resumed it: "
            + line
            + " / "
            + again.out());
    assertTrue(
        again
            .err()
            .contains("resuming rewind operation '" + report.get("operation").asText() + "'"),
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
        ResultSet rows =
            connection.createStatement().executeQuery("SELECT id, status FROM rewind_entry")) {
      while (rows.next()) {
        out.append(rows.getLong(1)).append('=').append(rows.getString(2)).append(' ');
      }
    }
    return out.toString();
  }

  /**
   * For each path journaled as started, a half-written file at the temporary name journaled for it.
   */
  private static List<Path> plantHalfWrittenTemporaries(Path database, Path root) throws Exception {
    List<Path> planted = new ArrayList<>();
    for (Path temporary : journaledTemporaries(database, root, "status = 'started'")) {
      Files.createDirectories(temporary.getParent());
      Files.writeString(temporary, "half wri");
      planted.add(temporary);
    }
    return planted;
  }

  /**
   * The temporary names the rewind journaled (for the entries {@code where} selects), beside their
   * paths.
   */
  private static List<Path> journaledTemporaries(Path database, Path root, String where)
      throws Exception {
    List<Path> journaled = new ArrayList<>();
    // read-write: the writer was killed, and a read-only connection cannot recover its WAL
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database);
        ResultSet rows =
            connection
                .createStatement()
                .executeQuery(
                    "SELECT CAST(path AS TEXT), temporary_name"
                        + " FROM rewind_entry WHERE temporary_name IS NOT NULL AND "
                        + where)) {
      while (rows.next()) {
        journaled.add(root.resolve(rows.getString(1)).resolveSibling(rows.getString(2)));
      }
    }
    return journaled;
  }

  /** The tree's content, or nothing while a rename moves an entry the walk was about to read. */
  private static Map<String, String> treeOrNothing(TestWorkspace workspace) {
    try {
      return TreeContent.of(workspace.root());
    } catch (UncheckedIOException changedUnderTheWalk) {
      return Map.of();
    }
  }

  private static List<Path> temporariesIn(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(path -> path.getFileName().toString().startsWith(".turndiff-"))
          .sorted()
          .toList();
    }
  }

  @Test
  void aKilledRewindLeavesNoStagedFileAfterItsResumeAndNeverRemovesAFileItDidNotMake()
      throws Exception {
    CrashableTurn crashable = CrashableTurn.overManyFiles(temp);
    TestWorkspace workspace = crashable.workspace();
    Path database = crashable.database();
    // a file someone else made under each name a rewind of this fresh store could try first for a
    // path (entry ids start at 1: .turndiff-rewind-<entry id>.tmp beside it); they are not the
    // rewind's to remove
    List<Path> planted = new ArrayList<>();
    for (int entry = 1; entry <= FILES + 1; entry++) {
      Path name = workspace.resolve("src/.turndiff-rewind-" + entry + ".tmp");
      Files.writeString(name, "the user's own " + entry + "\n");
      planted.add(name);
    }
    Map<String, String> expected = new TreeMap<>(crashable.beforeTurn());
    Map<String, String> withPlanted = TreeContent.of(workspace.root());
    planted.forEach(
        name ->
            expected.put(
                "src/" + name.getFileName(), withPlanted.get("src/" + name.getFileName())));

    crashable.killOnceUnderWay(crashable.startRewind("--operation", "op-planted"));
    List<Path> journaled = journaledTemporaries(database, workspace.root(), "1 = 1");
    assertEquals(FILES + 1, journaled.size(), "a name journaled per entry: " + journal(database));
    List<Path> staged = new ArrayList<>(temporariesIn(workspace.root()));
    staged.removeAll(planted);
    assertFalse(staged.isEmpty(), "the killed rewind left staged files behind");
    assertTrue(
        journaled.containsAll(staged),
        "every file it staged is under a name it journaled: " + staged + " / " + journaled);

    CommandRun resumed =
        CliProcess.run(
                crashable.env(), "rewind", "--turn", crashable.turn(), "--operation", "op-planted")
            .expect(0);
    assertTrue(resumed.json().get("complete").asBoolean(), resumed.out());
    assertEquals(
        planted.stream().sorted().toList(),
        temporariesIn(workspace.root()),
        "no staged file is left; every planted one is");
    assertEquals(
        expected,
        TreeContent.of(workspace.root()),
        "the tree the turn started from, and the planted files byte for byte");
    workspace.assertOutsideUnchanged();
  }

  /**
   * Writes {@code text} to a file kept at mode 000 (the test's own process may need to open it for
   * writing).
   */
  private static void writeLocked(Path file, String text) throws Exception {
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    Files.writeString(file, text);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("---------"));
  }

  @Test
  void aFileWhoseContentCannotBeReadIsNeverOverwrittenNorCalledUnchanged() throws Exception {
    TestWorkspace workspace =
        TestWorkspace.in(temp)
            .file("r.txt", "original\n")
            .mode("r.txt", "rw-rw-rw-")
            .file("u.txt", "locked from the start\n")
            .mode("u.txt", "---------");
    UnprivilegedCli cli = UnprivilegedCli.in(temp, workspace);
    String turn =
        cli.run("turn", "begin", "--workspace", workspace.root().toString())
            .expect(0)
            .json()
            .get("turn")
            .asText();
    cli.run("snapshot", "--turn", turn, "r.txt", "u.txt").expect(0);
    Files.writeString(workspace.resolve("r.txt"), "the turn's\n");
    workspace.mode("r.txt", "---------");
    writeLocked(workspace.resolve("u.txt"), "changed by the turn, still locked\n");

    JsonNode summary = cli.run("turn", "finish", "--turn", turn).expect(0).json();
    assertEquals(
        0,
        summary.path("changes").path("unchanged").asInt(-1),
        "an unreadable file is never unchanged: " + summary);
    assertEquals(2, summary.path("changes").path("unknown").asInt(-1), summary.toString());
    assertEquals(2, summary.get("not_restorable").asInt(), summary.toString());

    writeLocked(workspace.resolve("r.txt"), "the user's work\n");
    CommandRun rewind = cli.run("rewind", "--turn", turn).expect(3);
    JsonNode report = rewind.json();
    assertEquals(0, report.get("restored").size(), rewind.out());
    List<String> skipped = new ArrayList<>();
    report
        .get("skipped")
        .forEach(
            skip -> skipped.add(skip.get("path").asText() + ":" + skip.get("reason").asText()));
    assertEquals(List.of("r.txt:refused", "u.txt:unreadable"), skipped, rewind.out());
    assertTrue(
        report.get("skipped").get(0).get("detail").asText().contains("cannot be read"),
        rewind.out());
    Files.setPosixFilePermissions(
        workspace.resolve("r.txt"), PosixFilePermissions.fromString("rw-------"));
    assertEquals(
        "the user's work\n",
        Files.readString(workspace.resolve("r.txt")),
        "content the rewind could not read and store is not overwritten");
    cli.run("rewind", "--turn", turn, "--force").expect(3);
    assertEquals(
        "the user's work\n", Files.readString(workspace.resolve("r.txt")), "not even with --force");
    workspace.assertOutsideUnchanged();
  }

  private static List<String> texts(JsonNode array) {
    List<String> texts = new ArrayList<>();
    array.forEach(node -> texts.add(node.asText()));
    return texts;
  }

  @Test
  void directoryModesArePutBackAroundTheFilesSoThatAnOwnerWithoutPrivilegeCanWriteThem()
      throws Exception {
    // ro/ was read-only, and the turn opened it to write in it; open/ was open, and the turn wrote
    // in it and then made it read-only: the rewind must write each file while its directory lets
    // the owner write
    TestWorkspace workspace =
        TestWorkspace.in(temp).file("ro/f.txt", "ro before\n").file("open/g.txt", "g before\n");
    UnprivilegedCli cli = UnprivilegedCli.in(temp, workspace);
    if (TestWorkspace.isRoot()) {
      try (Stream<Path> tree = Files.walk(workspace.root())) {
        for (Path path : tree.filter(path -> !path.equals(workspace.root())).toList()) {
          Files.setAttribute(path, "unix:uid", 65534, LinkOption.NOFOLLOW_LINKS);
          Files.setAttribute(path, "unix:gid", 65534, LinkOption.NOFOLLOW_LINKS);
        }
      }
    }
    workspace.mode("ro", "r-x------").mode("open", "rwxr-xr-x");
    Map<String, String> before = TreeContent.of(workspace.root());
    String turn =
        cli.run("turn", "begin", "--workspace", workspace.root().toString())
            .expect(0)
            .json()
            .get("turn")
            .asText();
    cli.run("snapshot", "--turn", turn, "ro/f.txt", "open/g.txt").expect(0);
    workspace.mode("ro", "rwx------");
    Files.writeString(workspace.resolve("ro/f.txt"), "ro after\n");
    Files.writeString(workspace.resolve("open/g.txt"), "g after\n");
    workspace.mode("open", "r-xr-xr-x");
    cli.run("turn", "finish", "--turn", turn).expect(0);
    Map<String, String> afterTurn = TreeContent.of(workspace.root());

    CommandRun rewind = cli.run("rewind", "--turn", turn);
    assertEquals(0, rewind.exitCode(), rewind.out() + rewind.err());
    JsonNode report = rewind.json();
    assertEquals(List.of("open/g.txt", "ro/f.txt"), texts(report.get("restored")), rewind.out());
    assertEquals(List.of("open", "ro"), texts(report.get("directory_modes")), rewind.out());
    assertEquals(
        before,
        TreeContent.of(workspace.root()),
        "ro/ 0500 and open/ 0755 again, with their files");

    CommandRun undo = cli.run("rewind", "--turn", report.get("rewind_turn").asText());
    assertEquals(0, undo.exitCode(), undo.out() + undo.err());
    assertEquals(List.of("open", "ro"), texts(undo.json().get("directory_modes")), undo.out());
    assertEquals(
        afterTurn, TreeContent.of(workspace.root()), "the undo: ro/ 0700 and open/ 0555 again");
    workspace.assertOutsideUnchanged();
  }

  /** A sparse file of {@code size} bytes with random 1 MiB blocks at its start, middle and end. */
  private static void writeLargeFile(Path file, long size) throws Exception {
    Random random = new Random(11);
    byte[] block = new byte[1 << 20];
    try (RandomAccessFile out = new RandomAccessFile(file.toFile(), "rw")) {
      out.setLength(size);
      for (long offset : new long[] {0, size / 2, size - block.length}) {
        random.nextBytes(block);
        out.seek(offset);
        out.write(block);
      }
    }
  }

  private static String sha256Of(Path file) throws Exception {
    MessageDigest digest = MessageDigest.getInstance("SHA-256");
    try (InputStream in = Files.newInputStream(file)) {
      byte[] buffer = new byte[1 << 16];
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        digest.update(buffer, 0, n);
      }
    }
    return HexFormat.of().formatHex(digest.digest());
  }

  /**
   * Twice the heap the test gives the rewinds, so that a copy held whole in memory fails; it was
   * 160 MiB, and four processes reading, hashing and compressing it took over a minute of CI.
   */
  private static final long BIG_FILE = 96L << 20;

  @Test
  void aFileFarOverTheSizeLimitIsStreamedIntoTheStoreAndBackWithASmallHeap() throws Exception {
    TestWorkspace workspace = TestWorkspace.in(temp);
    Path database = temp.resolve("store/turndiff.db");
    Map<String, String> env = Map.of("TURNDIFF_DB", database.toString());
    List<String> smallHeap = List.of("-Xmx48m");
    // the turn recorded in this JVM; the rewinds and the diff, with the small heap, are processes
    Path big = workspace.resolve("big.img");
    String turn =
        recordedTurn(workspace, database, List.of("big.img"), () -> writeLargeFile(big, BIG_FILE));
    String content = sha256Of(big);

    CommandRun plain =
        CliProcess.runWithJvmOptions(smallHeap, env, "rewind", "--turn", turn).expect(3);
    assertEquals(
        "unverified", plain.json().get("skipped").get(0).get("reason").asText(), plain.out());
    CommandRun forced =
        CliProcess.runWithJvmOptions(smallHeap, env, "rewind", "--turn", turn, "--force").expect(0);
    assertFalse(Files.exists(big), forced.out());
    String rewindTurn = forced.json().get("rewind_turn").asText();
    String patch =
        CliProcess.runWithJvmOptions(smallHeap, env, "diff", "--turn", rewindTurn).expect(0).out();
    assertTrue(
        patch.contains("before-state stored (" + BIG_FILE + " bytes, too large to show)"), patch);

    CommandRun undone =
        CliProcess.runWithJvmOptions(smallHeap, env, "rewind", "--turn", rewindTurn).expect(0);
    assertEquals("big.img", undone.json().get("restored").get(0).asText(), undone.out());
    assertEquals(content, sha256Of(big), "96 MiB back byte for byte through a 48 MiB heap");
    workspace.assertOutsideUnchanged();
  }

  @Test
  void theReportAndItsExitCodes() throws Exception {
    TestWorkspace workspace = TestWorkspace.in(temp).file("a.txt", "a\n").file("b.txt", "b\n");
    workspace.symlink("leak.txt", workspace.secret().toString());
    Path database = temp.resolve("store/turndiff.db");
    Map<String, String> env = Map.of("TURNDIFF_DB", database.toString());
    // the turn recorded in this JVM; the rewinds, whose reports and exit codes this is about, are
    // processes
    String turn =
        recordedTurn(
            workspace,
            database,
            List.of("a.txt", "b.txt", "leak.txt"),
            () -> {
              Files.writeString(workspace.resolve("a.txt"), "agent a\n");
              Files.writeString(workspace.resolve("b.txt"), "agent b\n");
              Files.delete(workspace.resolve("leak.txt"));
            });
    Files.writeString(workspace.resolve("b.txt"), "user b\n");

    CommandRun dry = CliProcess.run(env, "rewind", "--turn", turn, "--dry-run").expect(3);
    assertTrue(dry.json().get("dry_run").asBoolean());
    assertEquals(
        "agent a\n", Files.readString(workspace.resolve("a.txt")), "a dry run writes nothing");

    CommandRun run = CliProcess.run(env, "rewind", "--turn", turn, "--operation", "op-1").expect(3);
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
    CommandRun forced = CliProcess.run(env, "rewind", "--turn", turn, "--force").expect(3);
    assertEquals("b.txt", forced.json().get("restored").get(1).asText(), forced.out());
    assertEquals("b\n", Files.readString(workspace.resolve("b.txt")));
    CliProcess.run(env, "rewind", "--turn", "no-such-turn").expect(1);
    workspace.assertOutsideUnchanged();
  }
}
