package io.turndiff.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.turndiff.api.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * An MCP client written out by hand over two pipes to a {@link TurndiffMcpServer} running on a
 * thread of the test: every line the server writes is kept, so a test can check that each is a
 * JSON-RPC message (standard output is the protocol and nothing else).
 */
final class McpClientOverPipes implements AutoCloseable {

  private static final Duration ANSWER_WITHIN = Duration.ofSeconds(30);

  private final OutputStream toServer;
  private final BufferedReader fromServer;
  private final ExecutorService threads = Executors.newFixedThreadPool(2);
  private final CompletableFuture<Void> served;
  private final List<String> lines = new ArrayList<>();
  private int nextId = 1;

  McpClientOverPipes(TurndiffMcpServer server) throws IOException {
    Pipe requests = Pipe.open();
    Pipe answers = Pipe.open();
    this.toServer = Channels.newOutputStream(requests.sink());
    this.fromServer =
        new BufferedReader(
            new InputStreamReader(
                Channels.newInputStream(answers.source()), StandardCharsets.UTF_8));
    OutputStream serverOut = Channels.newOutputStream(answers.sink());
    this.served =
        CompletableFuture.runAsync(
            () -> {
              try (serverOut) {
                server.serve(Channels.newInputStream(requests.source()), serverOut, "test");
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            threads);
    JsonNode initialized =
        request(
            "initialize",
            Json.object()
                .put("protocolVersion", "2025-06-18")
                .<ObjectNode>set("capabilities", Json.object())
                .set("clientInfo", Json.object().put("name", "test").put("version", "1")));
    assertEquals(
        "turndiff", initialized.path("serverInfo").path("name").asText(), initialized.toString());
    send(Json.object().put("jsonrpc", "2.0").put("method", "notifications/initialized"));
  }

  /** The names of the tools the server lists. */
  List<String> toolNames() {
    List<String> names = new ArrayList<>();
    request("tools/list", Json.object())
        .path("tools")
        .forEach(tool -> names.add(tool.path("name").asText()));
    return names;
  }

  /** A tool call's answer: its text, and whether it is an error. */
  record Answer(String text, boolean error) {
    JsonNode json() {
      return Json.read(text, JsonNode.class)
          .orElseThrow(() -> new AssertionError("not JSON: " + text));
    }
  }

  Answer call(String tool, ObjectNode arguments) {
    JsonNode result =
        request("tools/call", Json.object().put("name", tool).set("arguments", arguments));
    JsonNode content = result.path("content");
    assertEquals(1, content.size(), result.toString());
    return new Answer(
        content.get(0).path("text").asText(), result.path("isError").asBoolean(false));
  }

  /** A call the server refuses: its text, which must name the problem. */
  String refused(String tool, ObjectNode arguments) {
    Answer answer = call(tool, arguments);
    assertTrue(answer.error(), answer.text());
    assertFalse(answer.text().contains("\tat "), "no stack trace: " + answer.text());
    return answer.text();
  }

  Answer answered(String tool, ObjectNode arguments) {
    Answer answer = call(tool, arguments);
    assertFalse(answer.error(), answer.text());
    return answer;
  }

  /** Every line the server wrote so far. */
  List<String> lines() {
    return List.copyOf(lines);
  }

  private JsonNode request(String method, ObjectNode params) {
    int id = nextId++;
    send(
        Json.object()
            .put("jsonrpc", "2.0")
            .put("id", id)
            .put("method", method)
            .set("params", params));
    while (true) {
      JsonNode message = readMessage();
      if (message.path("id").asInt(-1) == id) {
        assertTrue(message.path("error").isMissingNode(), message.toString());
        JsonNode result = message.path("result");
        assertNotNull(result);
        return result;
      }
    }
  }

  private JsonNode readMessage() {
    CompletableFuture<String> line =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return fromServer.readLine();
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            },
            threads);
    String text = line.orTimeout(ANSWER_WITHIN.toSeconds(), TimeUnit.SECONDS).join();
    if (text == null) {
      throw new AssertionError("the server's output ended; lines so far: " + lines);
    }
    lines.add(text);
    JsonNode message =
        Json.read(text, JsonNode.class).orElseThrow(() -> new AssertionError("not JSON: " + text));
    assertEquals("2.0", message.path("jsonrpc").asText(), "a JSON-RPC message: " + text);
    return message;
  }

  private void send(ObjectNode message) {
    try {
      toServer.write((Json.write(message, false) + "\n").getBytes(StandardCharsets.UTF_8));
      toServer.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Ends the input, as a runtime does when it quits, and waits for the server to return. */
  @Override
  public void close() throws IOException {
    toServer.close();
    try {
      served.orTimeout(ANSWER_WITHIN.toSeconds(), TimeUnit.SECONDS).join();
    } finally {
      threads.shutdownNow();
    }
  }
}
