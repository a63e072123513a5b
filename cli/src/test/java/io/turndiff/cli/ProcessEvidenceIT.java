package io.turndiff.cli;

import static io.turndiff.cli.EvidenceFixture.status;
import static io.turndiff.cli.ModelScript.Step.say;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.hooks.install.RuntimeProcesses;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21, item 0, the runtime's process as evidence, with the real runtimes: each runs two
 * sessions held mid-prompt by the scripted model (it delays its answer until the test lets it go),
 * one in a workspace whose hooks are installed, one in a workspace whose hooks were installed and
 * taken out again. Once the processes have run longer than the grace, {@code hooks status} in the
 * hooked workspace shows no process warning (its prompt's begin arrived: the prompt is open), and
 * in the other it says {@code hooks may not be firing for R: its process PID has run in W since T
 * and no hook arrived since}, naming the process that works (of a runtime that runs as a parent and
 * a child, the child), in JSON, in text and in {@code doctor}; once the runtime has exited,
 * nothing. The processes are found in {@code /proc} as the runtimes run from the ITs' npm installs,
 * started as a user's are: Claude Code's native executable, Codex through npm's {@code codex} (Node
 * running {@code bin/codex.js}, the native {@code codex} its child), the Gemini CLI through npm's
 * {@code gemini} (Node, which starts itself again as its child).
 *
 * <p>Each test waits the grace (30 s) once, for all its sessions at once.
 */
class ProcessEvidenceIT {

  /** Past {@code ProcessEvidence}'s grace (30 s) after the process started. */
  private static final long PAST_THE_GRACE_SECONDS = 32;

  @TempDir Path temp;

  private EvidenceFixture fixture;
  private Map<String, String> env;

  @BeforeEach
  void setUp() throws Exception {
    fixture = EvidenceFixture.started(temp);
    env = fixture.env();
  }

  @AfterEach
  void tearDown() throws Exception {
    fixture.close();
  }

  @Test
  void claudeCodeAtWorkWithNoHookIsFlaggedAndWithItsHooksIsNot() throws Exception {
    Path claudeHome = temp.resolve("claude-home");
    Map<String, String> cliEnv = new HashMap<>(env);
    cliEnv.put("HOME", claudeHome.toString()); // status reads Claude's sessions there
    ClaudeCode claude = ClaudeCode.installed(HookTestStore.repository(), temp.resolve("logs"));
    Sessions sessions = new Sessions("hooked", "bare");
    Path hooked = fixture.hooked("claude-code", fixture.workspace("hooked"));
    Path bare = fixture.unhooked("claude-code", fixture.workspace("bare"));

    try (AnthropicMessagesServer model = new AnthropicMessagesServer(sessions.script());
        sessions) {
      Map<String, String> claudeEnv =
          ClaudeCode.environment(store().runtimeBase(), model, claudeHome);
      sessions.start(() -> claude.prompt(hooked, claudeEnv, "do prompt hooked", newSession(), "h"));
      sessions.start(() -> claude.prompt(bare, claudeEnv, "do prompt bare", newSession(), "b"));
      sessions.awaitHeld();
      ProcessHandle hookedClaude = only(at(hooked, "claude"));
      ProcessHandle bareClaude = only(at(bare, "claude"));
      awaitPastTheGrace(hookedClaude, bareClaude);

      assertPromptOpen(cliEnv, hooked, "claude-code");
      assertFlagged(cliEnv, bare, "claude-code", bareClaude);
      assertEnded(sessions.letGoAndAwaitTheirEnds());
    }
    assertEquals(0, status(cliEnv, bare).get("processes").size(), "its process has exited");
  }

  /**
   * Codex and the Gemini CLI, two sessions each, all four held at once: one wait for the grace.
   * Codex runs as npm's {@code codex} runs it on Node 20 (CI's): {@code node bin/codex.js}, whose
   * child, the native {@code codex}, is the one named; the Gemini CLI as npm's {@code gemini}:
   * Node, whose relaunched child (a larger heap) is the one named.
   */
  @Test
  void codexAndGeminiAtWorkWithNoHookAreFlaggedAndWithTheirHooksAreNot() throws Exception {
    Path codexHome = temp.resolve("codex-home");
    env.put("CODEX_HOME", codexHome.toString()); // status reads Codex's sessions there
    Path logs = temp.resolve("logs");
    CodexCli codex = CodexCli.installedThroughNode(HookTestStore.repository(), logs);
    GeminiCli gemini = GeminiCli.installed(HookTestStore.repository(), logs);
    GeminiCli.configure(Path.of(env.get("HOME")));
    Sessions sessions = new Sessions("codex hooked", "codex bare", "gemini hooked", "gemini bare");
    Path codexHooked = fixture.workspace("codex-hooked");
    Path codexBare = fixture.workspace("codex-bare");
    Path geminiHooked = fixture.hooked("gemini", fixture.workspace("gemini-hooked"));
    Path geminiBare = fixture.unhooked("gemini", fixture.workspace("gemini-bare"));

    try (ResponsesApiServer codexModel = new ResponsesApiServer(sessions.script());
        GeminiApiServer geminiModel = new GeminiApiServer(sessions.script());
        sessions) {
      CodexCli.configure(codexHome, codexModel, List.of(codexHooked, codexBare));
      fixture.hooked("codex", codexHooked);
      fixture.unhooked("codex", codexBare);
      Map<String, String> codexEnv =
          CodexCli.environment(store().runtimeBase(), temp.resolve("codex-user-home"));
      Map<String, String> geminiEnv = GeminiCli.environment(store().runtimeBase(), geminiModel);
      Future<CommandRun> codexHookedRun =
          sessions.start(() -> codex.first(codexHooked, codexEnv, "do prompt codex hooked", "ch"));
      sessions.start(
          () ->
              gemini.prompt(
                  geminiHooked, geminiEnv, "do prompt gemini hooked", newSession(), "gh"));
      sessions.start(
          () -> gemini.prompt(geminiBare, geminiEnv, "do prompt gemini bare", newSession(), "gb"));
      // The second Codex session starts once the first has asked its model: Codex 0.171.0
      // installs its system skills into CODEX_HOME as it starts, and two sessions starting at once
      // race there ("failed to install system skills: … Directory not empty"), after which the
      // loser never asks its model. Past its first request a session's start-up is over. The
      // Gemini sessions start with the first: what the first Codex session waits under its time
      // limit (held until the test has checked every session) grows only by the second's
      // start-up.
      sessions.awaitHeld("codex hooked");
      sessions.start(() -> codex.first(codexBare, codexEnv, "do prompt codex bare", "cb"));
      sessions.awaitHeld();
      ProcessHandle codexAtWork = child(at(codexBare, "node"), at(codexBare, "codex"));
      ProcessHandle geminiAtWork = child(at(geminiBare, "node"), at(geminiBare, "node"));
      awaitPastTheGrace(
          only(at(codexHooked, "codex")),
          codexAtWork,
          child(at(geminiHooked, "node"), at(geminiHooked, "node")),
          geminiAtWork);

      assertPromptOpen(env, codexHooked, "codex");
      assertPromptOpen(env, geminiHooked, "gemini");
      assertFlagged(env, codexBare, "codex", codexAtWork);
      assertFlagged(env, geminiBare, "gemini", geminiAtWork);
      assertEnded(sessions.letGoAndAwaitTheirEnds());
      assertTrue(codexHookedRun.get().err().contains("hook: Stop"), "Codex ran the hooks");
    }
    assertEquals(0, status(env, codexBare).get("processes").size(), "Codex has exited");
    assertEquals(0, status(env, geminiBare).get("processes").size(), "Gemini has exited");
  }

  // ---- what status and doctor say

  /**
   * {@code hooks status} in {@code workspace} shows no process, and the runtime's prompt there open
   * (its begin arrived, its end not yet): the hooks fired, which is why there is no warning.
   */
  private static void assertPromptOpen(Map<String, String> cliEnv, Path workspace, String runtime)
      throws Exception {
    JsonNode status = status(cliEnv, workspace);
    assertEquals(0, status.get("processes").size(), "its hooks arrived: " + status);
    boolean open = false;
    for (JsonNode sighting : status.path("service").path("sightings")) {
      JsonNode prompt = sighting.path("prompt");
      open |=
          sighting.path("runtime").asText().equals(runtime)
              && prompt.path("begin").asBoolean()
              && !prompt.path("end").asBoolean();
    }
    assertTrue(open, runtime + "'s prompt open: " + status);
  }

  /**
   * {@code hooks status} in {@code workspace} names {@code process}, the runtime's, with its start,
   * in JSON and in text, and {@code doctor} warns of it (the hooks are not installed).
   */
  private static void assertFlagged(
      Map<String, String> cliEnv, Path workspace, String runtime, ProcessHandle process)
      throws Exception {
    Instant started = process.info().startInstant().orElseThrow();
    JsonNode status = status(cliEnv, workspace);
    JsonNode evidence = status.get("processes");
    assertEquals(
        1,
        evidence.size(),
        () -> process.pid() + " started " + started + ": " + status + everyone());
    JsonNode seen = evidence.get(0);
    assertEquals(runtime, seen.get("runtime").asText());
    assertEquals(process.pid(), seen.get("pid").asLong(), seen.toString());
    assertEquals(workspace.toString(), seen.get("directory").asText());
    assertEquals(started.toString(), seen.get("started_at").asText());
    assertEquals(false, seen.get("installed").asBoolean());
    String warning =
        "hooks may not be firing for "
            + runtime
            + ": its process "
            + process.pid()
            + " has run in "
            + workspace
            + " since "
            + started
            + " and no hook arrived since";
    assertTrue(seen.get("warning").asText().startsWith(warning), seen.toString());
    String text =
        EvidenceFixture.assertWarned(
            cliEnv, workspace, warning, "hooks " + runtime + " process " + process.pid());
    assertTrue(text.contains("turndiff hooks install --runtime " + runtime), text);
  }

  /** Each runtime, let go, ended its prompt: it exited 0 with the script's last words. */
  private static void assertEnded(List<CommandRun> runs) {
    for (CommandRun run : runs) {
      assertEquals(0, run.exitCode(), run.toString());
      assertTrue(run.out().contains("Done with prompt "), run.toString());
    }
  }

  // ---- the runtimes' processes

  /** Waits until each of {@code processes} has run past the grace; each still runs, held. */
  private static void awaitPastTheGrace(ProcessHandle... processes) throws InterruptedException {
    for (ProcessHandle process : processes) {
      Instant started = process.info().startInstant().orElseThrow();
      Duration wait = Duration.between(Instant.now(), started.plusSeconds(PAST_THE_GRACE_SECONDS));
      if (!wait.isNegative()) {
        Thread.sleep(wait.toMillis());
      }
    }
    for (ProcessHandle process : processes) {
      assertTrue(process.isAlive(), "still at work, held: " + process.pid());
    }
  }

  /**
   * The processes this test started (its descendants) that work in {@code directory} and whose
   * executable is named {@code executable}.
   */
  private static List<ProcessHandle> at(Path directory, String executable) {
    return ProcessHandle.current()
        .descendants()
        .filter(p -> p.info().command().map(c -> c.endsWith("/" + executable)).orElse(false))
        .filter(p -> directory.equals(workingDirectory(p)))
        .toList();
  }

  /**
   * The one of {@code children} whose parent is one of {@code parents}: a runtime that runs as a
   * parent and its child (of the same executable or another), the child working.
   */
  private static ProcessHandle child(List<ProcessHandle> parents, List<ProcessHandle> children) {
    List<ProcessHandle> found =
        children.stream().filter(c -> c.parent().map(parents::contains).orElse(false)).toList();
    assertEquals(1, found.size(), "a child of " + parents + " among " + children + everyone());
    return found.getFirst();
  }

  private static ProcessHandle only(List<ProcessHandle> found) {
    assertEquals(1, found.size(), found + everyone());
    return found.getFirst();
  }

  /** Every process this test started, for a failure's message. */
  private static String everyone() {
    return " among "
        + ProcessHandle.current()
            .descendants()
            .map(
                p ->
                    p.pid()
                        + " "
                        + p.info().commandLine()
                        + " in "
                        + workingDirectory(p)
                        + " since "
                        + p.info().startInstant())
            .toList()
        + whatTheProductSees();
  }

  /**
   * For a failure's message: the runtime processes as the product finds them, from this JVM, and
   * the clock a start instant is computed against (the boot time {@code /proc/stat} gives, against
   * the wall clock less the uptime). The check failed without a cause in CI, every process alive;
   * this tells a process the product's scan missed from a file its rule did not count.
   */
  private static String whatTheProductSees() {
    String clock;
    try {
      String btime =
          Files.readAllLines(Path.of("/proc/stat")).stream()
              .filter(line -> line.startsWith("btime "))
              .findFirst()
              .orElse("no btime");
      double uptime = Double.parseDouble(Files.readString(Path.of("/proc/uptime")).split(" ")[0]);
      clock = btime + ", wall clock less uptime " + (System.currentTimeMillis() / 1000.0 - uptime);
    } catch (IOException | RuntimeException unreadable) {
      clock = "unreadable: " + unreadable;
    }
    return "; the product finds "
        + new RuntimeProcesses().running()
        + " at "
        + Instant.now()
        + "; "
        + clock;
  }

  private static Path workingDirectory(ProcessHandle process) {
    try {
      return Files.readSymbolicLink(Path.of("/proc/" + process.pid() + "/cwd"));
    } catch (IOException gone) {
      return null;
    }
  }

  private HookTestStore store() {
    return fixture.store();
  }

  /** A new session of Claude Code's or Gemini's, its id chosen here. */
  private static List<String> newSession() {
    return List.of("--session-id", UUID.randomUUID().toString());
  }

  /**
   * The sessions of a test, each a runtime's prompt {@code do prompt WORDS} on a thread of its own
   * (the common pool may have one thread on a 2-core machine, and the first prompt, held, would
   * keep the next from starting), which the model answers {@code Done with prompt WORDS.} once the
   * test lets it go: it holds each prompt's first answer.
   */
  private static final class Sessions implements AutoCloseable {
    private final ModelScript script = new ModelScript();
    private final Map<String, ModelScript.Hold> holds = new LinkedHashMap<>();
    private final ExecutorService threads;
    private final List<Future<CommandRun>> runs = new ArrayList<>();

    Sessions(String... words) {
      for (String each : words) {
        ModelScript.Hold hold =
            new ModelScript.Hold(0, new CountDownLatch(1), new CountDownLatch(1));
        script.prompt("do prompt " + each, say("Done with prompt " + each + "."));
        script.hold("do prompt " + each, hold);
        holds.put(each, hold);
      }
      this.threads = Executors.newFixedThreadPool(words.length);
    }

    /** What the model answers, and where it holds its answer. */
    ModelScript script() {
      return script;
    }

    Future<CommandRun> start(Callable<CommandRun> prompt) {
      Future<CommandRun> run = threads.submit(prompt);
      runs.add(run);
      return run;
    }

    /** Waits until each session has asked its model (and is held there). */
    void awaitHeld() throws InterruptedException {
      for (String words : holds.keySet()) {
        awaitHeld(words);
      }
    }

    /** Waits until the session of prompt {@code do prompt WORDS} has asked its model. */
    void awaitHeld(String words) throws InterruptedException {
      assertTrue(
          holds.get(words).arrived().await(180, TimeUnit.SECONDS),
          "the session of '" + words + "' asked its model; the sessions that ended: " + ended());
    }

    /** What each session that has already ended (none should, held) said, for a failure. */
    private List<String> ended() {
      return runs.stream()
          .filter(Future::isDone)
          .map(
              run ->
                  switch (run.state()) {
                    case SUCCESS -> run.resultNow().toString();
                    // a run killed at its time limit fails with what it printed
                    case FAILED -> "failed: " + run.exceptionNow();
                    default -> run.state().toString();
                  })
          .toList();
    }

    /** Lets the model answer each session, and waits for each runtime's end. */
    List<CommandRun> letGoAndAwaitTheirEnds() throws Exception {
      letGo();
      List<CommandRun> ended = new ArrayList<>();
      for (Future<CommandRun> run : runs) {
        ended.add(run.get(180, TimeUnit.SECONDS));
      }
      return ended;
    }

    private void letGo() {
      holds.values().forEach(hold -> hold.go().countDown());
    }

    /** Lets the sessions go (a test that failed while they were held) and stops the threads. */
    @Override
    public void close() {
      letGo();
      threads.shutdownNow();
    }
  }
}
