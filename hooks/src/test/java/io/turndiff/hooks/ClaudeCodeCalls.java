package io.turndiff.hooks;

import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireHookSighting;
import io.turndiff.api.wire.WireHooksStatus;
import io.turndiff.boundary.WorkspacePolicy;
import io.turndiff.capture.track.TrackingOptions;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.hooks.install.HookInstallations;
import io.turndiff.model.RuntimeProcess;
import io.turndiff.store.StoreAddress;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The hook calls of one Claude Code session ({@code s-1} unless {@link #inSession}), as Claude Code
 * sends them, given to {@link RuntimeHooks} over a real store (a SQLite file in the test's folder
 * unless {@link #on}) and a real workspace ({@code a.txt} "before\n"), tracked or not. Closing it
 * closes the store and checks nothing outside the workspace changed.
 */
final class ClaudeCodeCalls implements AutoCloseable {

  private static final HookQuery QUERY = new HookQuery(false, false);

  final TestWorkspace workspace;
  final Turndiff turndiff;
  final RuntimeHooks hooks;

  /** What the hook script names beside each payload: no runtime process unless {@link #from}. */
  private HookQuery query = QUERY;

  /** The session id in the payloads, as a JSON string's content. */
  private String session = "s-1";

  private ClaudeCodeCalls(Path temp, boolean tracked, Duration goneGrace, StoreAddress store) {
    workspace = TestWorkspace.in(temp.resolve("base")).file("a.txt", "before\n");
    turndiff = Turndiff.builder(store).policy(WorkspacePolicy.anyDirectory()).open();
    if (tracked) {
      turndiff.capture().tracker().track(workspace.root(), TrackingOptions.DEFAULTS);
    }
    hooks = new RuntimeHooks(turndiff, Path::of, new NoTurnEvents(), goneGrace);
  }

  static ClaudeCodeCalls in(Path temp, boolean tracked) {
    return in(temp, tracked, GoneRuntimes.GRACE);
  }

  /** As {@link #in}, a session whose process is gone being silent for {@code goneGrace}. */
  static ClaudeCodeCalls in(Path temp, boolean tracked, Duration goneGrace) {
    return new ClaudeCodeCalls(
        temp, tracked, goneGrace, new StoreAddress.SqliteFile(TestStore.fileIn(temp)));
  }

  /** As {@link #in}, the store at {@code store} (untracked). */
  static ClaudeCodeCalls on(Path temp, StoreAddress store) {
    return new ClaudeCodeCalls(temp, false, GoneRuntimes.GRACE, store);
  }

  /** The calls from now on are of the session {@code jsonId} (a JSON string's content). */
  ClaudeCodeCalls inSession(String jsonId) {
    session = jsonId;
    return this;
  }

  /** The calls from now on come from {@code runtime}, as the hook script names it. */
  ClaudeCodeCalls from(RuntimeProcess runtime) {
    query = new HookQuery(false, false, Optional.of(runtime));
    return this;
  }

  /**
   * The calls from now on come from {@code runtime} of version {@code version}, as the hook script
   * names them.
   */
  ClaudeCodeCalls from(RuntimeProcess runtime, String version) {
    query = new HookQuery(false, false, Optional.of(runtime), Optional.of(version));
    return this;
  }

  /** The payload of {@code event} of the prompt {@code prompt}, with {@code rest} (",…" fields). */
  byte[] payload(String prompt, String event, String rest) {
    return ("{\"session_id\":\""
            + session
            + "\",\"prompt_id\":\""
            + prompt
            + "\",\"cwd\":\""
            + workspace.root()
            + "\",\"hook_event_name\":\""
            + event
            + "\""
            + rest
            + "}")
        .getBytes(StandardCharsets.UTF_8);
  }

  HookOutcome send(String prompt, String event, String rest) {
    return hooks.receive("claude-code", payload(prompt, event, rest), query);
  }

  HookOutcome sendLate(String prompt, String event, String rest, Instant keptSince) {
    return hooks.receiveLate("claude-code", payload(prompt, event, rest), QUERY, keptSince);
  }

  HookOutcome prompt(String prompt) {
    return send(prompt, "UserPromptSubmit", ",\"prompt\":\"go\"");
  }

  /**
   * The fields of a {@code PreToolUse} of a {@code Write} of {@code path} (a JSON string's
   * content).
   */
  static String writeOf(String path, String toolUse) {
    return ",\"tool_name\":\"Write\",\"tool_use_id\":\""
        + toolUse
        + "\",\"tool_input\":{\"file_path\":\""
        + path
        + "\",\"content\":\"x\"}";
  }

  /**
   * What {@code hooks status} prints of {@code seen}, the one runtime and directory its service
   * saw, in a workspace of that directory with no installation.
   */
  static String hooksStatusText(WireHookSighting seen) {
    StringWriter text = new StringWriter();
    try (PrintWriter out = new PrintWriter(text)) {
      HookInstallations.print(
          new WireHooksStatus(
              List.of(),
              "store",
              new WireHooksStatus.Workspace(seen.directory(), true),
              new WireHooksStatus.Service(true, 1L, 2, null, List.of(seen)),
              new WireHooksStatus.Here(seen.directory(), List.of()),
              List.of()),
          out);
    }
    return text.toString();
  }

  @Override
  public void close() {
    turndiff.close();
    workspace.assertOutsideUnchanged();
  }
}
