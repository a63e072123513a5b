package io.turndiff.hooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.fixtures.RecordedChanges;
import io.turndiff.model.Presence;
import io.turndiff.model.Reason;
import io.turndiff.model.Snapshot;
import io.turndiff.model.TurnState;
import io.turndiff.store.StoredFileChange;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hook calls the hook script kept in its spool while no service ran, taken late (issue 21, item 3):
 * by then the tools they announced have run, so a path's state now is not its before-state. In a
 * tracked workspace the turn begins from the index (as last scanned) and its finish records what
 * changed with the index's before-states, restorable; elsewhere each path is recorded with an
 * unknown before-state whose reason says the service was not running. Over a real store and real
 * files.
 */
class LateHookCallsTest {

  private static final Instant KEPT_AT = Instant.parse("2026-12-02T01:00:00Z");
  private static final String TURN = "claude-code:p-1";

  @TempDir Path temp;

  private ClaudeCodeCalls calls;

  @AfterEach
  void tearDown() {
    calls.close();
  }

  /** The prompt, its Write of a.txt and its Stop, kept while the Write ran, all taken late. */
  private List<HookOutcome> takeThePromptLate() {
    String write = ClaudeCodeCalls.writeOf(calls.workspace.resolve("a.txt").toString(), "toolu_1");
    return List.of(
        calls.sendLate("p-1", "UserPromptSubmit", ",\"prompt\":\"go\"", KEPT_AT),
        calls.sendLate("p-1", "PreToolUse", write, KEPT_AT.plusMillis(5)),
        calls.sendLate("p-1", "Stop", "", KEPT_AT.plusMillis(9)));
  }

  @Test
  void inATrackedWorkspaceTheLateTurnHasTheChangeWithTheIndexsBeforeState() {
    calls = ClaudeCodeCalls.in(temp, true);
    calls.workspace.file("a.txt", "after\n"); // the Write ran while no service did

    List<HookOutcome> outcomes = takeThePromptLate();

    assertEquals(
        List.of(
            List.of("late", "begun"), List.of("late", "snapshotted"), List.of("late", "finished")),
        outcomes.stream().map(HookOutcome::outcomes).toList());
    assertEquals(TurnState.FINISHED, RecordedChanges.turn(calls.turndiff.store(), TURN).state());
    assertEquals(
        Map.of("a.txt", "modified scan []"), RecordedChanges.summary(calls.turndiff.store(), TURN));
    StoredFileChange change = RecordedChanges.of(calls.turndiff.store(), TURN).getFirst();
    assertTrue(
        change.before().storedContent().isPresent(),
        "the before-state is the index's, restorable: " + change.before());
    assertEquals(3, calls.hooks.counters().counts().get("claude-code").late());
  }

  @Test
  void elsewhereALateToolCallsPathsAreNotCapturedBecauseTheServiceWasNotRunning() {
    calls = ClaudeCodeCalls.in(temp, false);
    calls.workspace.file("a.txt", "after\n");

    takeThePromptLate();

    StoredFileChange change = RecordedChanges.of(calls.turndiff.store(), TURN).getFirst();
    assertEquals("a.txt", change.path().display());
    Snapshot.MetadataOnly before = assertInstanceOf(Snapshot.MetadataOnly.class, change.before());
    assertEquals(Presence.UNKNOWN, before.presence());
    assertEquals(Reason.UNREADABLE, before.why());
    String detail = before.reasonDetail();
    assertTrue(
        detail.contains("the turndiff service was not running when claude-code ran"), detail);
    assertTrue(detail.contains(KEPT_AT.plusMillis(5).toString()), detail);
    assertFalse(
        change.before().storedContent().isPresent(), "the state now is never taken for the before");
    assertEquals("after\n", RecordedChanges.afterText(calls.turndiff.store(), change));
  }
}
