package io.turndiff.hooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.api.Json;
import io.turndiff.api.wire.WireHookSighting;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the hook calls showed, not what was configured (issue 21, item 0): the last call per runtime
 * and directory, whether the last prompt's begin, tool calls and end all arrived, and a warning
 * naming what did not — over a real store and a real tracked workspace, the calls as Claude Code
 * sends them.
 */
class HookSightingsTest {

  private static final String TURN = "claude-code:p-1";

  @TempDir Path temp;

  private ClaudeCodeCalls calls;

  @BeforeEach
  void setUp() {
    calls = ClaudeCodeCalls.in(temp, true);
  }

  @AfterEach
  void tearDown() {
    calls.close();
  }

  private void write(String prompt, String tool) {
    calls.send(
        prompt,
        "PreToolUse",
        ClaudeCodeCalls.writeOf(calls.workspace.resolve("a.txt").toString(), tool));
  }

  private WireHookSighting only() {
    List<WireHookSighting> all = calls.hooks.sightings().all();
    assertEquals(1, all.size(), all.toString());
    WireHookSighting seen = all.getFirst();
    assertEquals("claude-code", seen.runtime());
    assertEquals(calls.workspace.root().toString(), seen.directory());
    return seen;
  }

  /** Prompt p-1 writes a.txt through a tool whose hook arrives, then {@code end} comes. */
  private WireHookSighting promptWritingAEndedBy(String end) {
    calls.prompt("p-1");
    write("p-1", "toolu_1");
    calls.workspace.file("a.txt", "after\n");
    calls.send("p-1", end, "");
    return only();
  }

  @Test
  void aPromptWhoseHooksAllArrivedIsShownWholeWithNoWarning() {
    WireHookSighting seen = promptWritingAEndedBy("Stop");
    assertEquals("Stop", seen.lastEvent());
    assertEquals(
        new WireHookSighting.Prompt(seen.prompt().at(), true, 1, true, TURN, null, null),
        seen.prompt());
    assertNull(seen.warning());
    assertFalse(Json.write(seen, false).contains("finished_by"), "a Stop finished it");
    assertTrue(
        ClaudeCodeCalls.hooksStatusText(seen)
            .contains("last prompt: begin arrived, 1 tool call, end arrived\n"),
        ClaudeCodeCalls.hooksStatusText(seen));
  }

  /**
   * The session ends (Claude Code fires no Stop when the user interrupts a turn, then quits) with
   * the prompt's turn open: the service finishes it, and the sighting says so, from the store's
   * turn, in JSON as the turn has it and in {@code hooks status}'s words.
   */
  @Test
  void aPromptWhoseSessionEndedBeforeItsStopSaysTurndiffFinishedIt() {
    WireHookSighting seen = promptWritingAEndedBy("SessionEnd");
    assertEquals(
        new WireHookSighting.Prompt(
            seen.prompt().at(), true, 1, true, TURN, "service", "session ended"),
        seen.prompt());
    String json = Json.write(seen, false);
    assertTrue(json.contains("\"finished_by\":\"service\",\"reason\":\"session ended\""), json);
    String text = ClaudeCodeCalls.hooksStatusText(seen);
    assertTrue(text.contains("1 tool call, end never arrived\n"), text);
    assertTrue(
        text.contains(
            "    last prompt ("
                + seen.prompt().at()
                + "): finished by turndiff (the session ended before the turn's Stop hook): hooks"
                + " may not be firing at the end of a turn\n"),
        text);
  }

  @Test
  void aPromptThatBeginsBeforeTheLastOneEndedSaysTheEndNeverArrived() {
    calls.prompt("p-1");
    write("p-1", "toolu_1");
    calls.prompt("p-2");

    String warning = only().warning();
    assertTrue(warning.startsWith("hooks may not be firing for claude-code since "), warning);
    assertTrue(warning.contains("the end of a prompt (Stop) never arrived"), warning);
  }

  @Test
  void aToolCallOfAPromptThatNeverBeganIsFlagged() {
    write("p-9", "toolu_9");

    WireHookSighting seen = only();
    assertEquals(
        new WireHookSighting.Prompt(
            seen.prompt().at(), false, 1, false, "claude-code:p-9", null, null),
        seen.prompt());
    assertTrue(
        seen.warning().contains("a tool call arrived for a prompt whose begin never did"),
        seen.warning());
  }

  @Test
  void aPromptThatChangedFilesWithNoToolCallHookIsFlaggedUntilAPromptArrivesWhole() {
    calls.prompt("p-1");
    calls.workspace.file("a.txt", "changed by a tool whose hook did not fire\n");
    calls.send("p-1", "Stop", "");

    String warning = only().warning();
    assertTrue(
        warning.contains("a prompt changed 1 file and no tool call hook of it arrived"), warning);

    calls.prompt("p-2");
    write("p-2", "toolu_2");
    calls.send("p-2", "Stop", "");
    assertNull(only().warning(), "a prompt that arrived whole clears it");
  }
}
