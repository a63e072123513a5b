package io.turndiff.bench.jmh;

import io.turndiff.api.TurnEvents;
import io.turndiff.api.Turndiff;
import io.turndiff.capture.BeganTurn;
import io.turndiff.capture.SnapshotVerdict;
import io.turndiff.capture.TurnSummary;
import io.turndiff.hooks.HookOutcome;
import io.turndiff.hooks.HookQuery;
import io.turndiff.hooks.RuntimeHooks;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * One Claude Code session's hook calls in {@code workspace}, given to the service's hooks
 * in-process ({@link RuntimeHooks}, no HTTP) as the hook endpoint gives them, with no panel
 * watching: for the benchmarks of a hook call and of a prompt. A prompt's id names its turn
 * store-wide, so the id sent is the session's name and the prompt's: two sessions may run prompts
 * of the same name.
 */
final class ClaudeCodeSession {

  private static final HookQuery QUERY = new HookQuery(false, false);

  private final RuntimeHooks hooks;
  private final String session;
  private final Path workspace;

  ClaudeCodeSession(RuntimeHooks hooks, String session, Path workspace) {
    this.hooks = hooks;
    this.session = session;
    this.workspace = workspace;
  }

  /** The service's hooks over {@code turndiff}, telling no panel anything. */
  static RuntimeHooks hooksOf(Turndiff turndiff) {
    return new RuntimeHooks(turndiff, Path::of, new Unwatched());
  }

  HookOutcome prompt(String prompt) {
    return require(send(prompt, "UserPromptSubmit", ",\"prompt\":\"go\""), "begun");
  }

  /** The {@code PreToolUse} of a {@code Write} of {@code file}, the tool call {@code toolUse}. */
  HookOutcome preWrite(String prompt, Path file, String toolUse) {
    // a call the hooks could not serve is an outcome too ("failed"): only a snapshot is timed
    return require(
        send(
            prompt,
            "PreToolUse",
            ",\"tool_name\":\"Write\",\"tool_use_id\":\""
                + toolUse
                + "\",\"tool_input\":{\"file_path\":\""
                + file
                + "\",\"content\":\"x\"}"),
        "snapshotted");
  }

  HookOutcome stop(String prompt) {
    return require(send(prompt, "Stop", ""), "finished");
  }

  private HookOutcome send(String prompt, String event, String rest) {
    byte[] payload =
        ("{\"session_id\":\""
                + session
                + "\",\"prompt_id\":\""
                + session
                + "-"
                + prompt
                + "\",\"cwd\":\""
                + workspace
                + "\",\"hook_event_name\":\""
                + event
                + "\""
                + rest
                + "}")
            .getBytes(StandardCharsets.UTF_8);
    return hooks.receive("claude-code", payload, QUERY);
  }

  private static HookOutcome require(HookOutcome outcome, String expected) {
    if (!outcome.outcomes().contains(expected)) {
      throw new IllegalStateException("expected " + expected + ", the hook said " + outcome);
    }
    return outcome;
  }

  /** No panel watches: the events go nowhere, as in a service nobody has open. */
  private static final class Unwatched implements TurnEvents {
    @Override
    public void began(BeganTurn began) {}

    @Override
    public void snapshotted(String turn, List<SnapshotVerdict> verdicts) {}

    @Override
    public void finished(String turn, TurnSummary finished) {}
  }
}
