package io.turndiff.hooks;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one runtime hook payload asks of turndiff, once its runtime's mapper read it: the action of
 * the turn state machine (docs/runtime-hooks.md, "Turns"), in whose session, and what it names.
 *
 * @param runtime the runtime the payload came from ({@code claude-code}, {@code gemini}, …)
 * @param event the runtime's event name, for logs
 * @param session the runtime's own session id
 * @param cwd the absolute directory the runtime reported, when it did
 * @param runtimeTurn the runtime's own id of the turn (Claude {@code prompt_id}, Codex {@code
 *     turn_id}, OpenCode's message id), when it gave one
 * @param toolCall the runtime's id of the tool call, when it gave one
 * @param tool the runtime's name of the tool that is about to act ({@code Write}, {@code
 *     write_file}, {@code edit}), when the payload names one: a snapshot's tool call keeps it, and
 *     a file's record lists its tools by it
 * @param paths the absolute paths (relative ones already joined to their directory) a snapshot
 *     records, in order; empty for every other action
 * @param shell the shell call a Pre hook begins or a Post hook ends, when the runtime brackets its
 *     shell calls with both: it owns what the watcher sees change while it is in flight
 * @param prompt the prompt a begin's payload carried (Claude Code's and Codex's {@code
 *     UserPromptSubmit}, Gemini's {@code BeforeAgent}: field {@code prompt}), kept as the turn's
 *     when the store keeps prompts; empty for every other action
 */
record HookCall(
    String runtime,
    String event,
    Action action,
    String session,
    Optional<String> cwd,
    Optional<String> runtimeTurn,
    Optional<String> toolCall,
    Optional<String> tool,
    List<String> paths,
    Optional<Shell> shell,
    Optional<String> prompt) {

  /**
   * A shell tool call as its hooks name it.
   *
   * @param tool the runtime's tool name ({@code Bash}, {@code run_shell_command})
   * @param command the command as the payload carried it (empty when it carried none)
   * @param directory the directory it runs in (Gemini's calls have no id: their Pre and Post are
   *     paired by tool, command and directory)
   */
  record Shell(String tool, String command, String directory) {}

  /** The state machine's actions. */
  enum Action {
    /** A prompt starts: begin a turn. */
    BEGIN,
    /** A file tool is about to run: ensure a turn, snapshot {@link #paths()}. */
    SNAPSHOT,
    /** A tool with nothing to snapshot (a shell command): ensure a turn is open before it runs. */
    ENSURE,
    /** The prompt's work ended (or the session did): finish the open turn. */
    FINISH,
    /** A shell call's Post hook: the call in flight since its Pre ends. */
    END_CALL,
    /** An event or tool the mapping does not use. */
    IGNORE
  }

  /**
   * Whether the call is the runtime's session ending: Claude Code, Codex and Gemini CLI all name
   * that event {@code SessionEnd}. A turn it finishes is one whose Stop never came.
   */
  boolean endsSession() {
    return action == Action.FINISH && event.equals("SessionEnd");
  }

  HookCall {
    Objects.requireNonNull(runtime, "runtime");
    Objects.requireNonNull(event, "event");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(session, "session");
    paths = List.copyOf(paths);
    if (action != Action.SNAPSHOT && !paths.isEmpty()) {
      throw new IllegalArgumentException("only a snapshot names paths, not " + action);
    }
    if (action != Action.BEGIN && prompt.isPresent()) {
      throw new IllegalArgumentException("only a begin carries a prompt, not " + action);
    }
    if (action == Action.END_CALL && shell.isEmpty()) {
      throw new IllegalArgumentException("a call's end names its shell call");
    }
    if (action != Action.FINISH && action != Action.IGNORE && cwd.isEmpty()) {
      throw new IllegalArgumentException(action + " needs the directory the runtime works in");
    }
  }
}
