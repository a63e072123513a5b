package io.turndiff.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A scripted Anthropic Messages API ({@code POST /v1/messages}) for Claude Code, pointed at with
 * {@code ANTHROPIC_BASE_URL}. Each answer streams {@code message_start}, a {@code
 * content_block_start}/{@code _delta}/{@code _stop} for the text and one for the {@code tool_use}
 * (its input as one {@code input_json_delta}), {@code message_delta} with the stop reason ({@code
 * tool_use} or {@code end_turn}) and {@code message_stop}. The conversation is the request's {@code
 * messages}: user messages' {@code text} blocks hold the prompts, assistant messages' {@code
 * tool_use} blocks are the calls made.
 */
final class AnthropicMessagesServer extends ScriptedModelServer {

  AnthropicMessagesServer(ModelScript script) throws IOException {
    super(script);
  }

  @Override
  boolean isModelCall(String target) {
    return target.equals("/v1/messages") || target.startsWith("/v1/messages?");
  }

  @Override
  void answerOther(HttpExchange exchange, Request request) throws IOException {
    byte[] body =
        request.target().startsWith("/v1/messages/count_tokens")
            ? "{\"input_tokens\":1}".getBytes(StandardCharsets.UTF_8)
            : "{}".getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(
        request.target().startsWith("/v1/messages/count_tokens") ? 200 : 404, body.length);
    exchange.getResponseBody().write(body);
  }

  @Override
  List<String> userTexts(JsonNode request) {
    List<String> texts = new ArrayList<>();
    for (JsonNode message : request.path("messages")) {
      if (message.path("role").asText().equals("user")) {
        texts.add(text(message));
      }
    }
    return texts;
  }

  @Override
  int toolCallsSince(JsonNode request, String marker) {
    int calls = 0;
    for (JsonNode message : request.path("messages")) {
      String role = message.path("role").asText();
      if (role.equals("user") && text(message).contains(marker)) {
        calls = 0;
      } else if (role.equals("assistant")) {
        for (JsonNode block : message.path("content")) {
          if (block.path("type").asText().equals("tool_use")) {
            calls++;
          }
        }
      }
    }
    return calls;
  }

  private static String text(JsonNode message) {
    JsonNode content = message.path("content");
    if (content.isTextual()) {
      return content.asText();
    }
    StringBuilder text = new StringBuilder();
    for (JsonNode block : content) {
      if (block.path("type").asText().equals("text")) {
        text.append(block.path("text").asText()).append('\n');
      }
    }
    return text.toString();
  }

  @Override
  void stream(ModelScript.Step step, JsonNode request, int n, Events events) throws IOException {
    Map<String, Object> usage = Map.of("input_tokens", 1, "output_tokens", 1);
    Map<String, Object> message = new LinkedHashMap<>();
    message.put("id", "msg_scripted_" + n);
    message.put("type", "message");
    message.put("role", "assistant");
    message.put("model", request.path("model").asText("claude-scripted"));
    message.put("content", List.of());
    message.put("stop_reason", null);
    message.put("stop_sequence", null);
    message.put("usage", usage);
    events.send("message_start", Map.of("type", "message_start", "message", message));
    int index = 0;
    if (!step.text().isEmpty()) {
      block(events, index++, Map.of("type", "text", "text", ""), "text_delta", "text", step.text());
    }
    if (step.call().isPresent()) {
      ModelScript.ToolCall call = step.call().get();
      block(
          events,
          index,
          Map.of(
              "type",
              "tool_use",
              "id",
              "toolu_scripted_" + n,
              "name",
              call.name(),
              "input",
              Map.of()),
          "input_json_delta",
          "partial_json",
          call.input().toString());
    }
    Map<String, Object> delta = new LinkedHashMap<>();
    delta.put("stop_reason", step.call().isPresent() ? "tool_use" : "end_turn");
    delta.put("stop_sequence", null);
    events.send(
        "message_delta",
        Map.of("type", "message_delta", "delta", delta, "usage", Map.of("output_tokens", 1)));
    events.send("message_stop", Map.of("type", "message_stop"));
  }

  /** One content block: its start, one delta holding all of it, its stop. */
  private static void block(
      Events events,
      int index,
      Map<String, Object> start,
      String deltaType,
      String deltaField,
      String value)
      throws IOException {
    events.send(
        "content_block_start",
        Map.of("type", "content_block_start", "index", index, "content_block", start));
    events.send(
        "content_block_delta",
        Map.of(
            "type",
            "content_block_delta",
            "index",
            index,
            "delta",
            Map.of("type", deltaType, deltaField, value)));
    events.send("content_block_stop", Map.of("type", "content_block_stop", "index", index));
  }
}
