package io.turndiff.hooks;

import java.util.Set;

/**
 * Codex's hook input ({@code codex-rs/hooks/schema}, as Codex 0.171.0 sends it): {@code
 * UserPromptSubmit} begins (its {@code prompt} the turn's), {@code PreToolUse} of {@code
 * apply_patch} snapshots every path of the patch, {@code Bash} snapshots the paths of a patch run
 * through the shell (if any), makes sure a turn is open and begins the shell call, which its {@code
 * PostToolUse} ends, {@code Stop} and {@code SessionEnd} finish. The runtime's turn id is {@code
 * turn_id}, the tool call's {@code tool_use_id}; {@code cwd} is the tool's working directory, which
 * relative patch paths are read against.
 */
final class CodexHooks implements HookMapper {

  @Override
  public String runtime() {
    return "codex";
  }

  private static final Set<String> FIELDS =
      HookCallDraft.fields(
          "turn_id", "tool_use_id", HookCallDraft.PROMPT, "tool_name", "tool_input.command");

  @Override
  public Set<String> fields() {
    return FIELDS;
  }

  @Override
  public HookCall map(HookFields payload) {
    return HookCallDraft.read(payload, runtime(), "turn_id", "tool_use_id")
        .ofPromptEvents(
            payload, draft -> beforeTool(payload, draft), draft -> afterTool(payload, draft));
  }

  private static HookCall beforeTool(HookFields payload, HookCallDraft draft) {
    String command = payload.optional("tool_input.command").orElse("");
    return switch (payload.optional("tool_name").orElse("")) {
      case "apply_patch" ->
          draft.snapshot("tool_input.command", ApplyPatchPaths.parse(command).paths());
      case "Bash" -> draft.shellCall("tool_input.command", "Bash", draft.requireCwd(), command);
      default -> draft.ensure();
    };
  }

  /**
   * A shell call's end; other tools' are not used. Codex 0.171.0 fires none for a command that is a
   * patch (its heredoc goes to apply_patch): that call stays in flight until its turn finishes.
   */
  private static HookCall afterTool(HookFields payload, HookCallDraft draft) {
    return payload.optional("tool_name").filter("Bash"::equals).isPresent()
        ? draft.endShell(
            "Bash", draft.requireCwd(), payload.optional("tool_input.command").orElse(""))
        : draft.ignore();
  }
}
