package io.turndiff.hooks;

import java.util.List;
import java.util.Set;

/**
 * Claude Code's hook input (its hooks reference and the Agent SDK's hook input types): {@code
 * UserPromptSubmit} begins (its {@code prompt} the turn's), {@code PreToolUse} of a file tool
 * snapshots the path it names, a shell tool makes sure a turn is open and begins the shell call,
 * which its {@code PostToolUse} (or {@code PostToolUseFailure}) ends, {@code Stop} and {@code
 * SessionEnd} finish. The runtime's turn id is {@code prompt_id} (v2.1.196+), the tool call's
 * {@code tool_use_id}; a subagent's tool call carries the parent's {@code session_id} and lands in
 * the parent's turn.
 */
final class ClaudeCodeHooks implements HookMapper {

  @Override
  public String runtime() {
    return "claude-code";
  }

  private static final Set<String> FIELDS =
      HookCallDraft.fields(
          "prompt_id",
          "tool_use_id",
          HookCallDraft.PROMPT,
          "tool_name",
          "tool_input.file_path",
          "tool_input.notebook_path",
          "tool_input.command");

  @Override
  public Set<String> fields() {
    return FIELDS;
  }

  @Override
  public HookCall map(HookFields payload) {
    return HookCallDraft.read(payload, runtime(), "prompt_id", "tool_use_id")
        .ofPromptEvents(
            payload, draft -> beforeTool(payload, draft), draft -> afterTool(payload, draft));
  }

  private static HookCall beforeTool(HookFields payload, HookCallDraft draft) {
    return switch (payload.optional("tool_name").orElse("")) {
      case "Write", "Edit", "MultiEdit" ->
          draft.snapshot("tool_input.file_path", List.of(payload.required("tool_input.file_path")));
      case "NotebookEdit" ->
          draft.snapshot(
              "tool_input.notebook_path", List.of(payload.required("tool_input.notebook_path")));
      case "Bash", "PowerShell" ->
          draft.shellCall(
              "tool_input.command",
              payload.required("tool_name"),
              draft.requireCwd(),
              payload.optional("tool_input.command").orElse(""));
      default -> draft.ensure();
    };
  }

  /** A shell call's end, failed or not; every other tool's Post is not used. */
  private static HookCall afterTool(HookFields payload, HookCallDraft draft) {
    return switch (payload.optional("tool_name").orElse("")) {
      case "Bash", "PowerShell" ->
          draft.endShell(
              payload.required("tool_name"),
              draft.requireCwd(),
              payload.optional("tool_input.command").orElse(""));
      default -> draft.ignore();
    };
  }
}
