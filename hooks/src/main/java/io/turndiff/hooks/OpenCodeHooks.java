package io.turndiff.hooks;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What turndiff's OpenCode plugin ({@code integrations/opencode/turndiff.ts}) posts: the hook's
 * name, OpenCode's own {@code input} and {@code output} for it, and the project's {@code
 * directory}. {@code chat.message} begins (turn id: the message's id), {@code tool.execute.before}
 * of a file tool snapshots its {@code filePath}, of {@code apply_patch} every path of its {@code
 * patchText}, of {@code bash} only makes sure a turn is open (or snapshots a patch inside the
 * command), and the {@code session.idle} event finishes. Anything else is ignored.
 */
final class OpenCodeHooks implements HookMapper {

  @Override
  public String runtime() {
    return "opencode";
  }

  private static final Set<String> FIELDS =
      Set.of(
          "hook",
          "directory",
          "input.sessionID",
          "input.event.type",
          "input.event.properties.sessionID",
          "input.callID",
          "input.tool",
          "output.message.id",
          "output.args.filePath",
          "output.args.patchText",
          "output.args.command",
          "output.args.workdir");

  @Override
  public Set<String> fields() {
    return FIELDS;
  }

  @Override
  public HookCall map(HookFields payload) {
    String hook = payload.required("hook");
    boolean event = hook.equals("event");
    HookCallDraft draft =
        new HookCallDraft(
            runtime(),
            event ? "event:" + payload.optional("input.event.type").orElse("") : hook,
            payload.required(event ? "input.event.properties.sessionID" : "input.sessionID"),
            "directory",
            payload.directory("directory"),
            hook.equals("chat.message") ? payload.optional("output.message.id") : Optional.empty(),
            payload.optional("input.callID"),
            payload.optional("input.tool"));
    return switch (hook) {
      case "chat.message" -> draft.begin(Optional.empty());
      case "tool.execute.before" -> beforeTool(payload, draft);
      case "event" -> draft.event().equals("event:session.idle") ? draft.finish() : draft.ignore();
      default -> draft.ignore();
    };
  }

  private static HookCall beforeTool(HookFields payload, HookCallDraft draft) {
    return switch (payload.optional("input.tool").orElse("")) {
      case "write", "edit", "multiedit" ->
          draft.snapshot("output.args.filePath", List.of(payload.required("output.args.filePath")));
      case "apply_patch", "patch" ->
          draft.snapshot(
              "output.args.patchText",
              ApplyPatchPaths.parse(payload.optional("output.args.patchText").orElse("")).paths());
      case "bash" ->
          draft.shell(
              "output.args.command",
              HookFields.within(draft.requireCwd(), payload.optional("output.args.workdir")),
              payload.optional("output.args.command").orElse(""));
      default -> draft.ignore();
    };
  }
}
