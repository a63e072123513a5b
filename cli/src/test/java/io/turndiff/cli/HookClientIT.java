package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.RecordedChanges;
import io.turndiff.model.TurnState;
import io.turndiff.service.ServiceFiles;
import io.turndiff.store.Store;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hook client {@code bin/turndiff-hook-client} (hooks/src/main/c) against the real service, run
 * as a runtime runs its hook command (this JVM standing for the runtime): a copy of the checkout's
 * client in a bin/ of its own, beside a {@code turndiff-hook} that counts the calls the client
 * hands to the script and then runs the checkout's script. The first call of a runtime process goes
 * to the script (it remembers the store's key and the runtime's version); every later one the
 * client delivers alone over the service's socket, and what lands in the store is what the script's
 * calls land.
 */
class HookClientIT {

  @TempDir Path temp;

  private Map<String, String> env;
  private Path database;
  private Path runDirectory;
  private String key;
  private Path client;
  private Path handedToScript;

  @BeforeEach
  void setUp() throws Exception {
    Path checkout = HookTestStore.repository();
    Path built = checkout.resolve("bin/turndiff-hook-client");
    assumeTrue(
        Files.isExecutable(built), "the hook client is built only with a C compiler, on Linux");
    database = temp.resolve("data/turndiff.db");
    runDirectory = temp.resolve("xdg-run/turndiff");
    key = ServiceFiles.key(database.toString());
    env = new HashMap<>();
    env.put("TURNDIFF_DB", database.toString());
    env.put("XDG_RUNTIME_DIR", temp.resolve("xdg-run").toString());
    env.put("HOME", temp.toString());
    env.put("TURNDIFF_HOOK_NO_START", "1");
    Path bin = Files.createDirectories(temp.resolve("bin"));
    client = Files.copy(built, bin.resolve("turndiff-hook-client"));
    handedToScript = temp.resolve("handed-to-script");
    Path script = bin.resolve("turndiff-hook");
    Files.writeString(
        script,
        "#!/bin/sh\necho call >> '"
            + handedToScript
            + "'\nexec '"
            + checkout.resolve("bin/turndiff-hook")
            + "' \"$@\"\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
  }

  @AfterEach
  void tearDown() throws Exception {
    if (env != null) {
      ServiceCleanUp.stopServices(env);
    }
  }

  private CommandRun hook(String runtime, Path payload) throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder(client.toString(), runtime).redirectInput(payload.toFile());
    builder.environment().remove("TURNDIFF_DB");
    builder.environment().putAll(env);
    return CommandRun.ofProcess(builder);
  }

  private long callsHandedToScript() throws Exception {
    return Files.exists(handedToScript) ? Files.readAllLines(handedToScript).size() : 0;
  }

  private Path fixture(String name, Path workspace) throws Exception {
    String text =
        Files.readString(
            Path.of("..", "integrations", "fixtures").resolve(name), StandardCharsets.UTF_8);
    Path payload = temp.resolve("payloads").resolve(name.replace('/', '_'));
    Files.createDirectories(payload.getParent());
    Files.writeString(payload, text.replace("/tmp/cdx/exp/ws", workspace.toString()));
    return payload;
  }

  private String hookLog() throws Exception {
    Path log = runDirectory.resolve(key + ".hook.log");
    return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
  }

  @Test
  void aWholeCodexTurnThroughTheClientLandsInTheStoreWithOnlyTheFirstCallLeftToTheScript()
      throws Exception {
    Path workspace = Files.createDirectories(temp.resolve("ws"));
    Files.writeString(workspace.resolve("existing.txt"), "base\n");
    // set up in this JVM (StoreCommands): the client and the service are what the test is about
    StoreCommands.run(database, "track", "--workspace", workspace.toString()).expect(0);
    CommandRun start = CliProcess.run(env, "service", "start");
    assertEquals(0, start.exitCode(), start.err());

    CommandRun quiet = new CommandRun(0, "", "");
    assertEquals(quiet, hook("codex", fixture("codex/UserPromptSubmit.json", workspace)));
    assertEquals(1, callsHandedToScript(), "the first call: nothing remembered yet");
    assertEquals(
        quiet, hook("codex", fixture("codex/PreToolUse.apply_patch.update.json", workspace)));
    Files.writeString(workspace.resolve("existing.txt"), "base changed\n");
    assertEquals(quiet, hook("codex", fixture("codex/PreToolUse.Bash.sed.json", workspace)));
    Files.writeString(workspace.resolve("added-by-shell.txt"), "from the shell\n");
    assertEquals(quiet, hook("codex", fixture("codex/Stop.json", workspace)));
    assertEquals(1, callsHandedToScript(), "the other three delivered by the client alone");
    assertEquals("", hookLog(), "every delivery was accepted");

    assertEquals(0, CliProcess.run(env, "service", "stop").exitCode());
    String turn = "codex:01a22c16-ecba-72b3-b9bf-386121332e1f";
    try (Store store = Store.open(database)) {
      assertEquals(TurnState.FINISHED, RecordedChanges.turn(store, turn).state());
      assertEquals(
          Map.of(
              "existing.txt", "modified snapshot [call_upd]",
              "added-by-shell.txt", "added scan [call_sed]"),
          RecordedChanges.summary(store, turn));
    }
  }

  @Test
  void aSixtyMibWriteGoesThroughTheClientAndAStoppedServiceLeavesTheCallToTheScriptsSpool()
      throws Exception {
    Path workspace = Files.createDirectories(temp.resolve("ws"));
    CommandRun start = CliProcess.run(env, "service", "start");
    assertEquals(0, start.exitCode(), start.err());
    BigWritePrompt big = BigWritePrompt.writtenInto(temp, workspace);
    Path prompt = big.prompt();
    Path write = big.write();
    Path stop = big.stop();

    CommandRun quiet = new CommandRun(0, "", "");
    assertEquals(quiet, hook("claude-code", prompt));
    assertEquals(quiet, hook("claude-code", write));
    assertEquals(1, callsHandedToScript(), "the 60 MiB call delivered by the client alone");
    Files.writeString(workspace.resolve("big.txt"), "the file the Write made\n");
    assertEquals(0, CliProcess.run(env, "service", "stop").exitCode());

    // no service: the client hands the call to the script, which keeps it in the spool (no start:
    // TURNDIFF_HOOK_NO_START), and the next service takes it
    assertEquals(quiet, hook("claude-code", stop));
    assertEquals(2, callsHandedToScript());
    Path spool = runDirectory.resolve(key + ".spool");
    try (var kept = Files.list(spool)) {
      List<Path> calls = kept.toList();
      assertEquals(1, calls.size(), calls.toString());
      assertEquals(Files.readString(stop), Files.readString(calls.getFirst()));
    }
    assertEquals(0, CliProcess.run(env, "service", "start").exitCode());
    assertEquals(0, CliProcess.run(env, "service", "stop").exitCode());
    try (Store store = Store.open(database)) {
      assertEquals(
          TurnState.FINISHED, RecordedChanges.turn(store, "claude-code:p-big").state(), "late");
      assertEquals(
          Map.of("big.txt", "added snapshot [toolu_big]"),
          RecordedChanges.summary(store, "claude-code:p-big"));
    }
  }
}
