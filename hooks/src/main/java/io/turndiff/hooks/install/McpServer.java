package io.turndiff.hooks.install;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.turndiff.boundary.Portability;
import io.turndiff.store.HostId;
import io.turndiff.store.Store;
import io.turndiff.store.StoreLocation;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The MCP server {@code hooks install} registers beside the hooks (docs/blame-mcp-export.md,
 * "turndiff mcp"): {@code mcpServers.turndiff}, a stdio server the runtime starts as {@code
 * turndiff mcp} with the launcher of the checkout ({@code <home>/turndiff}) or release ({@code
 * <home>/bin/turndiff}) whose hook script the hooks run, found as the script finds it. Installed
 * for a workspace it names the workspace ({@code --workspace DIR}), so the server finds the agent's
 * session there wherever the runtime starts it; installed for the user it has none, and the server
 * takes the directory the runtime starts it in. Claude Code and Gemini CLI read it as JSON, Codex
 * as a TOML table ({@link #tomlTable}) of the same {@code command}/{@code args} shape.
 */
public record McpServer(Path launcher, Path workspace) {

  /** The name the runtimes list the server's tools under. */
  public static final String NAME = "turndiff";

  /** The settings key of the servers, in Claude Code's and Gemini's files. */
  static final String SERVERS = "mcpServers";

  /** Claude Code's list of approved servers of a project's {@code .mcp.json}. */
  static final String APPROVED = "enabledMcpjsonServers";

  /**
   * The variables Codex passes on to the server. Codex 0.171.0 starts a stdio server with a cleaned
   * environment, not its own: {@code HOME}, {@code PATH}, {@code LANG}, {@code SHELL}, {@code TERM}
   * and a few more (seen with the binary: a stub server listing its environment), plus those its
   * table names in {@code env_vars}. Without these the server would look for the store somewhere
   * other than where the hooks' service keeps it whenever the user chose the place ({@code
   * TURNDIFF_DB}, {@code XDG_DATA_HOME}; a PostgreSQL store's credentials), would be another
   * machine under {@code TURNDIFF_HOST_ID}, another mode under {@code TURNDIFF_PORTABILITY}, and
   * the launcher would not find a JDK named only by {@code JAVA_HOME}: an agent would list no
   * turns, or another store's. A name the user has not set is passed as nothing.
   */
  static final List<String> CODEX_PASSED_VARIABLES =
      List.of(
          StoreLocation.ENVIRONMENT_VARIABLE,
          StoreLocation.PASSWORD_FILE_VARIABLE,
          "XDG_DATA_HOME",
          "PGUSER",
          "PGPASSWORD",
          HostId.VARIABLE,
          Store.BUSY_TIMEOUT_VARIABLE,
          Portability.VARIABLE,
          "JAVA_HOME");

  static McpServer of(HookScript script, Path workspace) {
    return new McpServer(script.launcher(), workspace);
  }

  /** The entry as the settings hold it. */
  ObjectNode entry() {
    ObjectNode entry = JsonNodeFactory.instance.objectNode();
    entry.put("command", launcher.toString());
    ArrayNode args = entry.putArray("args").add("mcp");
    if (workspace != null) {
      args.add("--workspace").add(workspace.toString());
    }
    return entry;
  }

  /**
   * The entry as Codex's {@code config.toml} holds it: {@code [mcp_servers.turndiff]}, with the
   * variables Codex passes on ({@link #CODEX_PASSED_VARIABLES}). Codex waits 10 s by default for a
   * server to start and list its tools and then goes on without it; a JVM on a loaded machine can
   * take longer than that (the hook script's service start took 6–7 s at load, issue 21 item 3), so
   * the entry gives it 60.
   */
  String tomlTable() {
    StringBuilder args = new StringBuilder("[\"mcp\"");
    if (workspace != null) {
      args.append(", \"--workspace\", ").append(tomlString(workspace.toString()));
    }
    return "[mcp_servers."
        + NAME
        + "]\ncommand = "
        + tomlString(launcher.toString())
        + "\nargs = "
        + args
        + "]\nenv_vars = "
        + CODEX_PASSED_VARIABLES.stream()
            .map(McpServer::tomlString)
            .collect(Collectors.joining(", ", "[", "]"))
        + "\nstartup_timeout_sec = 60\n";
  }

  /** {@code value} as a TOML basic string. */
  private static String tomlString(String value) {
    StringBuilder quoted = new StringBuilder("\"");
    value
        .codePoints()
        .forEach(
            c -> {
              if (c == '"' || c == '\\') {
                quoted.append('\\').appendCodePoint(c);
              } else if (Character.isISOControl(c)) {
                quoted.append("\\u%04X".formatted(c));
              } else {
                quoted.appendCodePoint(c);
              }
            });
    return quoted.append('"').toString();
  }

  /**
   * Whether an entry named {@code turndiff} is turndiff's: a {@code turndiff} launcher, by any path
   * (a checkout that moved leaves such an entry behind), run as {@code turndiff mcp}.
   */
  static boolean isTurndiffs(JsonNode entry) {
    String command = entry.path("command").asText("");
    return (command.equals(NAME) || command.endsWith("/" + NAME))
        && entry.path("args").path(0).asText("").equals("mcp");
  }
}
