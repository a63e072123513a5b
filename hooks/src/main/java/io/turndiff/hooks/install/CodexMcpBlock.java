package io.turndiff.hooks.install;

import java.nio.file.Path;

/**
 * turndiff's MCP server in a Codex {@code config.toml}: the table {@code [mcp_servers.turndiff]}
 * between two marker lines, appended as the trust block is ({@link CodexTrust}), so that uninstall
 * finds exactly what install wrote in a file the user also edits.
 *
 * <p>Codex keeps its servers in one table per name per file, so two workspaces cannot share a file
 * for theirs. A workspace's entry therefore goes into the workspace's own {@code
 * .codex/config.toml}, the project layer Codex 0.171.0 reads for a trusted project from the same
 * directories as the project's {@code hooks.json} (so the server is there exactly when the hooks
 * run); the user's goes into {@code $CODEX_HOME/config.toml}, beside the trust block. Codex starts
 * a server in the session's working directory ({@code codex -C DIR}'s, else its own), seen with
 * 0.171.0: the user's entry, which names no workspace, serves the workspace the session runs in.
 */
final class CodexMcpBlock {

  static final String BEGIN =
      "# >>> turndiff mcp: the MCP server `turndiff hooks install` registered;"
          + " `turndiff hooks uninstall` removes this block";
  static final String END = "# <<< turndiff mcp";

  private CodexMcpBlock() {}

  /** The text of {@code config} with {@code server}'s block, and what was appended (null: none). */
  record Placed(String after, String added) {}

  /**
   * {@code text} of {@code config} with turndiff's block for {@code server}: the block there is
   * replaced in place, else the block is appended after a blank line. A {@code
   * [mcp_servers.turndiff]} outside the block is refused (TOML takes a table once, and it is not
   * turndiff's to change), as is a file the result would not parse as.
   */
  static Placed put(Path config, String text, McpServer server) {
    String block = BEGIN + "\n" + server.tomlTable() + END + "\n";
    int start = start(text);
    String others;
    Placed placed;
    if (start >= 0) {
      int end = end(text, start);
      if (end < 0) {
        throw RuntimeSettings.refused(
            config, "it holds the start of turndiff's MCP block but not its end line");
      }
      others = text.substring(0, start) + text.substring(end);
      placed = new Placed(text.substring(0, start) + block + text.substring(end), null);
    } else {
      String added = CodexTrust.separator(text) + block;
      others = text;
      placed = new Placed(text + added, added);
    }
    if (CodexConfig.parse(config, others).mcpServer(McpServer.NAME).isPresent()) {
      throw RuntimeSettings.refused(
          config,
          "it already has an MCP server [mcp_servers."
              + McpServer.NAME
              + "] (take it out: install writes turndiff's own; or install with --no-mcp)");
    }
    CodexConfig.parse(config, placed.after());
    return placed;
  }

  /**
   * {@code text} without turndiff's block: the bytes install appended ({@code added}) when they are
   * still there, else the block between its markers.
   */
  static String without(String text, String added) {
    if (added != null && text.contains(added)) {
      int at = text.lastIndexOf(added);
      return text.substring(0, at) + text.substring(at + added.length());
    }
    int start = start(text);
    int end = start < 0 ? -1 : end(text, start);
    return end < 0 ? text : text.substring(0, start) + text.substring(end);
  }

  private static int start(String text) {
    if (text.startsWith(BEGIN + "\n")) {
      return 0;
    }
    int at = text.indexOf("\n" + BEGIN + "\n");
    return at < 0 ? -1 : at + 1;
  }

  private static int end(String text, int start) {
    return CodexTrust.blockEnd(text, start, END);
  }
}
