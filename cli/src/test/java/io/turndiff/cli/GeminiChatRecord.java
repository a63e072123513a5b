package io.turndiff.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Gemini CLI's record of a session's chat (0.61.0: {@code ~/.gemini/tmp/<project>/chats/session-
 * *.jsonl}, one JSON record a line): each tool call as {@code {"name", "status", "result"}}, where
 * {@code result} holds the function response Gemini sent back to the model.
 */
final class GeminiChatRecord {

  private GeminiChatRecord() {}

  /**
   * Every tool call's result text, by tool name, from every session record under {@code tmp} (the
   * last call of a name wins): the string values under its {@code result}, joined.
   */
  static Map<String, String> toolResults(Path tmp) throws IOException {
    Map<String, String> results = new LinkedHashMap<>();
    if (!Files.isDirectory(tmp)) {
      return results;
    }
    try (Stream<Path> walk = Files.walk(tmp)) {
      for (Path file :
          walk.filter(path -> path.getFileName().toString().startsWith("session-"))
              .sorted()
              .toList()) {
        for (String line : Files.readAllLines(file)) {
          collect(parsed(line), results);
        }
      }
    }
    return results;
  }

  private static JsonNode parsed(String line) {
    try {
      return Json.mapper().readTree(line);
    } catch (JsonProcessingException e) {
      return Json.mapper().missingNode();
    }
  }

  private static void collect(JsonNode node, Map<String, String> results) {
    if (node.isObject() && node.has("name") && node.has("result")) {
      StringBuilder text = new StringBuilder();
      strings(node.get("result"), text);
      results.put(node.get("name").asText(), text.toString());
    }
    for (JsonNode child : node) {
      collect(child, results);
    }
  }

  private static void strings(JsonNode node, StringBuilder text) {
    if (node.isTextual()) {
      text.append(node.asText()).append('\n');
    }
    for (JsonNode child : node) {
      strings(child, text);
    }
  }
}
