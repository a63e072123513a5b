package io.turndiff.hooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.api.wire.WireHookSighting;
import io.turndiff.fixtures.RecordedChanges;
import io.turndiff.model.RuntimeProcess;
import io.turndiff.model.TurnEnding;
import io.turndiff.model.TurnState;
import io.turndiff.ownfiles.Proc;
import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredTurn;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A turn whose runtime is gone is finished by the service (issue 21 item 0): the runtime is a real
 * process ({@code sleep}) named as the hook script names it, killed with SIGKILL mid-turn, so that
 * its Stop never comes; the turn is finished from the workspace as a Stop would, marked, and the
 * file's after-state is what the runtime wrote. Over a real store and real files; closing the calls
 * checks nothing outside the workspace changed.
 */
class GoneRuntimesTest {

  private static final String TURN = "claude-code:p-1";

  @TempDir Path temp;

  private final StandInRuntimes runtimes = new StandInRuntimes();
  private ClaudeCodeCalls calls;

  @AfterEach
  void tearDown() throws InterruptedException {
    runtimes.close();
    if (calls != null) {
      calls.close();
    }
  }

  private RuntimeProcess startRuntime() throws IOException {
    return runtimes.start();
  }

  private void killRuntime() throws InterruptedException {
    runtimes.killLast();
  }

  /** The prompt and its Write of a.txt, then the runtime writes it. */
  private void promptAndWrite() {
    calls.prompt("p-1");
    calls.send(
        "p-1",
        "PreToolUse",
        ClaudeCodeCalls.writeOf(calls.workspace.resolve("a.txt").toString(), "toolu_1"));
    calls.workspace.file("a.txt", "edited\n");
  }

  private StoredTurn turn() {
    return RecordedChanges.turn(calls.turndiff.store(), TURN);
  }

  private String afterOf(String path) {
    StoredFileChange change =
        RecordedChanges.of(calls.turndiff.store(), TURN).stream()
            .filter(recorded -> recorded.path().display().equals(path))
            .findFirst()
            .orElseThrow();
    return RecordedChanges.afterText(calls.turndiff.store(), change);
  }

  @Test
  void aTurnWhoseRuntimeWasKilledIsFinishedFromTheWorkspaceAndMarked() throws Exception {
    calls = ClaudeCodeCalls.in(temp, true, Duration.ZERO);
    RuntimeProcess runtime = startRuntime();
    calls.from(runtime);
    promptAndWrite();
    calls.workspace.file("b.txt", "made by a shell command\n"); // no hook names it: the scan's
    assertEquals(Optional.of(runtime.pid()), turn().runtime().map(RuntimeProcess::pid));

    killRuntime();
    List<String> finished = calls.hooks.goneRuntimes().finishTurnsOfGoneRuntimes();

    assertEquals(List.of(TURN), finished);
    StoredTurn turn = turn();
    assertEquals(TurnState.FINISHED, turn.state());
    assertEquals(Optional.of(TurnEnding.RUNTIME_GONE), turn.ending());
    assertEquals("edited\n", afterOf("a.txt"));
    assertEquals("made by a shell command\n", afterOf("b.txt"));
    assertEquals(
        List.of(),
        calls.hooks.goneRuntimes().finishTurnsOfGoneRuntimes(),
        "a finished turn is not finished again");

    // what the hooks showed of the prompt: its end never arrived, turndiff finished its turn
    WireHookSighting.Prompt prompt = calls.hooks.sightings().all().getFirst().prompt();
    assertEquals(
        new WireHookSighting.Prompt(prompt.at(), true, 1, false, TURN, "service", "runtime gone"),
        prompt);
    String text = ClaudeCodeCalls.hooksStatusText(calls.hooks.sightings().all().getFirst());
    assertTrue(
        text.contains(
            "): finished by turndiff (the runtime exited without its Stop hook): hooks may not be"
                + " firing at the end of a turn\n"),
        text);
  }

  @Test
  void inAWorkspaceNotTrackedTheFinishTakesTheAfterStatesOfTheNamedPaths() throws Exception {
    calls = ClaudeCodeCalls.in(temp, false, Duration.ZERO);
    calls.from(startRuntime());
    promptAndWrite();

    killRuntime();
    calls.hooks.goneRuntimes().finishTurnsOfGoneRuntimes();

    assertEquals(Optional.of(TurnEnding.RUNTIME_GONE), turn().ending());
    assertEquals(Map.of("a.txt", "modified snapshot [toolu_1]"), summary());
    assertEquals("edited\n", afterOf("a.txt"));
  }

  private Map<String, String> summary() {
    return RecordedChanges.summary(calls.turndiff.store(), TURN);
  }

  /**
   * A turn a previous service left open, its runtime killed meanwhile: the next service (hooks that
   * never saw the session) finishes it once the grace has passed since its own start.
   */
  @Test
  void aTurnAPreviousServiceLeftOpenIsFinishedByTheNextOnceItsGraceHasPassed() throws Exception {
    calls = ClaudeCodeCalls.in(temp, false, Duration.ofHours(1));
    calls.from(startRuntime());
    promptAndWrite();
    killRuntime();

    RuntimeHooks patient =
        new RuntimeHooks(calls.turndiff, Path::of, new NoTurnEvents(), Duration.ofHours(1));
    assertEquals(List.of(), patient.goneRuntimes().finishTurnsOfGoneRuntimes());
    assertEquals(TurnState.OPEN, turn().state(), "within the grace from the service's start");
    RuntimeHooks next =
        new RuntimeHooks(calls.turndiff, Path::of, new NoTurnEvents(), Duration.ZERO);

    assertEquals(List.of(TURN), next.goneRuntimes().finishTurnsOfGoneRuntimes());
    assertEquals(Optional.of(TurnEnding.RUNTIME_GONE), turn().ending());
    assertEquals("edited\n", afterOf("a.txt"));
  }

  @Test
  void aTurnWhoseRuntimeRunsIsLeftOpen() throws Exception {
    calls = ClaudeCodeCalls.in(temp, false, Duration.ZERO);
    calls.from(startRuntime());
    promptAndWrite();

    assertEquals(List.of(), calls.hooks.goneRuntimes().finishTurnsOfGoneRuntimes());

    assertEquals(TurnState.OPEN, turn().state());
    assertEquals(Optional.empty(), turn().ending());
  }

  @Test
  void aSessionThatCalledWithinTheGraceKeepsItsTurnOpenThoughItsProcessIsGone() throws Exception {
    calls = ClaudeCodeCalls.in(temp, false, Duration.ofHours(1));
    calls.from(startRuntime());
    promptAndWrite();

    killRuntime();

    assertEquals(List.of(), calls.hooks.goneRuntimes().finishTurnsOfGoneRuntimes());
    assertEquals(TurnState.OPEN, turn().state());
  }

  @Test
  void aTurnNoCallNamedAProcessForIsNeverTakenForOneWhoseRuntimeIsGone() {
    calls = ClaudeCodeCalls.in(temp, false, Duration.ZERO);
    promptAndWrite();

    assertEquals(List.of(), calls.hooks.goneRuntimes().finishTurnsOfGoneRuntimes());
    assertEquals(TurnState.OPEN, turn().state());
    assertEquals(Optional.empty(), turn().runtime());
  }

  @Test
  void aResumedSessionsNewProcessTakesItsOpenTurnOver() throws Exception {
    calls = ClaudeCodeCalls.in(temp, false, Duration.ZERO);
    calls.from(startRuntime());
    promptAndWrite();
    killRuntime();
    RuntimeProcess resumed = startRuntime();

    calls.from(resumed).send("p-1", "PreToolUse", ",\"tool_name\":\"Read\",\"tool_use_id\":\"t2\"");

    assertEquals(Optional.of(resumed), turn().runtime());
    assertEquals(List.of(), calls.hooks.goneRuntimes().finishTurnsOfGoneRuntimes());
    assertEquals(TurnState.OPEN, turn().state());
  }

  @Test
  void aSessionEndWhileTheTurnIsOpenFinishesItMarked() {
    calls = ClaudeCodeCalls.in(temp, false);
    promptAndWrite();

    HookOutcome ended = calls.send("p-1", "SessionEnd", ",\"reason\":\"prompt_input_exit\"");

    assertEquals(List.of("finished"), ended.outcomes());
    assertEquals(TurnState.FINISHED, turn().state());
    assertEquals(Optional.of(TurnEnding.SESSION_ENDED), turn().ending());
    assertEquals("edited\n", afterOf("a.txt"));
  }

  @Test
  void aSessionEndAfterTheStopMarksNothing() {
    calls = ClaudeCodeCalls.in(temp, false);
    promptAndWrite();
    calls.send("p-1", "Stop", "");

    HookOutcome ended = calls.send("p-1", "SessionEnd", ",\"reason\":\"other\"");

    assertFalse(ended.outcomes().contains("finished"), ended.outcomes().toString());
    assertEquals(TurnState.FINISHED, turn().state());
    assertEquals(Optional.empty(), turn().ending());
  }

  /**
   * A reused pid: the same pid with another start time is another process (this JVM's own pid and
   * start time, read from the real /proc, and that start time moved by one tick); a process of
   * another boot is never this one.
   */
  @Test
  void aProcessIsItsPidWithItsStartTimeInItsBoot() {
    long self = ProcessHandle.current().pid();
    long started = Proc.startTicks(self).orElseThrow();
    Optional<String> boot = Proc.bootId();

    assertTrue(GoneRuntimes.isRunning(new RuntimeProcess(self, started, boot)));
    assertFalse(GoneRuntimes.isRunning(new RuntimeProcess(self, started + 1, boot)));
    assertFalse(
        GoneRuntimes.isRunning(
            new RuntimeProcess(
                self, started, Optional.of("00000000-0000-0000-0000-000000000000"))));
    assertTrue(
        GoneRuntimes.isRunning(new RuntimeProcess(self, started, Optional.empty())),
        "a process seen where no boot id was read is compared by pid and start time");
  }
}
