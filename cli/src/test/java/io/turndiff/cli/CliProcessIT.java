package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.store.Store;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The packaged jar as real processes: crashes with kill -9, the demo on the default store. */
class CliProcessIT {

  @TempDir Path temp;

  @Test
  void aTurnKilledBetweenSnapshotAndFinishKeepsItsBeforeStates() throws Exception {
    TestWorkspace workspace =
        TestWorkspace.in(temp).file("a.txt", "a before\n").file("b.txt", "b before\n");
    Path database = temp.resolve("store/turndiff.db");
    Map<String, String> env = Map.of("TURNDIFF_DB", database.toString());
    String turn =
        CliProcess.run(env, "turn", "begin", "--workspace", workspace.root().toString())
            .expect(0)
            .json()
            .get("turn")
            .asText();
    CliProcess.run(env, "snapshot", "--turn", turn, "--tool-call", "one", "a.txt").expect(0);

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

    Files.writeString(workspace.resolve("a.txt"), "a after\n");
    Files.writeString(workspace.resolve("b.txt"), "b after\n");
    JsonNode records = CliProcess.run(env, "show", "--turn", turn).expect(0).json();
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
  void theDemoRunsOnTheDefaultStore() throws Exception {
    Path dataHome = temp.resolve("xdg");
    CommandRun demo =
        CliProcess.run(Map.of("XDG_DATA_HOME", dataHome.toString()), "demo").expect(0);
    assertTrue(demo.out().contains("canary: the outside secret appears 0 times"), demo.out());
    assertTrue(demo.out().contains("+def greet(name, punctuation='!'):"), demo.out());
    assertTrue(demo.out().contains("\"reason\" : \"escapes_workspace\""), demo.out());
    Path database = dataHome.resolve("turndiff/turndiff.db");
    assertTrue(
        Files.exists(database), "the default store is at $XDG_DATA_HOME/turndiff/turndiff.db");
    assertEquals(
        "rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(database)));
    try (Store store = Store.open(database)) {
      assertEquals(1, store.read(tx -> tx.workspaces().byId(1)).stream().count());
    }
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
