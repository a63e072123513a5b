package io.turndiff.hooks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.turndiff.fixtures.RecordedChanges;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.model.TurnState;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tool call's Pre hook appends its before-states to the store's before log and folds nothing; the
 * turn's Stop folds them together (docs/store-layout.md, "The before log"). Before, every hook call
 * looked up its session's open turn through a read that folds a non-empty log first, so each Pre
 * hook folded the one before it (a write transaction, its zstd and its fifteen pages) ahead of its
 * own append, and the service's look for gone runtimes folded whatever the turn had logged every
 * five seconds while the turn's calls waited for the lock. Over a real store, real files and a real
 * runtime process ({@code sleep}); closing the calls checks nothing outside the workspace changed.
 */
class HookCallsAppendTest {

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

  private long rows(String table) {
    return Long.parseLong(StoreRows.text(calls.turndiff.store(), "SELECT count(*) FROM " + table));
  }

  private void write(String path, String toolUse) {
    HookOutcome outcome =
        calls.send(
            "p-1",
            "PreToolUse",
            ClaudeCodeCalls.writeOf(calls.workspace.resolve(path).toString(), toolUse));
    assertEquals(List.of("snapshotted"), outcome.outcomes(), path);
  }

  @Test
  void eachPreHookOnlyAppendsAndTheStopFoldsThemAll() throws IOException {
    calls = ClaudeCodeCalls.in(temp, false);
    calls.from(runtimes.start());
    calls.workspace.file("b.txt", "b before\n").file("c.txt", "c before\n");
    calls.prompt("p-1");

    write("a.txt", "toolu_1");
    write("b.txt", "toolu_2");
    write("c.txt", "toolu_3");

    assertEquals(3, rows("before_log"), "every Pre hook's before-state still logged");
    assertEquals(0, rows("tool_call"), "no Pre hook folded another's");
    assertEquals(0, rows("file_change"));

    calls.workspace.file("a.txt", "a after\n").file("b.txt", "b after\n");
    calls.send("p-1", "Stop", "");

    assertEquals(0, rows("before_log"), "the Stop folded them");
    assertEquals(3, rows("tool_call"));
    assertEquals(
        Map.of(
            "a.txt", "modified snapshot [toolu_1]",
            "b.txt", "modified snapshot [toolu_2]",
            "c.txt", "unchanged snapshot [toolu_3]"),
        RecordedChanges.summary(calls.turndiff.store(), "claude-code:p-1"));
  }

  @Test
  void aLookForGoneRuntimesLeavesAnOpenTurnsLoggedCallsToItsStop() throws IOException {
    calls = ClaudeCodeCalls.in(temp, false, Duration.ZERO);
    calls.from(runtimes.start());
    calls.prompt("p-1");
    write("a.txt", "toolu_1");

    assertEquals(List.of(), calls.hooks.goneRuntimes().finishTurnsOfGoneRuntimes());

    assertEquals(1, rows("before_log"), "the look folded nothing");
    assertEquals(0, rows("tool_call"));
    assertEquals(
        TurnState.OPEN, RecordedChanges.turn(calls.turndiff.store(), "claude-code:p-1").state());
  }

  @Test
  void theSightingsWrittenEveryFewSecondsLeaveAnOpenTurnsLoggedCallsToItsStop() throws IOException {
    calls = ClaudeCodeCalls.in(temp, false);
    calls.from(runtimes.start());
    calls.prompt("p-1");
    write("a.txt", "toolu_1");

    calls.hooks.sightings().persistChanged();

    assertEquals(1, rows("hook_sighting"), "the session's sighting written");
    assertEquals(1, rows("before_log"), "the write folded nothing");
    assertEquals(
        TurnState.OPEN, RecordedChanges.turn(calls.turndiff.store(), "claude-code:p-1").state());
  }
}
