package io.turndiff.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A scripted OpenAI Responses API ({@code POST /v1/responses}) for Codex, named by a model provider
 * with {@code wire_api = "responses"} in {@code $CODEX_HOME/config.toml}. Each answer streams
 * {@code response.created}, an {@code response.output_item.added}/{@code .done} pair per item (a
 * {@code message} with the text, then a {@code function_call} with its arguments as a JSON string,
 * or a {@code custom_tool_call} with its text input for a free-form tool such as {@code
 * apply_patch}, or a {@code tool_search_call} for the tool of that type) and {@code
 * response.completed}. The conversation is the request's {@code input}: user messages' {@code
 * input_text} parts hold the prompts, and every call item is a call made.
 */
final class ResponsesApiServer extends ScriptedModelServer {

  private static final Set<String> CALLS =
      Set.of("function_call", "custom_tool_call", "local_shell_call", "tool_search_call");

  /**
   * The name a script calls the request's tool of type {@code tool_search} by. It has no name of
   * its own: Codex 0.171.0 offers its MCP servers' tools only through it (deferred: a {@code
   * tool_search_call} with a query answered by a {@code tool_search_output} that lists the matching
   * tools, in a namespace per server), and a model asks it with a call item of its own type.
   */
  static final String TOOL_SEARCH = "tool_search";

  ResponsesApiServer(ModelScript script) throws IOException {
    super(script);
  }

  @Override
  boolean isModelCall(String target) {
    return target.equals("/v1/responses");
  }

  @Override
  void answerOther(HttpExchange exchange, Request request) throws IOException {
    exchange.sendResponseHeaders(404, -1);
  }

  @Override
  List<String> userTexts(JsonNode request) {
    List<String> texts = new ArrayList<>();
    for (JsonNode item : request.path("input")) {
      if (item.path("role").asText().equals("user")) {
        texts.add(text(item));
      }
    }
    return texts;
  }

  /**
   * How many searches that found nothing the model makes again before it takes the next step: one a
   * second ({@link #SEARCH_AGAIN_AFTER_MILLIS}) for Codex's {@code startup_timeout_sec} that {@code
   * hooks install} gives turndiff's server, after which Codex gives up on a server.
   */
  private static final int SEARCHES_AGAIN = 60;

  private static final long SEARCH_AGAIN_AFTER_MILLIS = 1_000;

  /**
   * The tool calls since the prompt, but for searches that found nothing: the model searches again
   * then, as a model would that Codex tells a moment later "Added deferred tool namespaces". Codex
   * 0.171.0 does not wait for its MCP servers before it asks the model; a server's tools are there
   * once it has started and listed them (a JVM on a loaded machine took longer than five tool
   * calls), and until then a search answers no tool.
   */
  @Override
  int toolCallsSince(JsonNode request, String marker) {
    Set<String> foundNothing = new HashSet<>();
    for (JsonNode item : request.path("input")) {
      if (item.path("type").asText().equals("tool_search_output")
          && item.path("tools").isEmpty()
          && foundNothing.size() < SEARCHES_AGAIN) {
        foundNothing.add(item.path("call_id").asText());
      }
    }
    int calls = 0;
    for (JsonNode item : request.path("input")) {
      if (item.path("role").asText().equals("user") && text(item).contains(marker)) {
        calls = 0;
      } else if (CALLS.contains(item.path("type").asText())
          && !foundNothing.contains(item.path("call_id").asText())) {
        calls++;
      }
    }
    return calls;
  }

  /** Whether the conversation ends with a search that found nothing (the model waits, then). */
  private static boolean searchedInVain(JsonNode request) {
    JsonNode input = request.path("input");
    JsonNode last = input.path(input.size() - 1);
    return last.path("type").asText().equals("tool_search_output") && last.path("tools").isEmpty();
  }

  private static String text(JsonNode item) {
    JsonNode content = item.path("content");
    if (content.isTextual()) {
      return content.asText();
    }
    StringBuilder text = new StringBuilder();
    for (JsonNode part : content) {
      text.append(part.path("text").asText()).append('\n');
    }
    return text.toString();
  }

  @Override
  void stream(ModelScript.Step step, JsonNode request, int n, Events events) throws IOException {
    if (searchedInVain(request)) {
      pause();
    }
    String id = "resp_scripted_" + n;
    events.send(
        "response.created", Map.of("type", "response.created", "response", Map.of("id", id)));
    List<Map<String, Object>> items = new ArrayList<>();
    if (!step.text().isEmpty()) {
      items.add(
          Map.of(
              "type",
              "message",
              "role",
              "assistant",
              "id",
              "msg_scripted_" + n,
              "content",
              List.of(
                  Map.of("type", "output_text", "text", step.text(), "annotations", List.of()))));
    }
    step.call().ifPresent(call -> items.add(callItem(call, n)));
    for (int index = 0; index < items.size(); index++) {
      for (String type : List.of("response.output_item.added", "response.output_item.done")) {
        events.send(type, Map.of("type", type, "output_index", index, "item", items.get(index)));
      }
    }
    Map<String, Object> usage = new LinkedHashMap<>();
    usage.put("input_tokens", 1);
    usage.put("input_tokens_details", null);
    usage.put("output_tokens", 1);
    usage.put("output_tokens_details", null);
    usage.put("total_tokens", 2);
    events.send(
        "response.completed",
        Map.of("type", "response.completed", "response", Map.of("id", id, "usage", usage)));
  }

  private static void pause() throws IOException {
    try {
      Thread.sleep(SEARCH_AGAIN_AFTER_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted before searching again", e);
    }
  }

  private static Map<String, Object> callItem(ModelScript.ToolCall call, int n) {
    if (call.name().equals(TOOL_SEARCH) && call.namespace() == null) {
      return Map.of(
          "type",
          "tool_search_call",
          "id",
          "ts_scripted_" + n,
          "call_id",
          "call_scripted_" + n,
          "status",
          "completed",
          "execution",
          "client",
          "arguments",
          call.input());
    }
    if (call.isFreeform()) {
      return Map.of(
          "type",
          "custom_tool_call",
          "id",
          "ctc_scripted_" + n,
          "call_id",
          "call_scripted_" + n,
          "name",
          call.name(),
          "input",
          call.freeform());
    }
    Map<String, Object> item = new LinkedHashMap<>();
    item.put("type", "function_call");
    item.put("id", "fc_scripted_" + n);
    item.put("call_id", "call_scripted_" + n);
    if (call.namespace() != null) {
      item.put("namespace", call.namespace());
    }
    item.put("name", call.name());
    item.put("arguments", call.input().toString());
    return item;
  }
}
