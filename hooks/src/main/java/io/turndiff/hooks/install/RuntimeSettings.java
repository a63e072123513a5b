package io.turndiff.hooks.install;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.turndiff.model.RequestException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A runtime's JSON settings file as a tree: read strictly (a file that is not one JSON object is
 * refused, never overwritten; a key given twice is refused rather than half dropped), turndiff's
 * hook groups merged in or taken out, and written back with two-space indentation, every key in its
 * order, numbers as written, and the file's final newline as it was.
 */
public final class RuntimeSettings {

  private static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
          .build();

  private static final ObjectWriter WRITER;

  static {
    DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
    Separators separators =
        Separators.createDefaultInstance()
            .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
            .withObjectEmptySeparator("")
            .withArrayEmptySeparator("");
    WRITER =
        MAPPER.writer(
            new DefaultPrettyPrinter(separators)
                .withObjectIndenter(indenter)
                .withArrayIndenter(indenter));
  }

  private final ObjectNode root;
  private final boolean finalNewline;

  private RuntimeSettings(ObjectNode root, boolean finalNewline) {
    this.root = root;
    this.finalNewline = finalNewline;
  }

  /** A file that does not exist yet: an empty object, written with a final newline. */
  public static RuntimeSettings empty() {
    return new RuntimeSettings(JsonNodeFactory.instance.objectNode(), true);
  }

  /**
   * {@code bytes} of {@code file} as settings; a file that is not UTF-8 or not one JSON object is a
   * {@link RequestException} (bad input) naming the file and what is wrong. Only white space (an
   * emptied file) reads as an empty object.
   */
  public static RuntimeSettings parse(Path file, byte[] bytes) {
    String text = utf8(file, bytes);
    boolean finalNewline = text.endsWith("\n");
    if (text.isBlank()) {
      return new RuntimeSettings(
          JsonNodeFactory.instance.objectNode(), finalNewline || text.isEmpty());
    }
    JsonNode tree;
    try {
      tree = MAPPER.readTree(text);
    } catch (JacksonException e) {
      throw refused(
          file,
          "it is not valid JSON ("
              + e.getOriginalMessage()
              + (e.getLocation() == null
                  ? ""
                  : ", line "
                      + e.getLocation().getLineNr()
                      + " column "
                      + e.getLocation().getColumnNr())
              + "); comments are not accepted either: turndiff would drop them");
    }
    if (!(tree instanceof ObjectNode object)) {
      throw refused(file, "it is not a JSON object");
    }
    return new RuntimeSettings(object, finalNewline);
  }

  /** {@code bytes} of {@code file} as text; a file that is not UTF-8 is refused (bad input). */
  public static String utf8(Path file, byte[] bytes) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw refused(file, "it is not UTF-8 text");
    }
  }

  /** Bad input: {@code file} cannot take turndiff's hooks, and nothing was written. */
  public static RequestException refused(Path file, String why) {
    return new RequestException(
        RequestException.Problem.BAD_INPUT,
        "cannot install into " + file + ": " + why + "; nothing was written");
  }

  /** Gemini's {@code hooksConfig.enabled: false}: Gemini then runs no hook at all. */
  public boolean hooksDisabled() {
    JsonNode enabled = root.path("hooksConfig").path("enabled");
    return enabled.isBoolean() && !enabled.booleanValue();
  }

  public RuntimeSettings copy() {
    return new RuntimeSettings(root.deepCopy(), finalNewline);
  }

  public boolean sameTree(RuntimeSettings other) {
    return root.equals(other.root);
  }

  public String text() {
    try {
      return WRITER.writeValueAsString(root) + (finalNewline ? "\n" : "");
    } catch (JacksonException e) {
      throw new IllegalStateException("cannot write a JSON tree", e);
    }
  }

  public byte[] bytes() {
    return text().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * What {@link #merge} did: the index of turndiff's group in each event's array, the events whose
   * array it created, and whether it created {@code hooks}.
   */
  public record Merged(
      Map<String, Integer> groupIndexes, List<String> createdEvents, boolean createdHooks) {}

  /**
   * Adds {@code runtime}'s group running {@code command} to each of its events' arrays, at the end;
   * a group of turndiff's already there (a handler whose command is turndiff's for {@code runtime})
   * is replaced in place when it differs, so merging twice is merging once. Every other key, group
   * and handler stays where it is.
   */
  public Merged merge(Path file, HookRuntime runtime, String command) {
    Map<String, ObjectNode> groups = new LinkedHashMap<>();
    for (HookRuntime.Event event : runtime.events()) {
      groups.put(event.name(), runtime.group(event, command));
    }
    boolean createdHooks = false;
    JsonNode hooksNode = root.get("hooks");
    if (hooksNode == null) {
      hooksNode = root.putObject("hooks");
      createdHooks = true;
    }
    if (!(hooksNode instanceof ObjectNode hooks)) {
      throw refused(file, "its \"hooks\" is not an object");
    }
    Map<String, Integer> indexes = new LinkedHashMap<>();
    List<String> createdEvents = new ArrayList<>();
    for (Map.Entry<String, ObjectNode> entry : groups.entrySet()) {
      String event = entry.getKey();
      JsonNode eventNode = hooks.get(event);
      if (eventNode == null) {
        eventNode = hooks.putArray(event);
        createdEvents.add(event);
      }
      if (!(eventNode instanceof ArrayNode groupsOfEvent)) {
        throw refused(file, "its \"hooks\"." + event + " is not an array");
      }
      int index = indexOfOurs(groupsOfEvent, runtime);
      if (index < 0) {
        groupsOfEvent.add(entry.getValue());
        index = groupsOfEvent.size() - 1;
      } else if (!groupsOfEvent.get(index).equals(entry.getValue())) {
        groupsOfEvent.set(index, entry.getValue());
      }
      indexes.put(event, index);
    }
    return new Merged(indexes, createdEvents, createdHooks);
  }

  /** The index of the first group holding a handler of turndiff's, or -1. */
  private static int indexOfOurs(ArrayNode groups, HookRuntime runtime) {
    for (int index = 0; index < groups.size(); index++) {
      for (JsonNode handler : groups.get(index).path("hooks")) {
        if (runtime.isTurndiffCommand(handler.path("command").asText(""))) {
          return index;
        }
      }
    }
    return -1;
  }

  /**
   * Takes turndiff's handlers for {@code runtime} out, then each group they leave empty, then each
   * event array they left empty that install created ({@code createdEvents}; every one when {@code
   * createdEvents} is null: nothing recorded), then {@code hooks} when install created it and it is
   * left empty. Returns how many handlers it took out.
   */
  public int remove(HookRuntime runtime, Set<String> createdEvents, boolean createdHooks) {
    if (!(root.get("hooks") instanceof ObjectNode hooks)) {
      return 0;
    }
    int removed = 0;
    List<String> emptied = new ArrayList<>();
    for (Map.Entry<String, JsonNode> event : hooks.properties()) {
      if (!(event.getValue() instanceof ArrayNode groups)) {
        continue;
      }
      int before = groups.size();
      for (int index = groups.size() - 1; index >= 0; index--) {
        if (!(groups.get(index).get("hooks") instanceof ArrayNode handlers)) {
          continue;
        }
        int handlersBefore = handlers.size();
        for (int handler = handlers.size() - 1; handler >= 0; handler--) {
          if (runtime.isTurndiffCommand(handlers.get(handler).path("command").asText(""))) {
            handlers.remove(handler);
            removed++;
          }
        }
        if (handlers.isEmpty() && handlersBefore > 0) {
          groups.remove(index);
        }
      }
      if (groups.isEmpty()
          && before > 0
          && (createdEvents == null || createdEvents.contains(event.getKey()))) {
        emptied.add(event.getKey());
      }
    }
    hooks.remove(emptied);
    if (createdHooks && hooks.isEmpty()) {
      root.remove("hooks");
    }
    return removed;
  }

  /**
   * Puts {@code server} in as {@code mcpServers.turndiff}, replacing an earlier entry of turndiff's
   * in place; an entry of that name that is not turndiff's is refused, never replaced. Returns the
   * top-level keys it created, which uninstall takes out again when they are left empty.
   */
  public List<String> mergeMcpServer(Path file, McpServer server) {
    List<String> created = new ArrayList<>();
    ObjectNode servers = topLevel(file, McpServer.SERVERS, ObjectNode.class, created);
    JsonNode present = servers.get(McpServer.NAME);
    if (present != null && !McpServer.isTurndiffs(present)) {
      throw refused(
          file,
          "it already has an MCP server named \""
              + McpServer.NAME
              + "\" that is not turndiff's (rename it, or install with --no-mcp)");
    }
    if (present == null || !present.equals(server.entry())) {
      servers.set(McpServer.NAME, server.entry());
    }
    return created;
  }

  /**
   * Adds {@code "turndiff"} to {@code enabledMcpjsonServers}: Claude Code's approval of the
   * workspace's {@code .mcp.json} server, without which it does not start it. Returns the keys it
   * created.
   */
  public List<String> approveMcpServer(Path file) {
    List<String> created = new ArrayList<>();
    ArrayNode approved = topLevel(file, McpServer.APPROVED, ArrayNode.class, created);
    if (approved.valueStream().noneMatch(name -> name.asText("").equals(McpServer.NAME))) {
      approved.add(McpServer.NAME);
    }
    return created;
  }

  /**
   * The top-level {@code key}, an object or an array as {@code type} says; created (and added to
   * {@code created}) when missing, refused when it is something else.
   */
  private <T extends JsonNode> T topLevel(
      Path file, String key, Class<T> type, List<String> created) {
    JsonNode node = root.get(key);
    if (node == null) {
      node = type == ArrayNode.class ? root.putArray(key) : root.putObject(key);
      created.add(key);
    }
    if (!type.isInstance(node)) {
      throw refused(
          file,
          "its \"" + key + "\" is not " + (type == ArrayNode.class ? "an array" : "an object"));
    }
    return type.cast(node);
  }

  /**
   * Takes turndiff's MCP server out ({@code mcpServers.turndiff} when it is turndiff's, and {@code
   * "turndiff"} from {@code enabledMcpjsonServers}), then each of {@code createdKeys} left empty
   * (every one when null: nothing recorded). Returns whether it took anything out.
   */
  public boolean removeMcpServer(Set<String> createdKeys) {
    boolean removed = false;
    if (root.get(McpServer.SERVERS) instanceof ObjectNode servers
        && McpServer.isTurndiffs(servers.path(McpServer.NAME))) {
      servers.remove(McpServer.NAME);
      removed = true;
    }
    if (root.get(McpServer.APPROVED) instanceof ArrayNode approved) {
      for (int index = approved.size() - 1; index >= 0; index--) {
        if (approved.get(index).asText("").equals(McpServer.NAME)) {
          approved.remove(index);
          removed = true;
        }
      }
    }
    for (String key : List.of(McpServer.SERVERS, McpServer.APPROVED)) {
      if ((createdKeys == null || createdKeys.contains(key))
          && root.get(key) != null
          && root.get(key).isEmpty()
          && root.get(key).isContainerNode()) {
        root.remove(key);
      }
    }
    return removed;
  }

  /** Whether {@code enabledMcpjsonServers} approves turndiff's server. */
  public boolean approvesMcpServer() {
    return root.path(McpServer.APPROVED)
        .valueStream()
        .anyMatch(name -> name.asText("").equals(McpServer.NAME));
  }

  /** Turndiff's MCP server entry, when the file has one. */
  public Optional<JsonNode> mcpServer() {
    JsonNode entry = root.path(McpServer.SERVERS).path(McpServer.NAME);
    return McpServer.isTurndiffs(entry) ? Optional.of(entry) : Optional.empty();
  }

  /** The commands of turndiff's handlers for {@code runtime}, per event, in file order. */
  public Map<String, List<String>> commands(HookRuntime runtime) {
    Map<String, List<String>> found = new LinkedHashMap<>();
    if (!(root.get("hooks") instanceof ObjectNode hooks)) {
      return found;
    }
    for (Map.Entry<String, JsonNode> event : hooks.properties()) {
      for (JsonNode group : event.getValue()) {
        for (JsonNode handler : group.path("hooks")) {
          String command = handler.path("command").asText("");
          if (runtime.isTurndiffCommand(command)) {
            found.computeIfAbsent(event.getKey(), _ -> new ArrayList<>()).add(command);
          }
        }
      }
    }
    return found;
  }
}
