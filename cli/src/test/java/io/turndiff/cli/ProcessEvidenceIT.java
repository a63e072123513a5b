package io.turndiff.cli;

import static io.turndiff.cli.ModelScript.Step.say;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestWorkspace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21, item 0, the runtime's process as evidence, with the real Claude Code: two sessions,
 * each held mid-prompt by the scripted model (it delays its answer), one in a workspace whose hooks
 * are installed, one in a workspace whose hooks were installed and taken out again. Once both
 * processes have run longer than the grace, {@code hooks status} in the hooked workspace shows no
 * process warning (its prompt's begin arrived: the prompt is open), and in the other it says {@code
 * hooks may not be firing for claude-code: its process PID has run in W since T and no hook arrived
 * since}, naming the process the test started, in JSON, in text and in {@code doctor}. The process
 * is found in {@code /proc} as the runtime runs, from the ITs' npm install.
 */
class ProcessEvidenceIT {

  @TempDir Path temp;

  private HookTestStore store;
  private Map<String, String> env;

  @BeforeEach
  void setUp() throws Exception {
    store = HookTestStore.in(temp);
    env = store.env();
    store.startService();
  }

  @AfterEach
  void tearDown() throws Exception {
    store.stopService();
  }

  @Test
  void claudeCodeAtWorkWithNoHookIsFlaggedAndWithItsHooksIsNot() throws Exception {
    Path claudeHome = temp.resolve("claude-home");
    Map<String, String> cliEnv = new HashMap<>(env);
    cliEnv.put("HOME", claudeHome.toString()); // status reads Claude's sessions there
    ClaudeCode claude = ClaudeCode.installed(HookTestStore.repository(), temp.resolve("logs"));
    ModelScript.Hold hookedThinks = hold();
    ModelScript.Hold bareThinks = hold();
    ModelScript script =
        new ModelScript()
            .prompt("do prompt hooked", say("Done with prompt hooked."))
            .hold("do prompt hooked", hookedThinks)
            .prompt("do prompt bare", say("Done with prompt bare."))
            .hold("do prompt bare", bareThinks);

    Path hooked = workspace("hooked");
    store.installHooks("claude-code", "--workspace", hooked.toString());
    Path bare = workspace("bare");
    store.installHooks("claude-code", "--workspace", bare.toString());
    CliProcess.run(
            env, "hooks", "uninstall", "--runtime", "claude-code", "--workspace", bare.toString())
        .expect(0);

    // a thread each: the common pool may have one thread on a 2-core machine, and the first
    // prompt, held, would keep the second from starting
    ExecutorService runs = Executors.newFixedThreadPool(2);
    try (AnthropicMessagesServer model = new AnthropicMessagesServer(script)) {
      Map<String, String> claudeEnv =
          ClaudeCode.environment(store.runtimeBase(), model, claudeHome);
      CompletableFuture<Void> hookedRun = prompt(claude, hooked, claudeEnv, "hooked", runs);
      CompletableFuture<Void> bareRun = prompt(claude, bare, claudeEnv, "bare", runs);
      try {
        assertTrue(hookedThinks.arrived().await(120, TimeUnit.SECONDS), "hooked asked its model");
        assertTrue(bareThinks.arrived().await(120, TimeUnit.SECONDS), "bare asked its model");
        ProcessHandle hookedClaude = claudeIn(hooked);
        ProcessHandle bareClaude = claudeIn(bare);
        Instant started = bareClaude.info().startInstant().orElseThrow();
        // both have run past the grace (30 s) with their prompts held
        Duration wait = Duration.between(Instant.now(), started.plusSeconds(32));
        if (!wait.isNegative()) {
          Thread.sleep(wait.toMillis());
        }
        assertTrue(hookedClaude.isAlive(), "still at work, held");
        assertTrue(bareClaude.isAlive(), "still at work, held");

        assertEquals(0, status(cliEnv, hooked).get("processes").size(), "its hooks arrived");
        assertFlagged(cliEnv, bare, bareClaude.pid(), started);
      } finally {
        hookedThinks.go().countDown();
        bareThinks.go().countDown();
      }
      hookedRun.get(120, TimeUnit.SECONDS);
      bareRun.get(120, TimeUnit.SECONDS);
    } finally {
      runs.shutdownNow();
    }
    assertEquals(0, status(cliEnv, bare).get("processes").size(), "its process has exited");
  }

  /**
   * {@code hooks status} in {@code workspace} names the process {@code pid}, started at {@code
   * started}, in JSON and in text, and {@code doctor} warns of it (the hooks are not installed).
   */
  private static void assertFlagged(
      Map<String, String> cliEnv, Path workspace, long pid, Instant started) throws Exception {
    JsonNode evidence = status(cliEnv, workspace).get("processes");
    assertEquals(1, evidence.size(), evidence.toString());
    JsonNode seen = evidence.get(0);
    assertEquals("claude-code", seen.get("runtime").asText());
    assertEquals(pid, seen.get("pid").asLong());
    assertEquals(workspace.toString(), seen.get("directory").asText());
    assertEquals(started.toString(), seen.get("started_at").asText());
    assertEquals(false, seen.get("installed").asBoolean());
    String warning =
        "hooks may not be firing for claude-code: its process "
            + pid
            + " has run in "
            + workspace
            + " since "
            + started
            + " and no hook arrived since";
    assertTrue(seen.get("warning").asText().startsWith(warning), seen.toString());

    CommandRun text =
        CommandRun.ofProcess(
            CliProcess.builder(cliEnv, "hooks", "status", "--workspace", workspace.toString()));
    assertTrue(text.out().contains("WARNING: " + warning), text.out());
    assertTrue(text.out().contains("turndiff hooks install --runtime claude-code"), text.out());

    CommandRun doctor =
        CommandRun.ofProcess(
            CliProcess.builder(cliEnv, "doctor", "--json", "--workspace", workspace.toString()));
    boolean warned = false;
    for (JsonNode check : Json.mapper().readTree(doctor.out()).get("checks")) {
      if (check.get("name").asText().equals("hooks claude-code process " + pid)) {
        warned = check.get("found").asText().startsWith(warning);
        assertEquals("warn", check.get("verdict").asText().toLowerCase(), check.toString());
      }
    }
    assertTrue(warned, doctor.out());
  }

  private static JsonNode status(Map<String, String> cliEnv, Path workspace) throws Exception {
    CommandRun status =
        CommandRun.ofProcess(
            CliProcess.builder(
                cliEnv, "hooks", "status", "--json", "--workspace", workspace.toString()));
    assertEquals(0, status.exitCode(), status.err());
    return Json.mapper().readTree(status.out());
  }

  /** The Claude Code process this test started in {@code directory}: the one working there. */
  private static ProcessHandle claudeIn(Path directory) {
    List<ProcessHandle> found =
        ProcessHandle.current()
            .descendants()
            .filter(p -> p.info().command().map(c -> c.endsWith("/claude")).orElse(false))
            .filter(p -> directory.equals(workingDirectory(p)))
            .toList();
    assertEquals(
        1,
        found.size(),
        "Claude Code at work in "
            + directory
            + ": "
            + found
            + " among "
            + ProcessHandle.current()
                .descendants()
                .map(p -> p.pid() + " " + p.info().command() + " in " + workingDirectory(p))
                .toList());
    return found.getFirst();
  }

  private static Path workingDirectory(ProcessHandle process) {
    try {
      return Files.readSymbolicLink(Path.of("/proc/" + process.pid() + "/cwd"));
    } catch (IOException gone) {
      return null;
    }
  }

  private static ModelScript.Hold hold() {
    return new ModelScript.Hold(0, new CountDownLatch(1), new CountDownLatch(1));
  }

  private static CompletableFuture<Void> prompt(
      ClaudeCode claude,
      Path directory,
      Map<String, String> claudeEnv,
      String words,
      ExecutorService runs) {
    return CompletableFuture.runAsync(
        () -> {
          try {
            claude.promptToItsEnd(
                directory, claudeEnv, words, List.of("--session-id", UUID.randomUUID().toString()));
          } catch (Exception e) {
            throw new IllegalStateException("claude prompt " + words, e);
          }
        },
        runs);
  }

  private Path workspace(String name) throws Exception {
    return TestWorkspace.in(temp.resolve(name)).file("notes.txt", "n\n").root().toRealPath();
  }
}
