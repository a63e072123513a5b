package io.turndiff.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.turndiff.api.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A model API on loopback that answers from a {@link ModelScript}, streaming server-sent events as
 * the real API does, and keeps every request it received (to show what a runtime sent the model: a
 * hook's output in the context, the runtime's version). A real HTTP server on an ephemeral port of
 * 127.0.0.1: the runtimes talk to it as they would to their provider. The dialects (Anthropic
 * Messages, OpenAI Responses, Gemini API) say where the newest prompt is, how many tool calls
 * followed it, and how a step is written as events.
 */
abstract class ScriptedModelServer implements AutoCloseable {

  /** A request as received: its path with the query, its headers (lower case), its body. */
  record Request(String target, Map<String, List<String>> headers, String body) {

    JsonNode json() {
      try {
        return Json.mapper().readTree(body);
      } catch (IOException e) {
        throw new AssertionError("not JSON: " + body, e);
      }
    }

    String header(String name) {
      List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
      return values == null || values.isEmpty() ? "" : values.getFirst();
    }

    /**
     * The text of every content block of the messages of {@code role} in a Messages API request,
     * one block a line: where Claude Code puts a prompt hook's output ({@code system}).
     */
    String messageTexts(String role) {
      StringBuilder texts = new StringBuilder();
      for (JsonNode message : json().path("messages")) {
        if (message.path("role").asText().equals(role)) {
          for (JsonNode block : message.path("content")) {
            texts.append(block.path("text").asText()).append('\n');
          }
        }
      }
      return texts.toString();
    }
  }

  private final ModelScript script;
  private final HttpServer server;
  private final ExecutorService executor = Executors.newFixedThreadPool(4);
  private final List<Request> requests = new CopyOnWriteArrayList<>();

  ScriptedModelServer(ModelScript script) throws IOException {
    this.script = script;
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  /** {@code http://127.0.0.1:PORT}. */
  URI base() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** Every request received so far, in order. */
  List<Request> requests() {
    return List.copyOf(requests);
  }

  /** The requests to the model endpoint whose conversation holds {@code marker}. */
  List<Request> conversationsWith(String marker) {
    return requests.stream()
        .filter(request -> isModelCall(request.target()))
        .filter(request -> request.body().contains(marker))
        .toList();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      Request request =
          new Request(
              exchange.getRequestURI().toString(), lowerCase(exchange.getRequestHeaders()), body);
      requests.add(request);
      if (!"POST".equals(exchange.getRequestMethod()) || !isModelCall(request.target())) {
        answerOther(exchange, request);
        return;
      }
      JsonNode json = request.json();
      Optional<String> marker = newestMarker(json);
      if (marker.isPresent()) {
        awaitLetGo(marker.get(), toolCallsSince(json, marker.get()));
      }
      ModelScript.Step step =
          marker
              .map(newest -> script.step(newest, toolCallsSince(json, newest), json))
              .orElse(ModelScript.UNSCRIPTED);
      exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
      exchange.sendResponseHeaders(200, 0);
      try (OutputStream out = exchange.getResponseBody()) {
        stream(step, json, requests.size(), new Events(out));
      }
    }
  }

  private void awaitLetGo(String marker, int callsSince) throws IOException {
    try {
      script.awaitLetGo(marker, callsSince);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while the script held the answer", e);
    }
  }

  /**
   * The marker of the newest prompt in the conversation: the one the user message nearest the end
   * holds.
   */
  private Optional<String> newestMarker(JsonNode request) {
    List<String> texts = userTexts(request);
    for (int i = texts.size() - 1; i >= 0; i--) {
      for (String marker : script.markers()) {
        if (texts.get(i).contains(marker)) {
          return Optional.of(marker);
        }
      }
    }
    return Optional.empty();
  }

  private static Map<String, List<String>> lowerCase(Map<String, List<String>> headers) {
    Map<String, List<String>> lower = new TreeMap<>();
    headers.forEach((name, values) -> lower.put(name.toLowerCase(Locale.ROOT), values));
    return lower;
  }

  /** Whether the path is the dialect's model call (the Messages or Responses endpoint). */
  abstract boolean isModelCall(String target);

  /** Answers anything else the runtime asks (token counts, model lists): a 404 unless known. */
  abstract void answerOther(HttpExchange exchange, Request request) throws IOException;

  /** The text of each user message of the conversation, in order. */
  abstract List<String> userTexts(JsonNode request);

  /** How many tool calls the conversation holds after the newest user message with the marker. */
  abstract int toolCallsSince(JsonNode request, String marker);

  /** Writes the step as the dialect's stream of events; {@code n} numbers the response. */
  abstract void stream(ModelScript.Step step, JsonNode request, int n, Events events)
      throws IOException;

  /** Server-sent events: {@code event: TYPE}, {@code data: JSON}, a blank line. */
  static final class Events {
    private final OutputStream out;

    Events(OutputStream out) {
      this.out = out;
    }

    void send(String type, Object data) throws IOException {
      String event =
          "event: " + type + "\ndata: " + Json.mapper().writeValueAsString(data) + "\n\n";
      out.write(event.getBytes(StandardCharsets.UTF_8));
      out.flush();
    }

    /** An event with no type, {@code data: JSON} and a blank line: how Google's API streams. */
    void send(Object data) throws IOException {
      String event = "data: " + Json.mapper().writeValueAsString(data) + "\n\n";
      out.write(event.getBytes(StandardCharsets.UTF_8));
      out.flush();
    }
  }
}
