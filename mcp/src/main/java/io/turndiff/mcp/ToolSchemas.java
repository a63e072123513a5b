package io.turndiff.mcp;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The four tools as the agent sees them: name, description and the JSON schema of the arguments
 * ({@code additionalProperties: false}: {@link ToolArguments} refuses any other name). The read
 * tools say they are read-only; {@code rewind} says it writes, so a runtime that asks before such a
 * tool asks its human.
 */
final class ToolSchemas {

  private static final Map<String, Object> TURN =
      Map.of(
          "type",
          "string",
          "description",
          "The turn's id, as list_turns gives it (a turn of this session only).");

  private static final Map<String, Object> PATHS =
      Map.of(
          "type",
          "array",
          "items",
          Map.of("type", "string"),
          "minItems",
          1,
          "description",
          "Only these paths of the turn (relative to the workspace); a directory stands for what"
              + " the turn changed under it. Leave it out for every path.");

  private ToolSchemas() {}

  static McpSchema.Tool listTurns() {
    return tool(
        TurnTools.LIST_TURNS,
        "List this session's turns, oldest first: each turn's id, number, state, prompt title and"
            + " how many files it changed.",
        properties(
            "after",
            Map.of(
                "type", "integer", "minimum", 0, "description", "Turns numbered after this one."),
            "limit",
            Map.of(
                "type",
                "integer",
                "minimum",
                1,
                "maximum",
                500,
                "description",
                "At most this many (50).")),
        List.of(),
        true);
  }

  static McpSchema.Tool showTurn() {
    return tool(
        TurnTools.SHOW_TURN,
        "Show one turn of this session: each file it changed, how, and by which tool calls.",
        properties("turn", TURN),
        List.of("turn"),
        true);
  }

  static McpSchema.Tool diff() {
    return tool(
        TurnTools.DIFF,
        "A turn of this session as a git-style patch (what it changed in each file).",
        properties("turn", TURN, "paths", PATHS),
        List.of("turn"),
        true);
  }

  static McpSchema.Tool rewind() {
    return tool(
        TurnTools.REWIND,
        "Put a turn's files back as they were before it. Call it first without a token: it writes"
            + " nothing and answers the plan (what it would restore, and what it would leave because"
            + " it changed since) with a token. Call it again with the same arguments and that"
            + " token to apply the plan: it applies only while the files are still as planned. It"
            + " never overwrites a file changed since the turn, reaches only this session's turns,"
            + " and is itself a turn that rewinding undoes.",
        properties(
            "turn",
            TURN,
            "to",
            Map.of(
                "type",
                "boolean",
                "description",
                "Also every later turn of the session (none may be open)."),
            "paths",
            PATHS,
            "token",
            Map.of(
                "type",
                "string",
                "description",
                "The token of the plan this call applies, from the call without one.")),
        List.of("turn"),
        false);
  }

  private static Map<String, Object> properties(Object... namesAndSchemas) {
    Map<String, Object> properties = new LinkedHashMap<>();
    for (int i = 0; i < namesAndSchemas.length; i += 2) {
      properties.put((String) namesAndSchemas[i], namesAndSchemas[i + 1]);
    }
    return properties;
  }

  private static McpSchema.Tool tool(
      String name,
      String description,
      Map<String, Object> properties,
      List<String> required,
      boolean readOnly) {
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("properties", properties);
    schema.put("required", required);
    schema.put("additionalProperties", false);
    return McpSchema.Tool.builder()
        .name(name)
        .description(description)
        .inputSchema(schema)
        .annotations(new McpSchema.ToolAnnotations(null, readOnly, !readOnly, false, false, null))
        .build();
  }
}
