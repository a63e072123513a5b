package io.turndiff.hooks.install;

import io.turndiff.api.wire.WireHookSighting;
import io.turndiff.api.wire.WireHooksStatus;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * What the evidence tests hand the evidence besides the runtime's own files: the hooks status of a
 * workspace with nothing installed and no service, and Claude Code's hook calls kept from it, as
 * the service keeps them.
 */
final class HookCallsKept {

  private HookCallsKept() {}

  /** The status of {@code workspace}: tracked, no hooks installed, no service running. */
  static WireHooksStatus status(Path workspace) {
    return new WireHooksStatus(
        List.of(),
        "/s/turndiff.db",
        new WireHooksStatus.Workspace(workspace.toString(), true),
        new WireHooksStatus.Service(false, null, null, null, List.of()),
        new WireHooksStatus.Here(workspace.toString(), List.of()),
        List.of());
  }

  /**
   * Claude Code's last hook call of {@code session} from {@code workspace}, at {@code at}: its
   * prompt's {@code Stop} when {@code ended}, else its {@code UserPromptSubmit} (the prompt open).
   */
  static WireHookSighting claudeSighting(
      Path workspace, String session, Instant at, boolean ended) {
    return new WireHookSighting(
        "claude-code",
        workspace.toString(),
        at.toString(),
        ended ? "Stop" : "UserPromptSubmit",
        session,
        null,
        new WireHookSighting.Prompt(at.toString(), true, 0, ended, null, null, null),
        null);
  }
}
