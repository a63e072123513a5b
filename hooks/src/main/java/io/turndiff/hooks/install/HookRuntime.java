package io.turndiff.hooks.install;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.turndiff.model.RequestException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The agent runtimes {@code turndiff hooks install} knows, where each keeps its settings, and the
 * hooks turndiff adds to them (docs/runtime-hooks.md, "hooks install, uninstall, status"): which
 * events, with which matcher and timeout, in the runtime's own shape. OpenCode takes a plugin file
 * instead of hooks.
 */
public enum HookRuntime {
  CLAUDE_CODE(
      "claude-code",
      List.of(
          new Event("UserPromptSubmit", null, 30),
          new Event("PreToolUse", "Write|Edit|MultiEdit|NotebookEdit|Bash|PowerShell", 30),
          // a shell call's end: it owns what changed while it ran (a failed call ends too)
          new Event("PostToolUse", "Bash|PowerShell", 30),
          new Event("PostToolUseFailure", "Bash|PowerShell", 30),
          new Event("Stop", null, 30),
          // Claude gives SessionEnd hooks 1.5 s unless the hook asks for more
          new Event("SessionEnd", null, 5)),
      true),
  GEMINI(
      "gemini",
      List.of(
          // Gemini's timeouts are in milliseconds
          new Event("BeforeAgent", "*", 30_000),
          new Event("BeforeTool", "^(write_file|replace|run_shell_command)$", 30_000),
          // a shell call's end (Gemini fires it for a failed call too)
          new Event("AfterTool", "^run_shell_command$", 30_000),
          new Event("AfterAgent", "*", 30_000),
          new Event("SessionEnd", "*", 5_000)),
      true),
  CODEX(
      "codex",
      List.of(
          // no matchers: PreToolUse must see apply_patch, Bash and every other tool
          new Event("UserPromptSubmit", null, 30),
          new Event("PreToolUse", null, 30),
          // a shell call's end; no matcher either: Codex's trust hash of a handler has none
          new Event("PostToolUse", null, 30),
          new Event("Stop", null, 30),
          // Codex clamps SessionEnd timeouts to 3 s
          new Event("SessionEnd", null, 3)),
      true),
  // its plugin sends no tool.execute.after yet: its shell calls are not bracketed
  OPENCODE("opencode", List.of(), false);

  /** One hook turndiff adds: its event, matcher (null: none) and timeout in the runtime's unit. */
  public record Event(String name, String matcher, int timeout) {

    /** Codex's name of the event in its trust keys: {@code PreToolUse} is {@code pre_tool_use}. */
    public String snakeCase() {
      return name.replaceAll("([a-z])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
    }
  }

  private final String id;
  private final List<Event> events;
  private final boolean bracketsShellCalls;

  HookRuntime(String id, List<Event> events, boolean bracketsShellCalls) {
    this.id = id;
    this.events = events;
    this.bracketsShellCalls = bracketsShellCalls;
  }

  /**
   * Whether turndiff registers the runtime's Post hook of a shell call beside its Pre hook: each
   * shell call is then in flight from one to the other, and owns what the watcher saw change
   * meanwhile (docs/tracking.md). A hooks install older than this registers no Post hook ({@code
   * hooks status} shows it outdated): such a call stays in flight until its turn finishes.
   */
  public boolean bracketsShellCalls() {
    return bracketsShellCalls;
  }

  public String id() {
    return id;
  }

  public List<Event> events() {
    return events;
  }

  public static String ids() {
    return Arrays.stream(values()).map(HookRuntime::id).collect(Collectors.joining(", "));
  }

  /** The runtime named {@code id}; any other name is bad input. */
  public static HookRuntime of(String id) {
    for (HookRuntime runtime : values()) {
      if (runtime.id.equals(id)) {
        return runtime;
      }
    }
    throw new RequestException(
        RequestException.Problem.BAD_INPUT,
        "unknown runtime '" + id + "': expected one of " + ids());
  }

  /** The matcher group turndiff adds for {@code event}, running {@code command}. */
  ObjectNode group(Event event, String command) {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    ObjectNode handler = nodes.objectNode();
    if (this == GEMINI) {
      // shown in Gemini's "project-level hooks" warning and in its trusted_hooks.json
      handler.put("name", "turndiff");
    }
    handler.put("type", "command");
    handler.put("command", command);
    handler.put("timeout", event.timeout());
    ObjectNode group = nodes.objectNode();
    if (event.matcher() != null) {
      group.put("matcher", event.matcher());
    }
    group.putArray("hooks").add(handler);
    return group;
  }

  /**
   * Whether a hook's command is one of turndiff's for this runtime: the script or the hook client,
   * named by any path, with this runtime's name (a checkout that moved leaves such a command
   * behind).
   */
  public boolean isTurndiffCommand(String command) {
    return Pattern.compile("turndiff-hook(-client)?'? " + Pattern.quote(id) + "( |$)")
        .matcher(command)
        .find();
  }
}
