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
 * A scripted Gemini API ({@code POST /v1beta/models/MODEL:streamGenerateContent?alt=sse}) for the
 * Gemini CLI, pointed at with {@code GOOGLE_GEMINI_BASE_URL} and the API-key auth chosen in the
 * user's settings ({@link GeminiCli#configure}). Each answer streams one event, {@code data:} a
 * {@code GenerateContentResponse} whose one candidate holds the text and a {@code functionCall}
 * (its {@code args} as JSON), finished with {@code STOP}. The conversation is the request's {@code
 * contents}: {@code user} contents' text parts hold the prompts (the first after the CLI's session
 * context), {@code model} contents' {@code functionCall} parts are the calls made.
 *
 * <p>Unlike the CLI's own {@code --fake-responses} file, which it reads whole before its first
 * prompt, an answer here is given when asked: a test can hold it mid-prompt ({@link
 * ModelScript#hold}).
 */
final class GeminiApiServer extends ScriptedModelServer {

  GeminiApiServer(ModelScript script) throws IOException {
    super(script);
  }

  @Override
  boolean isModelCall(String target) {
    return target.startsWith("/v1beta/models/") && target.contains(":streamGenerateContent");
  }

  /** {@code countTokens} answers one token; anything else is not found. */
  @Override
  void answerOther(HttpExchange exchange, Request request) throws IOException {
    boolean count = request.target().contains(":countTokens");
    byte[] body = (count ? "{\"totalTokens\":1}" : "{}").getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(count ? 200 : 404, body.length);
    exchange.getResponseBody().write(body);
  }

  @Override
  List<String> userTexts(JsonNode request) {
    List<String> texts = new ArrayList<>();
    for (JsonNode content : request.path("contents")) {
      if (content.path("role").asText().equals("user")) {
        texts.add(text(content));
      }
    }
    return texts;
  }

  @Override
  int toolCallsSince(JsonNode request, String marker) {
    int calls = 0;
    for (JsonNode content : request.path("contents")) {
      String role = content.path("role").asText();
      if (role.equals("user") && text(content).contains(marker)) {
        calls = 0;
      } else if (role.equals("model")) {
        for (JsonNode part : content.path("parts")) {
          if (part.has("functionCall")) {
            calls++;
          }
        }
      }
    }
    return calls;
  }

  private static String text(JsonNode content) {
    StringBuilder text = new StringBuilder();
    for (JsonNode part : content.path("parts")) {
      text.append(part.path("text").asText()).append('\n');
    }
    return text.toString();
  }

  @Override
  void stream(ModelScript.Step step, JsonNode request, int n, Events events) throws IOException {
    List<Map<String, Object>> parts = new ArrayList<>();
    if (!step.text().isEmpty()) {
      parts.add(Map.of("text", step.text()));
    }
    step.call().ifPresent(call -> parts.add(functionCall(call)));
    Map<String, Object> candidate = new LinkedHashMap<>();
    candidate.put("content", Map.of("role", "model", "parts", parts));
    candidate.put("finishReason", "STOP");
    candidate.put("index", 0);
    events.send(
        Map.of(
            "candidates",
            List.of(candidate),
            "responseId",
            "scripted-" + n,
            "usageMetadata",
            Map.of("promptTokenCount", 1, "candidatesTokenCount", 1, "totalTokenCount", 2)));
  }

  private static Map<String, Object> functionCall(ModelScript.ToolCall call) {
    if (call.isFreeform() || call.namespace() != null) {
      throw new IllegalArgumentException("the Gemini API calls functions by name: " + call);
    }
    return Map.of("functionCall", Map.of("name", call.name(), "args", call.input()));
  }
}
