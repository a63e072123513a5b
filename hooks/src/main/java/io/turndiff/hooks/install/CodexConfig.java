package io.turndiff.hooks.install;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Codex's {@code config.toml} as a TOML document, read for what decides whether Codex runs a hook:
 * the {@code [hooks.state."<key>"]} table of each handler ({@code trusted_hash}, {@code enabled})
 * and {@code [features] hooks}. Reading the document, not its text, is what makes a check exact: a
 * trust entry Codex accepts is found however it is written (a table, dotted keys, an inline table,
 * other spacing or quoting), and a file Codex cannot parse is never taken for one without entries.
 */
public final class CodexConfig {

  private static final ObjectMapper TOML = new TomlMapper();

  private final JsonNode root;

  private CodexConfig(JsonNode root) {
    this.root = root;
  }

  /**
   * {@code text} of {@code file} as TOML; a document that is not valid TOML is refused (bad input),
   * naming the file and where: Codex does not start with such a file either.
   */
  public static CodexConfig parse(Path file, String text) {
    if (text.isBlank()) {
      return new CodexConfig(MissingNode.getInstance());
    }
    try {
      return new CodexConfig(TOML.readTree(text));
    } catch (JacksonException e) {
      throw RuntimeSettings.refused(
          file,
          "it is not valid TOML ("
              + e.getOriginalMessage().lines().findFirst().orElse("unreadable")
              + (e.getLocation() == null ? "" : ", line " + e.getLocation().getLineNr())
              + "), and Codex would not start with it");
    }
  }

  private JsonNode state(String key) {
    return root.path("hooks").path("state").path(key);
  }

  /**
   * Whether the handler keyed {@code key} has any entry (a table Codex would read as its state).
   */
  public boolean hasState(String key) {
    return !state(key).isMissingNode();
  }

  /** The {@code trusted_hash} of the handler keyed {@code key}, when it has one (a string). */
  public Optional<String> trustedHash(String key) {
    JsonNode hash = state(key).path("trusted_hash");
    return hash.isTextual() ? Optional.of(hash.asText()) : Optional.empty();
  }

  /** Whether {@code enabled = false} turns the handler keyed {@code key} off. */
  public boolean disabled(String key) {
    JsonNode enabled = state(key).path("enabled");
    return enabled.isBoolean() && !enabled.booleanValue();
  }

  /** Whether {@code [features] hooks = false} turns every hook off. */
  public boolean hooksTurnedOff() {
    JsonNode hooks = root.path("features").path("hooks");
    return hooks.isBoolean() && !hooks.booleanValue();
  }

  /** The table {@code [mcp_servers.<name>]}, when there is one. */
  public Optional<JsonNode> mcpServer(String name) {
    JsonNode server = root.path("mcp_servers").path(name);
    return server.isMissingNode() ? Optional.empty() : Optional.of(server);
  }

  /** Whether {@code [projects."<directory>"] trust_level = "trusted"}. */
  public boolean trustsProject(Path directory) {
    return root.path("projects")
        .path(directory.toString())
        .path("trust_level")
        .asText("")
        .equals("trusted");
  }
}
