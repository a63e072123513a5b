package io.turndiff.hooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireHookSighting;
import io.turndiff.boundary.WorkspacePolicy;
import io.turndiff.fixtures.TestStore;
import io.turndiff.model.RuntimeProcess;
import io.turndiff.model.TurnKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the hooks showed, kept and weighed against evidence from outside them (issue 21 item 0): the
 * runtime's version and last call survive a restart (a second store opened on the same file reads
 * them), and changes outside any turn while another runtime's process that sent hooks from the
 * workspace still runs stand as a warning for that runtime. The runtimes are real processes ({@code
 * sleep}), named as the hook script names them; over a real store and a real tracked workspace.
 */
class HookEvidenceTest {

  @TempDir Path temp;

  private ClaudeCodeCalls calls;
  private final StandInRuntimes runtimes = new StandInRuntimes();

  @BeforeEach
  void setUp() {
    calls = ClaudeCodeCalls.in(temp, true);
  }

  @AfterEach
  void tearDown() throws InterruptedException {
    runtimes.close();
    calls.close();
  }

  private RuntimeProcess startRuntime() throws IOException {
    return runtimes.start();
  }

  /** A prompt of Codex session c-1 from {@code process}, begun and ended, nothing changed. */
  private void codexPromptFrom(RuntimeProcess process) {
    HookQuery query = new HookQuery(false, false, Optional.of(process), Optional.of("0.171.0"));
    for (String event : List.of("UserPromptSubmit", "Stop")) {
      String payload =
          "{\"session_id\":\"c-1\",\"turn_id\":\"t-1\",\"cwd\":\""
              + calls.workspace.root()
              + "\",\"hook_event_name\":\""
              + event
              + "\""
              + (event.equals("Stop") ? "" : ",\"prompt\":\"go\"")
              + "}";
      calls.hooks.receive("codex", payload.getBytes(StandardCharsets.UTF_8), query);
    }
  }

  private WireHookSighting sightingOf(RuntimeHooks hooks, String runtime) {
    return hooks.sightings().all().stream()
        .filter(seen -> seen.runtime().equals(runtime))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no sighting of " + runtime));
  }

  /** A Claude Code prompt from another process begins after b.txt changed outside any turn. */
  private void outsideChangeThenClaudePrompt() throws IOException {
    calls.workspace.file("b.txt", "written while no hook arrived\n");
    calls.from(startRuntime()).prompt("p-1");
    assertEquals(
        TurnKind.OUTSIDE,
        calls
            .turndiff
            .store()
            .read(tx -> tx.turns().ofSession(sessionOfClaude()))
            .getFirst()
            .kind(),
        "the begin recorded the change outside any turn");
  }

  private long sessionOfClaude() {
    return calls
        .turndiff
        .store()
        .read(tx -> tx.turns().byExternalId("claude-code:p-1"))
        .orElseThrow()
        .sessionId();
  }

  @Test
  void changesOutsideAnyTurnWhileARuntimeProcessRunsThereWarnAboutThatRuntime() throws IOException {
    RuntimeProcess codex = startRuntime();
    codexPromptFrom(codex);
    assertNull(sightingOf(calls.hooks, "codex").warning(), "its prompt arrived whole");

    outsideChangeThenClaudePrompt();

    String warning = sightingOf(calls.hooks, "codex").warning();
    assertTrue(warning != null && warning.startsWith("hooks may not be firing for codex since "));
    assertTrue(
        warning.contains(
            ": changes outside any turn while its process " + codex.pid() + " runs in this"),
        warning);
    assertNull(
        sightingOf(calls.hooks, "claude-code").warning(),
        "the process whose begin found the changes is not suspected: its hooks arrive");
    String text = ClaudeCodeCalls.hooksStatusText(sightingOf(calls.hooks, "codex"));
    assertTrue(text.contains("    WARNING: " + warning + "\n"), text);
  }

  @Test
  void changesOutsideAnyTurnAfterTheRuntimeProcessIsGoneWarnAboutNothing()
      throws IOException, InterruptedException {
    codexPromptFrom(startRuntime());
    runtimes.killLast();

    outsideChangeThenClaudePrompt();

    assertNull(sightingOf(calls.hooks, "codex").warning());
    assertNull(sightingOf(calls.hooks, "claude-code").warning());
  }

  @Test
  void theLastCallTheVersionAndTheWarningAreShownByTheNextServiceOnceWritten() throws IOException {
    RuntimeProcess codex = startRuntime();
    codexPromptFrom(codex);
    outsideChangeThenClaudePrompt();
    WireHookSighting before = sightingOf(calls.hooks, "codex");
    assertEquals("0.171.0", before.runtimeVersion());

    try (Turndiff reopened = reopen()) {
      assertEquals(
          List.of(),
          new RuntimeHooks(reopened, Path::of, new NoTurnEvents()).sightings().all(),
          "no hook call commits on its own: nothing is in the store before the write");
    }
    calls.hooks.sightings().persistChanged();

    try (Turndiff reopened = reopen()) {
      RuntimeHooks next = new RuntimeHooks(reopened, Path::of, new NoTurnEvents());
      WireHookSighting after = sightingOf(next, "codex");
      assertEquals("0.171.0", after.runtimeVersion());
      assertEquals(before.lastEvent(), after.lastEvent());
      assertEquals(before.session(), after.session());
      assertEquals(before.prompt(), after.prompt());
      assertEquals(before.warning(), after.warning());
      assertEquals(2, next.sightings().all().size(), next.sightings().all().toString());
    }
  }

  private Turndiff reopen() {
    return Turndiff.builder(TestStore.fileIn(temp)).policy(WorkspacePolicy.anyDirectory()).open();
  }
}
