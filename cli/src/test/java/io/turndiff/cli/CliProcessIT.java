package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Turndiff;
import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.diff.GitPatchWriter;
import io.turndiff.diff.PatchSide;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.PathInput;
import io.turndiff.store.Store;
import io.turndiff.store.StoredFileChange;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The packaged jar as real processes: crashes with kill -9, the demo on the default store. */
class CliProcessIT {

  @TempDir Path temp;

  /**
   * TURNDIFF_PORTABILITY=posix (docs/portability.md) holds the workspace with openat per component:
   * the turn and its snapshot say so; a mechanism the mode does not use, or a value that names no
   * mode, is a usage error naming the variable, before anything is written.
   */
  @Test
  void thePosixModeIsChosenByTheEnvironment() throws Exception {
    TestWorkspace workspace = TestWorkspace.in(temp).file("a.txt", "a\n");
    Path database = temp.resolve("store/turndiff.db");
    Map<String, String> posix =
        Map.of("TURNDIFF_DB", database.toString(), "TURNDIFF_PORTABILITY", "posix");
    JsonNode begun =
        CliProcess.run(posix, "turn", "begin", "--workspace", workspace.root().toString())
            .expect(0)
            .json();
    assertEquals("openat", begun.get("boundary").asText(), begun.toString());
    JsonNode snapshot =
        CliProcess.run(posix, "snapshot", "--turn", begun.get("turn").asText(), "a.txt")
            .expect(0)
            .json();
    assertEquals("openat", snapshot.get(0).get("boundary").asText(), snapshot.toString());

    String refused =
        CliProcess.run(
                posix,
                "--boundary",
                "openat2",
                "turn",
                "begin",
                "--workspace",
                workspace.root().toString())
            .expect(2)
            .err();
    assertTrue(refused.contains("TURNDIFF_PORTABILITY=posix"), refused);
    Path other = temp.resolve("other/turndiff.db");
    String wrong =
        CliProcess.run(
                Map.of("TURNDIFF_DB", other.toString(), "TURNDIFF_PORTABILITY", "macos"),
                "turn",
                "begin",
                "--workspace",
                workspace.root().toString())
            .expect(2)
            .err();
    assertTrue(wrong.contains("TURNDIFF_PORTABILITY must be linux or posix"), wrong);
    assertFalse(Files.exists(other), "nothing written for a usage error");
    workspace.assertOutsideUnchanged();
  }

  @Test
  void aTurnKilledBetweenSnapshotAndFinishKeepsItsBeforeStates() throws Exception {
    TestWorkspace workspace =
        TestWorkspace.in(temp).file("a.txt", "a before\n").file("b.txt", "b before\n");
    Path database = temp.resolve("store/turndiff.db");
    Map<String, String> env = Map.of("TURNDIFF_DB", database.toString());
    // the turn and its first call are set up by the commands in this JVM (StoreCommands): the
    // process killed is what the test is about
    String turn =
        StoreCommands.run(database, "turn", "begin", "--workspace", workspace.root().toString())
            .expect(0)
            .json()
            .get("turn")
            .asText();
    StoreCommands.run(database, "snapshot", "--turn", turn, "--tool-call", "one", "a.txt")
        .expect(0);

    // the runtime's process records b.txt's before-state, then dies by SIGKILL before it can finish
    // the turn
    Process dying =
        CliProcess.start(
            Map.of("TURNDIFF_DB", database.toString(), EnvTestHook.AFTER_SNAPSHOT, "120000"),
            "snapshot",
            "--turn",
            turn,
            "--tool-call",
            "two",
            "b.txt");
    BufferedReader out =
        new BufferedReader(new InputStreamReader(dying.getInputStream(), StandardCharsets.UTF_8));
    String printed = out.readLine();
    assertTrue(
        printed != null && printed.contains("\"b.txt\""), "the snapshot committed: " + printed);
    dying.destroyForcibly();
    assertTrue(dying.waitFor(30, TimeUnit.SECONDS));
    assertEquals(137, dying.exitValue(), "killed by SIGKILL");
    // the killed call only appended b.txt to the before log (issue 23 item 1), and its process's
    // first reads (the turn, its workspace) folded nothing: a.txt, which the call before it had
    // appended, is still logged too, for whoever reads or writes the turn next
    assertEquals(
        1, StoreRows.value(database, "SELECT count(*) FROM before_log WHERE tool_call = 'two'"));
    assertEquals(2, StoreRows.value(database, "SELECT count(*) FROM before_log"));
    assertEquals(0, StoreRows.value(database, "SELECT count(*) FROM file_change"));

    Files.writeString(workspace.resolve("a.txt"), "a after\n");
    Files.writeString(workspace.resolve("b.txt"), "b after\n");
    JsonNode records = CliProcess.run(env, "show", "--turn", turn).expect(0).json();
    assertEquals(0, StoreRows.value(database, "SELECT count(*) FROM before_log"), "show folded");
    assertEquals(2, records.size());
    for (JsonNode record : records) {
      assertTrue(record.get("before").get("captured").asBoolean(), record.toString());
      assertTrue(record.get("after").isNull(), "not finished yet");
    }
    CliProcess.run(env, "turn", "finish", "--turn", turn).expect(0);
    String patch = CliProcess.run(env, "diff", "--turn", turn).expect(0).out();
    assertTrue(patch.contains("-a before\n+a after\n"), patch);
    assertTrue(patch.contains("-b before\n+b after\n"), patch);
    workspace.assertOutsideUnchanged();
  }

  @Test
  void aFinishKilledBeforeItsBackgroundDiffsLeavesThemPendingAndEveryQueryGivesTheSameDiff()
      throws Exception {
    TestWorkspace workspace =
        TestWorkspace.in(temp).file("a.txt", "a before\n").file("b.txt", "b1\nb2\nb3\n");
    Path database = temp.resolve("store/turndiff.db");
    Map<String, String> env = Map.of("TURNDIFF_DB", database.toString());
    // set up in this JVM (StoreCommands), as above
    String turn =
        StoreCommands.run(database, "turn", "begin", "--workspace", workspace.root().toString())
            .expect(0)
            .json()
            .get("turn")
            .asText();
    StoreCommands.run(database, "snapshot", "--turn", turn, "a.txt", "b.txt").expect(0);
    Files.writeString(workspace.resolve("a.txt"), "a after\n");
    Files.writeString(workspace.resolve("b.txt"), "b1\nb3\nb4\n");

    // the finish commits and prints its summary; the process dies before its background diffs ran
    Process dying =
        CliProcess.start(
            Map.of("TURNDIFF_DB", database.toString(), EnvTestHook.BEFORE_DIFFS, "120000"),
            "turn",
            "finish",
            "--turn",
            turn);
    BufferedReader out =
        new BufferedReader(new InputStreamReader(dying.getInputStream(), StandardCharsets.UTF_8));
    String printed = out.readLine();
    assertTrue(
        printed != null && printed.contains("\"diffs_pending\":2"),
        "the finish committed: " + printed);
    dying.destroyForcibly();
    assertTrue(dying.waitFor(30, TimeUnit.SECONDS));
    assertEquals(137, dying.exitValue(), "killed by SIGKILL");

    // what the finish computed synchronously before diffs were deferred: the summary-style patch of
    // the stored before-state against the file as the turn left it
    Map<String, String> expected = new LinkedHashMap<>();
    Map<String, String[]> contents =
        Map.of(
            "a.txt",
            new String[] {"a before\n", "a after\n"},
            "b.txt",
            new String[] {"b1\nb2\nb3\n", "b1\nb3\nb4\n"});
    try (Store store = Store.open(database)) {
      long row = store.read(tx -> tx.turns().byExternalId(turn)).orElseThrow().id();
      List<StoredFileChange> pending = store.read(tx -> tx.fileChanges().diffPendingOfTurn(row));
      assertEquals(2, pending.size(), "the kill left both diffs pending");
      GitPatchWriter writer = new GitPatchWriter(GitPatchWriter.BinaryStyle.SUMMARY);
      for (StoredFileChange change : pending) {
        String[] sides = contents.get(change.path().display());
        expected.put(
            change.path().display(),
            writer
                .write(
                    change.path(),
                    PatchSide.of(
                        change.before(), Optional.of(sides[0].getBytes(StandardCharsets.UTF_8))),
                    PatchSide.of(
                        change.after().orElseThrow(),
                        Optional.of(sides[1].getBytes(StandardCharsets.UTF_8))))
                .text());
      }
    }
    assertTrue(expected.get("b.txt").contains("-b2\n"), expected.get("b.txt"));

    // reopened: the queries compute the pending diffs on the spot, the same
    JsonNode records = CliProcess.run(env, "show", "--turn", turn).expect(0).json();
    for (JsonNode record : records) {
      assertEquals(1, record.get("added").asInt(), record.toString());
      assertEquals(1, record.get("removed").asInt(), record.toString());
    }
    try (Turndiff reopened = Turndiff.open(database, BoundaryOptions.defaults())) {
      for (String path : expected.keySet()) {
        assertEquals(expected.get(path), reopened.queries().fileDiff(turn, PathInput.text(path)));
      }
      // a service opening the store computes and stores them
      reopened.diffs().catchUp();
    }
    try (Turndiff reopened = Turndiff.open(database, BoundaryOptions.defaults())) {
      long row = reopened.store().read(tx -> tx.turns().byExternalId(turn)).orElseThrow().id();
      assertTrue(
          reopened.store().read(tx -> tx.fileChanges().diffPendingOfTurn(row)).isEmpty(),
          "stored by the catch-up");
      for (StoredFileChange change : reopened.store().read(tx -> tx.fileChanges().ofTurn(row))) {
        String stored =
            new String(
                reopened.store().read(tx -> tx.blobs().require(change.diff().orElseThrow())),
                StandardCharsets.UTF_8);
        assertEquals(expected.get(change.path().display()), stored);
        assertEquals(
            expected.get(change.path().display()),
            reopened.queries().fileDiff(turn, PathInput.text(change.path().display())));
      }
    }
    workspace.assertOutsideUnchanged();
  }

  @Test
  void theDemoRunsOnATemporaryStoreAndLeavesNothingBehind() throws Exception {
    Path dataHome = temp.resolve("xdg");
    CommandRun demo =
        CliProcess.run(Map.of("XDG_DATA_HOME", dataHome.toString()), "demo").expect(0);
    assertTrue(demo.out().contains("canary: the outside secret appears 0 times"), demo.out());
    assertTrue(demo.out().contains("+def greet(name, punctuation='!'):"), demo.out());
    assertTrue(demo.out().contains("\"reason\" : \"escapes_workspace\""), demo.out());
    assertFalse(
        Files.exists(dataHome.resolve("turndiff/turndiff.db")),
        "without --db the default store ($XDG_DATA_HOME/turndiff/turndiff.db) is not made");
    Path workspace = DemoCommandTest.printed(demo, "workspace:");
    Path store = DemoCommandTest.printed(demo, "store:");
    assertTrue(store.startsWith(workspace.getParent()), "the store is the demo's own: " + store);
    assertFalse(
        Files.exists(workspace.getParent()), "the demo's temp dir is removed: " + demo.out());
  }

  @Test
  void anUnreadableFileIsNeverRecordedAsAbsent() throws Exception {
    TestWorkspace workspace =
        TestWorkspace.in(temp).file("locked.txt", "private\n").mode("locked.txt", "---------");
    UnprivilegedCli cli = UnprivilegedCli.in(temp, workspace);
    String turn =
        cli.run("turn", "begin", "--workspace", workspace.root().toString())
            .expect(0)
            .json()
            .get("turn")
            .asText();
    JsonNode verdict = cli.run("snapshot", "--turn", turn, "locked.txt").expect(0).json().get(0);
    assertTrue(verdict.get("exists").isNull(), "existence unknown, never false: " + verdict);
    assertEquals("unreadable", verdict.get("reason").asText());
    assertEquals("metadata_only", verdict.get("verdict").asText());
    assertTrue(verdict.get("detail").asText().contains("Permission denied"), verdict.toString());
  }

  @Test
  void turndiffDbNamesTheStore() throws Exception {
    TestWorkspace workspace = TestWorkspace.in(temp);
    Path database = temp.resolve("elsewhere.db");
    CliProcess.run(
            Map.of("TURNDIFF_DB", database.toString()),
            "turn",
            "begin",
            "--workspace",
            workspace.root().toString())
        .expect(0);
    assertTrue(Files.exists(database));
  }
}
