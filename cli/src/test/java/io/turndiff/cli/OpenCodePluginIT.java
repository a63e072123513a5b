package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.RecordedChanges;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.TurnState;
import io.turndiff.service.ServiceFiles;
import io.turndiff.store.Store;
import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredWorkspace;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OpenCode plugin ({@code integrations/opencode/turndiff.ts}) loaded in Node and called with
 * the hook calls recorded from OpenCode 1.18.33 against the real service ({@code service start}, a
 * temp store and run directory): {@code integrations/opencode/replay-hooks.mjs} calls the plugin's
 * hooks, the test does each tool's effect between them, then reads the store. The plugin is
 * installed as a {@code --user} install writes it ({@code track: "auto"}), so the untracked
 * workspace is tracked at the first prompt and the finish scan sees the shell's changes.
 */
class OpenCodePluginIT {

  private static final String SESSION = "opencode:ses_dd3e1cfb8ffeINY8lt5uJdeNEn";
  private static final String FIRST = "opencode:msg_22c1e32f7001tacuOEqpq6QbvI";
  private static final String SECOND = "opencode:msg_22c1f16520018HpxmMNRYLYABH";

  @TempDir Path temp;

  private Map<String, String> env;
  private Path database;
  private Path workspace;

  @BeforeEach
  void setUp() throws Exception {
    database = temp.resolve("data/turndiff.db");
    workspace = temp.resolve("ws");
    env = new HashMap<>();
    env.put("TURNDIFF_DB", database.toString());
    env.put("XDG_RUNTIME_DIR", temp.resolve("xdg-run").toString());
    env.put("HOME", temp.toString());
    Files.createDirectories(workspace);
    Files.writeString(workspace.resolve("existing.txt"), "base\n");
    Files.writeString(workspace.resolve("gone.txt"), "bye\n");
  }

  @AfterEach
  void tearDown() throws Exception {
    ServiceCleanUp.stopServices(env);
  }

  private static Path checkout() {
    return CliProcess.jar().toAbsolutePath().getParent().getParent().getParent();
  }

  /** The plugin's hooks called with these recorded calls, in order, in one Node process. */
  private void replay(String... fixtures) throws Exception {
    List<String> command = new ArrayList<>();
    command.add("node");
    command.add(checkout().resolve("integrations/opencode/replay-hooks.mjs").toString());
    command.add("--install");
    command.add("{\"track\":\"auto\"}");
    command.add(workspace.toString());
    command.addAll(List.of(fixtures));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().remove("TURNDIFF_DB");
    builder.environment().putAll(env);
    builder.environment().put("TURNDIFF_HOOK_NO_START", "1");
    CommandRun run = CommandRun.ofProcess(builder);
    assertEquals(new CommandRun(0, "", ""), run, String.join(" ", fixtures));
  }

  private void shell(String command) throws Exception {
    CommandRun run =
        CommandRun.ofProcess(new ProcessBuilder("sh", "-c", command).directory(workspace.toFile()));
    assertEquals(0, run.exitCode(), command + ": " + run.err());
  }

  @Test
  void theRecordedOpenCodeRunThroughThePluginLandsInTheStore() throws Exception {
    CommandRun start = CliProcess.run(env, "service", "start");
    assertEquals(0, start.exitCode(), start.err());

    replay("chat.message.json", "tool.execute.before.write.json");
    Files.writeString(workspace.resolve("new.txt"), "hello\n");
    replay("tool.execute.before.write.relative-path.json");
    Files.createDirectories(workspace.resolve("sub"));
    Files.writeString(workspace.resolve("sub/rel.txt"), "rel\n");
    replay("tool.execute.before.edit.json");
    Files.writeString(workspace.resolve("existing.txt"), "BASE\n");
    replay("tool.execute.before.bash.sed.json");
    shell("sed -i 's/BASE/based/' existing.txt");
    replay("tool.execute.before.bash.mv-rm-workdir.json");
    shell("mv new.txt moved.txt && rm gone.txt");
    // tool.execute.after and the other events are not forwarded: calling them changes nothing
    replay(
        "tool.execute.after.write.json",
        "event.session.status.idle.json",
        "event.file.edited.json");
    replay("event.session.idle.json");
    replay("chat.message.second-prompt-continue.json", "tool.execute.before.edit.replaceAll.json");
    Files.writeString(workspace.resolve("existing.txt"), "based2\n");
    replay("event.session.idle.json");
    assertEquals("", hookLog(), "every delivery was accepted");

    CommandRun stop = CliProcess.run(env, "service", "stop");
    assertEquals(0, stop.exitCode(), stop.err());
    try (Store store = Store.open(database)) {
      // chat.message began each turn, with OpenCode's message id; session.idle finished it
      for (String turn : List.of(FIRST, SECOND)) {
        assertEquals(TurnState.FINISHED, RecordedChanges.turn(store, turn).state(), turn);
        assertEquals(SESSION, RecordedChanges.turn(store, turn).sessionExternalId(), turn);
      }
      // track=auto: the workspace was tracked at the first prompt
      assertEquals(
          List.of(workspace.toString()),
          store.read(tx -> tx.workspaces().tracked()).stream()
              .map(StoredWorkspace::rootGiven)
              .toList());
      Map<String, StoredFileChange> first = changes(store, FIRST);
      assertEquals(
          Map.of(
              "new.txt", "unchanged snapshot",
              "sub/rel.txt", "added snapshot",
              "existing.txt", "modified snapshot",
              "moved.txt", "added scan",
              "gone.txt", "deleted scan"),
          summary(first));
      // the write and edit paths were snapshotted before the tools changed them
      assertInstanceOf(Snapshot.Absent.class, first.get("new.txt").before());
      assertInstanceOf(Snapshot.Absent.class, first.get("sub/rel.txt").before());
      assertEquals(content("base\n"), regular(first.get("existing.txt").before()).content());
      assertEquals(
          content("based\n"), regular(first.get("existing.txt").after().orElseThrow()).content());
      // the shell's changes, found by the finish scan
      assertEquals(
          content("hello\n"), regular(first.get("moved.txt").after().orElseThrow()).content());
      assertEquals(content("bye\n"), regular(first.get("gone.txt").before()).content());
      Map<String, StoredFileChange> second = changes(store, SECOND);
      assertEquals(Map.of("existing.txt", "modified snapshot"), summary(second));
      assertEquals(content("based\n"), regular(second.get("existing.txt").before()).content());
    }
  }

  private static Map<String, StoredFileChange> changes(Store store, String turn) {
    Map<String, StoredFileChange> changes = new TreeMap<>();
    for (StoredFileChange change : RecordedChanges.of(store, turn)) {
      changes.put(change.path().display(), change);
    }
    return changes;
  }

  private static Map<String, String> summary(Map<String, StoredFileChange> changes) {
    Map<String, String> summary = new TreeMap<>();
    changes.forEach(
        (path, change) ->
            summary.put(
                path, change.change().orElseThrow().code() + " " + change.detectedBy().code()));
    return summary;
  }

  private static Snapshot.RegularFile regular(Snapshot snapshot) {
    return assertInstanceOf(Snapshot.RegularFile.class, snapshot);
  }

  private static Sha256 content(String text) {
    return Sha256.of(text.getBytes(StandardCharsets.UTF_8));
  }

  private String hookLog() throws Exception {
    Path log =
        temp.resolve("xdg-run/turndiff")
            .resolve(ServiceFiles.key(database.toString()) + ".hook.log");
    return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
  }
}
