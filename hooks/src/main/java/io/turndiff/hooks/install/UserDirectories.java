package io.turndiff.hooks.install;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The user's directories as the runtimes and turndiff's hook clients read them from the
 * environment: {@code $HOME} (else the JVM's {@code user.home}), {@code $XDG_STATE_HOME}, {@code
 * $XDG_CONFIG_HOME}, {@code $CODEX_HOME}, {@code $CLAUDE_CONFIG_DIR}, {@code $GEMINI_CLI_HOME},
 * each with its documented default.
 */
public record UserDirectories(Map<String, String> environment) {

  public static UserDirectories current() {
    return new UserDirectories(System.getenv());
  }

  Path home() {
    String home = environment.get("HOME");
    return Path.of(home != null && home.startsWith("/") ? home : System.getProperty("user.home"));
  }

  /** Where turndiff keeps its installation record and the backups of the files it changed. */
  public Path turndiffState() {
    return absoluteOr("XDG_STATE_HOME", home().resolve(".local/state")).resolve("turndiff");
  }

  Path configHome() {
    return absoluteOr("XDG_CONFIG_HOME", home().resolve(".config"));
  }

  Path codexHome() {
    return absoluteOr("CODEX_HOME", home().resolve(".codex"));
  }

  /**
   * Claude Code's own folder, where it keeps its sessions: {@code $CLAUDE_CONFIG_DIR}, else {@code
   * ~/.claude}.
   */
  Path claudeConfig() {
    return absoluteOr("CLAUDE_CONFIG_DIR", home().resolve(".claude"));
  }

  /**
   * Gemini CLI's own folder, where it keeps its project registry and sessions: {@code .gemini} in
   * {@code $GEMINI_CLI_HOME}, else in the home (Gemini CLI 0.61.0, {@code homedir()} of its core).
   */
  Path geminiHome() {
    return absoluteOr("GEMINI_CLI_HOME", home()).resolve(".gemini");
  }

  /** Whether {@code $CODEX_HOME} names Codex's home (Codex then makes the name canonical). */
  boolean codexHomeIsSet() {
    String value = environment.get("CODEX_HOME");
    return value != null && value.startsWith("/");
  }

  /**
   * The file turndiff's hooks for {@code runtime} (OpenCode: its plugin) go into; {@code workspace}
   * is ignored for the user's scope.
   */
  Path settingsFile(HookRuntime runtime, HookScope scope, Path workspace) {
    boolean user = scope == HookScope.USER;
    return switch (runtime) {
      case CLAUDE_CODE ->
          // a workspace's personal, git-ignored file: turndiff's hooks hold this machine's paths
          user
              ? home().resolve(".claude/settings.json")
              : workspace.resolve(".claude/settings.local.json");
      case GEMINI ->
          user
              ? home().resolve(".gemini/settings.json")
              : workspace.resolve(".gemini/settings.json");
      case CODEX ->
          user ? codexHome().resolve("hooks.json") : workspace.resolve(".codex/hooks.json");
      case OPENCODE ->
          user
              ? configHome().resolve("opencode/plugins/turndiff.ts")
              : workspace.resolve(".opencode/plugins/turndiff.ts");
    };
  }

  /**
   * The file turndiff's MCP server goes into when it is not the hooks' settings file: Claude Code's
   * project servers are in the workspace's {@code .mcp.json}, its user's in {@code ~/.claude.json};
   * Codex's in the workspace's {@code .codex/config.toml} (its project layer) or the user's {@code
   * $CODEX_HOME/config.toml} ({@link CodexMcpBlock}). Gemini keeps them in the settings file with
   * the hooks (empty here); OpenCode gets none from install.
   */
  Optional<Path> mcpFile(HookRuntime runtime, HookScope scope, Path workspace) {
    boolean user = scope == HookScope.USER;
    return switch (runtime) {
      case CLAUDE_CODE ->
          Optional.of(user ? home().resolve(".claude.json") : workspace.resolve(".mcp.json"));
      case CODEX ->
          Optional.of(
              user ? codexHome().resolve("config.toml") : workspace.resolve(".codex/config.toml"));
      case GEMINI, OPENCODE -> Optional.empty();
    };
  }

  private Path absoluteOr(String variable, Path fallback) {
    String value = environment.get(variable);
    return value != null && value.startsWith("/") ? Path.of(value) : fallback;
  }
}
