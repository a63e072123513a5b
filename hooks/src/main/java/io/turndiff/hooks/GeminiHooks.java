package io.turndiff.hooks;

import java.util.List;
import java.util.Set;

/**
 * Gemini CLI's hook input (the hooks reference of its docs, as Gemini CLI 0.61.0 sends it): {@code
 * BeforeAgent} begins (its {@code prompt} the turn's), {@code BeforeTool} of {@code write_file} or
 * {@code replace} snapshots its {@code file_path} (relative to {@code cwd} when relative: Gemini
 * passes it on as the model wrote it), {@code run_shell_command} makes sure a turn is open (and
 * snapshots a patch inside it, relative to its {@code dir_path}) and begins the shell call, which
 * its {@code AfterTool} ends, {@code AfterAgent} and {@code SessionEnd} finish. Gemini gives no
 * turn id and no tool call id: the service generates the turn's, and a repeated delivery is
 * recognized by its bytes (every payload carries a millisecond {@code timestamp}).
 */
final class GeminiHooks implements HookMapper {

  @Override
  public String runtime() {
    return "gemini";
  }

  private static final Set<String> FIELDS =
      HookCallDraft.fields(
          null,
          null,
          HookCallDraft.PROMPT,
          "tool_name",
          "tool_input.file_path",
          "tool_input.command",
          "tool_input.dir_path");

  @Override
  public Set<String> fields() {
    return FIELDS;
  }

  @Override
  public HookCall map(HookFields payload) {
    HookCallDraft draft = HookCallDraft.read(payload, runtime(), null, null);
    return switch (draft.event()) {
      case "BeforeAgent" -> draft.begin(payload.optional(HookCallDraft.PROMPT));
      case "BeforeTool" -> beforeTool(payload, draft);
      case "AfterTool" -> afterTool(payload, draft);
      case "AfterAgent", "SessionEnd" -> draft.finish();
      default -> draft.ignore();
    };
  }

  private static HookCall beforeTool(HookFields payload, HookCallDraft draft) {
    return switch (payload.optional("tool_name").orElse("")) {
      case "write_file", "replace" ->
          draft.snapshot("tool_input.file_path", List.of(payload.required("tool_input.file_path")));
      case "run_shell_command" ->
          draft.shellCall(
              "tool_input.command",
              "run_shell_command",
              HookFields.within(draft.requireCwd(), payload.optional("tool_input.dir_path")),
              payload.optional("tool_input.command").orElse(""));
      default -> draft.ensure();
    };
  }

  /** A shell call's end (Gemini fires it for a failed call too); other tools' are not used. */
  private static HookCall afterTool(HookFields payload, HookCallDraft draft) {
    return payload.optional("tool_name").filter("run_shell_command"::equals).isPresent()
        ? draft.endShell(
            "run_shell_command",
            HookFields.within(draft.requireCwd(), payload.optional("tool_input.dir_path")),
            payload.optional("tool_input.command").orElse(""))
        : draft.ignore();
  }
}
