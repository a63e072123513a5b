package io.turndiff.hooks;

import io.turndiff.api.InvalidRequest;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The parts of a {@link HookCall} every payload has, read first; each runtime's mapper then picks
 * the action. An action that may begin a turn needs the runtime's directory: without one the
 * payload is refused ({@code bad_request}).
 */
record HookCallDraft(
    String runtime,
    String event,
    String session,
    String cwdField,
    Optional<String> cwd,
    Optional<String> runtimeTurn,
    Optional<String> toolCall,
    Optional<String> tool) {

  /**
   * The field of a prompt hook's payload that carries the prompt (every runtime's but OpenCode).
   */
  static final String PROMPT = "prompt";

  /** The field of a command hook's payload that names the tool about to act (every runtime's). */
  static final String TOOL_NAME = "tool_name";

  /**
   * The fields {@link #read} reads, and {@code more}: what a command hook's mapper names (the turn
   * and tool call fields, null when the runtime gives none).
   */
  static Set<String> fields(String turnField, String toolCallField, String... more) {
    Set<String> fields = new TreeSet<>(List.of("hook_event_name", "session_id", "cwd", TOOL_NAME));
    if (turnField != null) {
      fields.add(turnField);
    }
    if (toolCallField != null) {
      fields.add(toolCallField);
    }
    fields.addAll(List.of(more));
    return Set.copyOf(fields);
  }

  /**
   * The common fields of a command hook's payload ({@code hook_event_name}, {@code session_id},
   * {@code cwd}, {@code tool_name}), with the runtime's turn id and tool call id read from the
   * fields it names them by ({@code null}: the runtime gives none).
   */
  static HookCallDraft read(
      HookFields payload, String runtime, String turnField, String toolCallField) {
    return new HookCallDraft(
        runtime,
        payload.required("hook_event_name"),
        payload.required("session_id"),
        "cwd",
        payload.directory("cwd"),
        turnField == null ? Optional.empty() : payload.optional(turnField),
        toolCallField == null ? Optional.empty() : payload.optional(toolCallField),
        payload.optional(TOOL_NAME));
  }

  /**
   * The call of a runtime that names its events as Claude Code does (Claude Code and Codex): {@code
   * UserPromptSubmit} begins with the payload's {@code prompt}, {@code PreToolUse} is what {@code
   * beforeTool} makes of it, {@code Stop} and {@code SessionEnd} finish, {@code PostToolUse} (and
   * Claude Code's {@code PostToolUseFailure}) is what {@code afterTool} makes of it, any other
   * event is ignored.
   */
  HookCall ofPromptEvents(
      HookFields payload,
      Function<HookCallDraft, HookCall> beforeTool,
      Function<HookCallDraft, HookCall> afterTool) {
    return switch (event()) {
      case "UserPromptSubmit" -> begin(payload.optional(PROMPT));
      case "PreToolUse" -> beforeTool.apply(this);
      case "PostToolUse", "PostToolUseFailure" -> afterTool.apply(this);
      case "Stop", "SessionEnd" -> finish();
      default -> ignore();
    };
  }

  HookCall ignore() {
    return call(HookCall.Action.IGNORE, List.of());
  }

  /**
   * A shell call's Post hook: the call {@code tool} running {@code command} in {@code base} ends.
   */
  HookCall endShell(String tool, String base, String command) {
    requireCwd();
    return new HookCall(
        runtime,
        event,
        HookCall.Action.END_CALL,
        session,
        cwd,
        runtimeTurn,
        toolCall,
        Optional.of(tool),
        List.of(),
        Optional.of(new HookCall.Shell(tool, command, base)),
        Optional.empty());
  }

  HookCall finish() {
    return call(HookCall.Action.FINISH, List.of());
  }

  /** A begin, with the prompt the payload carried, if any. */
  HookCall begin(Optional<String> prompt) {
    requireCwd();
    return new HookCall(
        runtime,
        event,
        HookCall.Action.BEGIN,
        session,
        cwd,
        runtimeTurn,
        toolCall,
        tool,
        List.of(),
        Optional.empty(),
        prompt);
  }

  HookCall ensure() {
    return call(HookCall.Action.ENSURE, List.of());
  }

  /** A snapshot of {@code paths} (field {@code field}), relative ones against {@code base}. */
  HookCall snapshot(String field, String base, List<String> paths) {
    return call(HookCall.Action.SNAPSHOT, HookFields.paths(field, base, paths));
  }

  /** A snapshot of {@code paths} (field {@code field}), relative ones against the directory. */
  HookCall snapshot(String field, List<String> paths) {
    return snapshot(field, requireCwd(), paths);
  }

  /**
   * A shell command: a snapshot of the paths of every {@code apply_patch} inside it (relative ones
   * against {@code base}, a {@code cd} in the command not followed), else only an open turn before
   * it runs — the finish scan of the tracked workspace records what it changed.
   */
  HookCall shell(String field, String base, String command) {
    List<String> patched = ApplyPatchPaths.inShellCommand(command);
    return patched.isEmpty() ? ensure() : snapshot(field, base, patched);
  }

  /**
   * As {@link #shell}, for a runtime whose Post hook ends the call ({@link #endShell}): the call
   * {@code tool} is in flight from now, and owns what the watcher sees change until its end.
   */
  HookCall shellCall(String field, String tool, String base, String command) {
    HookCall call = shell(field, base, command);
    return new HookCall(
        call.runtime(),
        call.event(),
        call.action(),
        call.session(),
        call.cwd(),
        call.runtimeTurn(),
        call.toolCall(),
        call.tool(),
        call.paths(),
        Optional.of(new HookCall.Shell(tool, command, base)),
        Optional.empty());
  }

  /** The directory the runtime works in; refused when the payload has none. */
  String requireCwd() {
    return cwd.orElseThrow(
        () ->
            new InvalidRequest(
                "the hook payload has no field '"
                    + cwdField
                    + "', which "
                    + event
                    + " needs (the directory the runtime works in)"));
  }

  private HookCall call(HookCall.Action action, List<String> paths) {
    if (action != HookCall.Action.FINISH && action != HookCall.Action.IGNORE) {
      requireCwd();
    }
    return new HookCall(
        runtime,
        event,
        action,
        session,
        cwd,
        runtimeTurn,
        toolCall,
        tool,
        paths,
        Optional.empty(),
        Optional.empty());
  }
}
