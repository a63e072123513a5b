package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.RecordedChanges;
import io.turndiff.model.RuntimeProcess;
import io.turndiff.model.Snapshot;
import io.turndiff.model.TurnState;
import io.turndiff.ownfiles.Proc;
import io.turndiff.service.Discovery;
import io.turndiff.service.ServiceFiles;
import io.turndiff.store.Store;
import io.turndiff.store.StoredFileChange;
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
 * The shell hook client {@code bin/turndiff-hook} against the real service: it reads the discovery
 * file the Java side writes, proves the daemon's identity with its own shell HMAC (the marker it
 * leaves names the instance), and with no service running starts one through {@code service start}.
 * Whatever happens it prints nothing and exits 0.
 */
class HookScriptIT {

  @TempDir Path temp;

  private Map<String, String> env;
  private Path database;
  private Path runDirectory;
  private String key;

  @BeforeEach
  void setUp() {
    database = temp.resolve("data/turndiff.db");
    runDirectory = temp.resolve("xdg-run/turndiff");
    key = ServiceFiles.key(database.toString());
    env = new HashMap<>();
    env.put("TURNDIFF_DB", database.toString());
    env.put("XDG_RUNTIME_DIR", temp.resolve("xdg-run").toString());
    env.put("HOME", temp.toString());
  }

  @AfterEach
  void tearDown() throws Exception {
    ServiceCleanUp.stopServices(env);
  }

  private static Path script() {
    return CliProcess.jar()
        .toAbsolutePath()
        .getParent()
        .getParent()
        .getParent()
        .resolve("bin/turndiff-hook");
  }

  private CommandRun hook(String runtime, Path payload) throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder("dash", script().toString(), runtime).redirectInput(payload.toFile());
    builder.environment().remove("TURNDIFF_DB");
    builder.environment().putAll(env);
    return CommandRun.ofProcess(builder);
  }

  private Path payload() throws Exception {
    Path payload = temp.resolve("payload.json");
    Files.writeString(
        payload,
        "{\"session_id\":\"s-1\",\"turn_id\":\"t-1\",\"cwd\":\""
            + temp
            + "\","
            + "\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"hi\"}");
    return payload;
  }

  private String marker() throws Exception {
    Path marker = runDirectory.resolve(key + ".verified");
    return Files.exists(marker) ? Files.readString(marker, StandardCharsets.UTF_8).strip() : "";
  }

  private String expectedMarker() throws Exception {
    Discovery discovery = Discovery.read(runDirectory.resolve(key + ".json")).orElseThrow();
    return discovery.instance()
        + " "
        + discovery.pid()
        + " "
        + discovery.procStartTicks().getAsLong()
        + " "
        + discovery.port();
  }

  /** The codex hook calls the service received, from {@code service status --json}. */
  private long received() throws Exception {
    CommandRun status = CliProcess.run(env, "service", "status", "--json");
    JsonNode hooks = Json.mapper().readTree(status.out()).get("service").get("hooks");
    return hooks.has("codex") ? hooks.get("codex").get("received").asLong() : 0;
  }

  /**
   * The script speaks to the service's Unix socket, without the token and without the identity
   * challenge (the socket's mode and the peer's uid decide); without the socket it proves the
   * service on its port and sends the token there, as before.
   */
  @Test
  void theScriptSendsThePayloadOverTheSocketElseItProvesTheServiceOnItsPort() throws Exception {
    CommandRun start = CliProcess.run(env, "service", "start");
    assertEquals(0, start.exitCode(), start.err());
    Path socket = runDirectory.resolve(key.substring(0, 16) + ".sock");
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)));
    CommandRun status = CliProcess.run(env, "service", "status");
    assertTrue(status.out().contains("socket:      " + socket), status.out());

    assertEquals(new CommandRun(0, "", ""), hook("codex", payload()));
    assertEquals(1, received(), "the call arrived");
    assertEquals("", marker(), "no challenge on the port: the socket was used");

    Files.delete(socket);
    assertEquals(new CommandRun(0, "", ""), hook("codex", payload()));
    assertEquals(2, received(), "the call arrived over the port");
    assertEquals(expectedMarker(), marker(), "the script proved the Java service's identity");
    String log = hookLog();
    assertFalse(log.contains("did not prove") || log.contains("failed"), log);
  }

  /**
   * With no service running, the script starts one; the calls it kept in its spool before, while
   * none might be started (issue 21, item 3: a cold start never drops a call), the service takes
   * first, in order, late: the Write's path is recorded as not captured because the service was not
   * running, and {@code service status} counts them.
   */
  @Test
  void withNoServiceRunningTheScriptStartsOneThroughServiceStartAndItTakesTheKeptCallsFirst()
      throws Exception {
    Path workspace = Files.createDirectories(temp.resolve("ws"));
    Files.writeString(workspace.resolve("a.txt"), "before\n");
    String head =
        "{\"session_id\":\"s-kept\",\"prompt_id\":\"p-kept\",\"cwd\":\"" + workspace + "\",";
    Path prompt = temp.resolve("kept-prompt.json");
    Files.writeString(prompt, head + "\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"go\"}");
    Path write = temp.resolve("kept-write.json");
    Files.writeString(
        write,
        head
            + "\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Write\",\"tool_use_id\":\"toolu_k\","
            + "\"tool_input\":{\"file_path\":\""
            + workspace.resolve("a.txt")
            + "\",\"content\":\"after\\n\"}}");
    Path stop = temp.resolve("kept-stop.json");
    Files.writeString(stop, head + "\"hook_event_name\":\"Stop\"}");
    env.put("TURNDIFF_HOOK_NO_START", "1");
    CommandRun quiet = new CommandRun(0, "", "");
    assertEquals(quiet, hook("claude-code", prompt));
    assertEquals(quiet, hook("claude-code", write));
    Files.writeString(workspace.resolve("a.txt"), "after\n"); // the Write ran, unseen
    assertEquals(quiet, hook("claude-code", stop));
    CommandRun notRunning = CliProcess.run(env, "service", "status");
    assertTrue(
        notRunning.out().contains("hook calls kept: 3 waiting in the spool"), notRunning.out());
    env.remove("TURNDIFF_HOOK_NO_START");

    // TURNDIFF_HOME names a launcher: here one that runs the packaged jar
    Path home = CliProcess.launcherHome(temp.resolve("turndiff-home"));
    env.put("TURNDIFF_HOME", home.toString());
    env.put("TURNDIFF_HOOK_START_WAIT", "90");

    CommandRun run = hook("codex", payload());
    assertEquals(quiet, run);
    // the service it started listens on its socket: the call went there, with no challenge
    assertEquals("", marker(), hookLog());
    assertEquals(1, received(), hookLog());
    CommandRun status = CliProcess.run(env, "service", "status", "--json");
    assertEquals(0, status.exitCode(), status.out() + status.err());
    JsonNode answer = Json.mapper().readTree(status.out());
    assertEquals(database.toString(), answer.get("service").get("store").asText());
    assertTrue(hookLog().contains("started one"), hookLog());
    // status shows the hook clients' log
    assertTrue(answer.path("hook_failures").toString().contains("started one"), status.out());
    assertEquals(3, answer.at("/service/hooks/claude-code/late").asInt(), status.out());
    assertEquals(0, answer.get("hook_calls_kept").asInt(), status.out());

    assertEquals(0, CliProcess.run(env, "service", "stop").exitCode());
    try (Store store = Store.open(database)) {
      String turn = "claude-code:p-kept";
      assertEquals(TurnState.FINISHED, RecordedChanges.turn(store, turn).state());
      StoredFileChange change = RecordedChanges.of(store, turn).getFirst();
      assertEquals("a.txt", change.path().display());
      Snapshot.MetadataOnly before =
          assertInstanceOf(Snapshot.MetadataOnly.class, change.before(), change.toString());
      assertTrue(
          before.reasonDetail().contains("the turndiff service was not running"),
          before.reasonDetail());
    }
  }

  /** A fixture's bytes with its recorded workspace replaced by {@code workspace}, in a file. */
  private Path fixture(String name, Path workspace) throws Exception {
    String text =
        Files.readString(
            Path.of("..", "integrations", "fixtures").resolve(name), StandardCharsets.UTF_8);
    Path payload = temp.resolve("payloads").resolve(name.replace('/', '_'));
    Files.createDirectories(payload.getParent());
    Files.writeString(payload, text.replace("/tmp/cdx/exp/ws", workspace.toString()));
    return payload;
  }

  @Test
  void aWholeCodexTurnThroughTheScriptLandsInTheStore() throws Exception {
    Path workspace = temp.resolve("ws");
    Files.createDirectories(workspace);
    Files.writeString(workspace.resolve("existing.txt"), "base\n");
    // set up in this JVM (StoreCommands): the script and the service are what the test is about
    StoreCommands.run(database, "track", "--workspace", workspace.toString()).expect(0);
    CommandRun start = CliProcess.run(env, "service", "start");
    assertEquals(0, start.exitCode(), start.err());

    CommandRun quiet = new CommandRun(0, "", "");
    assertEquals(quiet, hook("codex", fixture("codex/UserPromptSubmit.json", workspace)));
    assertEquals(
        quiet, hook("codex", fixture("codex/PreToolUse.apply_patch.update.json", workspace)));
    Files.writeString(workspace.resolve("existing.txt"), "base changed\n");
    assertEquals(quiet, hook("codex", fixture("codex/PreToolUse.Bash.sed.json", workspace)));
    Files.writeString(workspace.resolve("added-by-shell.txt"), "from the shell\n");
    assertEquals(quiet, hook("codex", fixture("codex/Stop.json", workspace)));
    assertEquals("", hookLog(), "every delivery was accepted");
    // doctor sees Codex's hooks firing here, observed by the service, not configured (issue 21
    // item 0): the workspace's hooks are not installed, so the user's Codex settings hold them
    CommandRun install = CliProcess.run(env, "hooks", "install", "--runtime", "codex", "--user");
    assertEquals(0, install.exitCode(), install.err());
    CommandRun doctor =
        CliProcess.run(env, "doctor", "--workspace", workspace.toString(), "--json");
    JsonNode report = Json.mapper().readTree(doctor.out());
    assertEquals(0, doctor.exitCode(), doctor.out() + doctor.err());
    JsonNode firing = DoctorVerdicts.named(report.get("checks"), "hooks codex firing");
    assertEquals("ok", firing.get("verdict").asText(), firing.toString());
    assertTrue(firing.get("found").asText().contains("last call Stop"), firing.toString());
    assertTrue(
        firing.get("found").asText().contains("the last prompt's hooks all arrived"),
        firing.toString());
    assertEquals(
        "ok", DoctorVerdicts.named(report.get("checks"), "service").get("verdict").asText());
    assertEquals(
        "ok", DoctorVerdicts.named(report.get("checks"), "tracking").get("verdict").asText());
    assertEquals("ok", DoctorVerdicts.named(report.get("checks"), "store").get("verdict").asText());

    CommandRun stop = CliProcess.run(env, "service", "stop");
    assertEquals(0, stop.exitCode(), stop.err());
    String turn = "codex:01a22c16-ecba-72b3-b9bf-386121332e1f";
    try (Store store = Store.open(database)) {
      assertEquals(TurnState.FINISHED, RecordedChanges.turn(store, turn).state());
      assertEquals(
          "codex:01a22c16-ec5e-7b40-8390-e82f84f74cdc",
          RecordedChanges.turn(store, turn).sessionExternalId());
      Map<String, String> recorded = RecordedChanges.summary(store, turn);
      // the shell's file was made while its Bash call was in flight (its Pre came, the watching
      // service saw the write, the turn's finish ended the call): the call owns it (issue 27)
      assertEquals(
          Map.of(
              "existing.txt", "modified snapshot [call_upd]",
              "added-by-shell.txt", "added scan [call_sed]"),
          recorded);
    }
  }

  /**
   * The script names the runtime's process with the call (issue 21 item 0): run as a runtime runs
   * it, through {@code sh -c}, by this JVM standing for the runtime, the turn it began keeps this
   * JVM's pid and start time (the shell between is skipped), so that the service can tell when the
   * runtime is gone.
   */
  @Test
  void theScriptNamesTheRuntimeAboveTheShellThatRunsItWithItsStartTime() throws Exception {
    Path workspace = temp.resolve("ws");
    Files.createDirectories(workspace);
    CommandRun start = CliProcess.run(env, "service", "start");
    assertEquals(0, start.exitCode(), start.err());
    Path payload = fixture("codex/UserPromptSubmit.json", workspace);
    ProcessBuilder builder =
        new ProcessBuilder(
            "sh",
            "-c",
            "dash \"$0\" codex < \"$1\"; true",
            script().toString(),
            payload.toString());
    builder.environment().remove("TURNDIFF_DB");
    builder.environment().putAll(env);
    assertEquals(new CommandRun(0, "", ""), CommandRun.ofProcess(builder));

    CommandRun stop = CliProcess.run(env, "service", "stop");
    assertEquals(0, stop.exitCode(), stop.err());
    long self = ProcessHandle.current().pid();
    try (Store store = Store.open(database)) {
      RuntimeProcess runtime =
          RecordedChanges.turn(store, "codex:01a22c16-ecba-72b3-b9bf-386121332e1f")
              .runtime()
              .orElseThrow();
      assertEquals(self, runtime.pid());
      assertEquals(Proc.startTicks(self).orElseThrow(), runtime.startTicks());
    }
  }

  /**
   * A runtime installed as npm installs it (its executable, a real process of its own that runs the
   * hook, deep in its package; the package's {@code package.json} above it): its version goes with
   * the call, lands in the sighting, and {@code hooks status} still shows it after the service
   * restarted.
   */
  @Test
  void theRuntimesVersionFromItsInstallIsShownByHooksStatusAfterARestart() throws Exception {
    Path workspace = temp.resolve("ws");
    Files.createDirectories(workspace);
    Path codexPackage = temp.resolve("lib/node_modules/@openai/codex");
    Path executable = codexPackage.resolve("vendor/x86_64-unknown-linux-musl/codex/codex");
    Files.createDirectories(executable.getParent());
    Files.copy(Path.of("/bin/dash").toRealPath(), executable);
    Files.setPosixFilePermissions(executable, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(
        codexPackage.resolve("package.json"),
        "{\n  \"name\": \"@openai/codex\",\n  \"version\": \"0.171.0\"\n}\n");
    CommandRun start = CliProcess.run(env, "service", "start");
    assertEquals(0, start.exitCode(), start.err());
    ProcessBuilder builder =
        new ProcessBuilder(
            executable.toString(),
            "-c",
            "dash \"$0\" codex < \"$1\"; true",
            script().toString(),
            fixture("codex/UserPromptSubmit.json", workspace).toString());
    builder.environment().remove("TURNDIFF_DB");
    builder.environment().putAll(env);
    assertEquals(new CommandRun(0, "", ""), CommandRun.ofProcess(builder));
    CommandRun stop = CliProcess.run(env, "service", "stop");
    assertEquals(0, stop.exitCode(), stop.err());

    CommandRun again = CliProcess.run(env, "service", "start");
    assertEquals(0, again.exitCode(), again.err());
    CommandRun status =
        CliProcess.run(env, "hooks", "status", "--workspace", workspace.toString(), "--json");
    assertEquals(0, status.exitCode(), status.err());
    JsonNode sightings = Json.mapper().readTree(status.out()).get("service").get("sightings");
    assertEquals(1, sightings.size(), status.out());
    assertEquals("codex", sightings.get(0).get("runtime").asText());
    assertEquals("0.171.0", sightings.get(0).get("runtime_version").asText(), status.out());
    assertEquals("UserPromptSubmit", sightings.get(0).get("last_event").asText());
    CommandRun text = CliProcess.run(env, "hooks", "status", "--workspace", workspace.toString());
    assertTrue(text.out().contains("  codex 0.171.0 in " + workspace), text.out());
  }

  /**
   * A run directory made 0777 is never used by the script: the call is not delivered (no turn
   * begins), nothing is written into the directory, and the call is recorded beside the store,
   * where {@code service status} shows it with what to do.
   */
  @Test
  void aRunDirectoryOpenToOthersIsNotUsedAndTheUndeliveredCallIsRecordedBesideTheStore()
      throws Exception {
    Path workspace = Files.createDirectories(temp.resolve("ws"));
    CommandRun start = CliProcess.run(env, "service", "start");
    assertEquals(0, start.exitCode(), start.err());
    Files.setPosixFilePermissions(runDirectory, PosixFilePermissions.fromString("rwxrwxrwx"));
    List<String> before = list(runDirectory);

    assertEquals(
        new CommandRun(0, "", ""),
        hook("codex", fixture("codex/UserPromptSubmit.json", workspace)));
    assertEquals(before, list(runDirectory), "nothing written into it");
    String recorded = Files.readString(Path.of(database + ".hook.log"), StandardCharsets.UTF_8);
    assertTrue(
        recorded.contains(
            "codex the run directory "
                + runDirectory
                + " is mode drwxrwxrwx, not drwx------; not using it, this hook call was not"
                + " delivered"),
        recorded);
    assertEquals(
        "rw-------",
        PosixFilePermissions.toString(
            Files.getPosixFilePermissions(Path.of(database + ".hook.log"))));
    CommandRun status = CliProcess.run(env, "service", "status");
    assertEquals(1, status.exitCode(), status.out());
    assertTrue(
        status.out().contains("not usable: the run directory " + runDirectory), status.out());
    assertTrue(status.out().contains("this hook call was not delivered"), status.out());
    // doctor names both failures and what to do (issue 21 item 0), exit 1
    CommandRun doctor =
        CliProcess.run(env, "doctor", "--workspace", workspace.toString(), "--json");
    assertEquals(1, doctor.exitCode(), doctor.out() + doctor.err());
    JsonNode checks = Json.mapper().readTree(doctor.out()).get("checks");
    JsonNode service = DoctorVerdicts.named(checks, "service");
    assertEquals("fail", service.get("verdict").asText(), service.toString());
    assertTrue(
        service.get("found").asText().contains("the run directory " + runDirectory),
        service.toString());
    assertEquals("fail", DoctorVerdicts.named(checks, "hook calls lost").get("verdict").asText());

    Files.setPosixFilePermissions(runDirectory, PosixFilePermissions.fromString("rwx------"));
    CommandRun stop = CliProcess.run(env, "service", "stop");
    assertEquals(0, stop.exitCode(), stop.err());
    try (Store store = Store.open(database)) {
      assertEquals(0, store.read(tx -> tx.turns().open()).size(), "no turn began");
    }
  }

  /**
   * The script has no size limit of its own: a Claude Code {@code Write} of a ~60 MiB file goes
   * through it to the real service, which snapshots the path.
   */
  @Test
  void aSixtyMibWriteGoesThroughTheScriptAndItsPathIsSnapshotted() throws Exception {
    Path workspace = Files.createDirectories(temp.resolve("ws"));
    CommandRun start = CliProcess.run(env, "service", "start");
    assertEquals(0, start.exitCode(), start.err());
    BigWritePrompt big = BigWritePrompt.writtenInto(temp, workspace);
    Path prompt = big.prompt();
    Path write = big.write();
    Path stop = big.stop();
    assertTrue(Files.size(write) > (60L << 20), "~60 MiB: " + Files.size(write));

    CommandRun quiet = new CommandRun(0, "", "");
    assertEquals(quiet, hook("claude-code", prompt));
    assertEquals(quiet, hook("claude-code", write));
    Files.writeString(workspace.resolve("big.txt"), "the file the Write made\n");
    assertEquals(quiet, hook("claude-code", stop));
    assertEquals("", hookLog(), "every delivery was accepted");
    assertEquals(0, CliProcess.run(env, "service", "stop").exitCode());
    try (Store store = Store.open(database)) {
      assertEquals(
          Map.of("big.txt", "added snapshot [toolu_big]"),
          RecordedChanges.summary(store, "claude-code:p-big"));
    }
  }

  private static List<String> list(Path directory) throws Exception {
    try (var names = Files.list(directory)) {
      return names.map(path -> path.getFileName().toString()).sorted().toList();
    }
  }

  private String hookLog() throws Exception {
    Path log = runDirectory.resolve(key + ".hook.log");
    return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
  }
}
