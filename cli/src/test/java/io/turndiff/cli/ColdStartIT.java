package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.service.Discovery;
import io.turndiff.service.ServiceFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hooks' cold start pays one JVM (docs/service.md, "Cold start"): a hook call that finds no
 * service starts the daemon's JVM itself ({@code service daemon}), which takes the start lock,
 * probes and takes the spool, instead of a {@code service start} JVM that spawns the daemon's. The
 * launcher under {@code TURNDIFF_HOME} counts the JVMs: each of its runs is one. Before the change
 * it ran twice ({@code service start}, then the {@code serve --daemon} it spawned).
 */
class ColdStartIT {

  private static final String SECRET_VARIABLE = "ANTHROPIC_API_KEY";

  @TempDir Path temp;

  private Map<String, String> env;
  private Path database;
  private Path runDirectory;
  private String key;
  private Path launches;

  @BeforeEach
  void setUp() throws Exception {
    database = temp.resolve("data/turndiff.db");
    runDirectory = temp.resolve("xdg-run/turndiff");
    key = ServiceFiles.key(database.toString());
    env = new HashMap<>();
    env.put("TURNDIFF_DB", database.toString());
    env.put("XDG_RUNTIME_DIR", temp.resolve("xdg-run").toString());
    env.put("HOME", temp.toString());
    env.put("TURNDIFF_HOOK_START_WAIT", "90");
    // a runtime's key, which the long-lived service must not carry
    env.put(SECRET_VARIABLE, "sk-not-for-the-service");
    Path real = CliProcess.launcherHome(temp.resolve("real-home"));
    Path counting = Files.createDirectories(temp.resolve("counting-home"));
    launches = temp.resolve("launches");
    Path launcher = counting.resolve("turndiff");
    Files.writeString(
        launcher,
        "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '"
            + launches
            + "'\nexec '"
            + real.resolve("turndiff")
            + "' \"$@\"\n");
    Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwx------"));
    env.put("TURNDIFF_HOME", counting.toString());
  }

  @AfterEach
  void tearDown() throws Exception {
    ServiceCleanUp.stopServices(env);
  }

  private static Path checkoutScript() {
    return HookTestStore.repository().resolve("bin/turndiff-hook");
  }

  private Path payload() throws Exception {
    Path workspace = Files.createDirectories(temp.resolve("ws"));
    Path payload = temp.resolve("payload.json");
    Files.writeString(
        payload,
        "{\"session_id\":\"s-cold\",\"turn_id\":\"t-1\",\"cwd\":\""
            + workspace
            + "\",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"hi\"}");
    return payload;
  }

  private CommandRun hook(List<String> command) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command).redirectInput(payload().toFile());
    builder.environment().remove("TURNDIFF_DB");
    builder.environment().putAll(env);
    return CommandRun.ofProcess(builder);
  }

  private List<String> launched() throws Exception {
    return Files.exists(launches) ? Files.readAllLines(launches) : List.of();
  }

  private String hookLog() throws Exception {
    Path log = runDirectory.resolve(key + ".hook.log");
    return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
  }

  /** The codex hook calls the service received, from {@code service status --json}. */
  private long received() throws Exception {
    CommandRun status = CliProcess.run(env, "service", "status", "--json");
    JsonNode hooks = Json.mapper().readTree(status.out()).get("service").get("hooks");
    return hooks.has("codex") ? hooks.get("codex").get("received").asLong() : 0;
  }

  private String mode(Path path) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
  }

  /**
   * What one cold start through {@code hook} must show: one JVM launched, and it is the service
   * (its process runs {@code service daemon}, from {@code /}, without the runtime's key), the call
   * delivered, the run directory 0700, the store's folder 0700 and the service's log 0600.
   */
  private void assertOneJvmServes(CommandRun run) throws Exception {
    assertEquals(new CommandRun(0, "", ""), run);
    assertEquals(List.of("service daemon --db " + database), launched(), "one JVM, the daemon's");
    assertEquals(1, received(), hookLog());
    assertEquals(List.of("service daemon --db " + database), launched(), hookLog());
    Discovery discovery = Discovery.read(runDirectory.resolve(key + ".json")).orElseThrow();
    Path proc = Path.of("/proc", Long.toString(discovery.pid()));
    String commandLine =
        Files.readString(proc.resolve("cmdline"), StandardCharsets.UTF_8).replace('\0', ' ');
    assertTrue(commandLine.contains(" service daemon --db " + database), commandLine);
    assertEquals(Path.of("/"), Files.readSymbolicLink(proc.resolve("cwd")));
    String environment =
        Files.readString(proc.resolve("environ"), StandardCharsets.UTF_8).replace('\0', '\n');
    assertFalse(environment.contains(SECRET_VARIABLE), environment);
    assertTrue(environment.contains("TURNDIFF_DB=" + database), environment);
    assertEquals("rwx------", mode(runDirectory));
    assertEquals("rwx------", mode(database.getParent()));
    Path log = Path.of(database + ".service.log");
    assertEquals("rw-------", mode(log));
    // the daemon's own output went to its log, not to the hook log
    assertTrue(Files.readString(log, StandardCharsets.UTF_8).contains("\"url\""), hookLog());
  }

  @Test
  void aHookScriptCallWithNoServiceStartsTheDaemonsJvmAloneAndItServesTheCall() throws Exception {
    assertOneJvmServes(hook(List.of("dash", checkoutScript().toString(), "codex")));
  }

  /** The hook client hands a cold call to the script beside it, which starts the daemon. */
  @Test
  void aHookClientCallWithNoServiceStartsTheDaemonsJvmAlone() throws Exception {
    Path built = HookTestStore.repository().resolve("bin/turndiff-hook-client");
    assumeTrue(
        Files.isExecutable(built), "the hook client is built only with a C compiler, on Linux");
    Path bin = Files.createDirectories(temp.resolve("bin"));
    Path client = Files.copy(built, bin.resolve("turndiff-hook-client"));
    Path script = Files.copy(checkoutScript(), bin.resolve("turndiff-hook"));
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    assertOneJvmServes(hook(List.of(client.toString(), "codex")));
  }

  /**
   * Two daemons started at once, and a {@code service start} beside them, give one service: the
   * start lock decides; the daemons that lost find the winner's service, say so (started false, its
   * pid) and exit 0; so does the start command.
   */
  @Test
  void twoDaemonsAndAServiceStartAtOnceGiveOneService() throws Exception {
    Path launcher = Path.of(env.get("TURNDIFF_HOME"), "turndiff");
    List<Process> daemons = new ArrayList<>();
    List<Path> outputs = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      Path output = temp.resolve("daemon-" + i + ".out");
      ProcessBuilder builder =
          new ProcessBuilder(launcher.toString(), "service", "daemon", "--db", database.toString())
              .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
              .redirectOutput(output.toFile())
              .redirectError(
                  ProcessBuilder.Redirect.appendTo(temp.resolve("daemons.err").toFile()));
      builder.environment().remove("TURNDIFF_DB");
      builder.environment().putAll(env);
      daemons.add(builder.start());
      outputs.add(output);
    }
    CommandRun start = CliProcess.run(env, "service", "start", "--wait", "90");
    assertEquals(0, start.exitCode(), start.out() + start.err());
    long servicePid = Json.mapper().readTree(start.out()).get("pid").asLong();

    Instant deadline = Instant.now().plus(Duration.ofSeconds(90));
    // every daemon but the service (when one won the lock) exits once it has found the service;
    // when the start command won, both are on their way out, and one may still be alive here
    while (daemons.stream().anyMatch(daemon -> daemon.isAlive() && daemon.pid() != servicePid)
        && Instant.now().isBefore(deadline)) {
      TimeUnit.MILLISECONDS.sleep(100);
    }
    // at most one daemon runs on: the service, when a daemon won the lock
    long running = 0;
    for (int i = 0; i < daemons.size(); i++) {
      Process daemon = daemons.get(i);
      if (daemon.isAlive()) {
        running++;
        assertEquals(servicePid, daemon.pid(), "the daemon that runs is the service");
        continue;
      }
      assertEquals(0, daemon.exitValue(), Files.readString(temp.resolve("daemons.err")));
      JsonNode said = Json.mapper().readTree(Files.readString(outputs.get(i)));
      assertFalse(said.get("started").asBoolean(), said.toString());
      assertEquals(servicePid, said.get("pid").asLong(), said.toString());
    }
    assertTrue(running <= 1, "daemons still running: " + running);
    Discovery discovery = Discovery.read(runDirectory.resolve(key + ".json")).orElseThrow();
    assertEquals(servicePid, discovery.pid());
    CommandRun status = CliProcess.run(env, "service", "status", "--json");
    assertEquals(0, status.exitCode(), status.out() + status.err());
    assertEquals(servicePid, Json.mapper().readTree(status.out()).at("/service/pid").asLong());
  }
}
