package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.turndiff.api.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code turndiff serve} process on a real store, and the runtime's side of it: turns begun,
 * snapshotted and finished through the bearer-token API, as an agent runtime makes them, for the
 * panel in the browser to show.
 */
final class PanelService implements AutoCloseable {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private final ServeProcessIT.Service service;

  private PanelService(ServeProcessIT.Service service) {
    this.service = service;
  }

  /** {@code turndiff serve --port 0 OPTIONS…} on a store in {@code dir}. */
  static PanelService start(Path dir, String... options) throws Exception {
    return new PanelService(ServeProcessIT.Service.start(dir, Map.of(), options));
  }

  /** {@code http://127.0.0.1:PORT}. */
  String url() {
    return service.url();
  }

  int port() {
    return service.port();
  }

  Path database() {
    return service.database();
  }

  /** Begins a turn of {@code session} in {@code workspace}; returns the turn id. */
  String begin(Path workspace, String session) throws Exception {
    ObjectNode body = Json.object().put("workspace", workspace.toString()).put("session", session);
    return call("POST", "/v1/turns", body, 201).get("turn").asText();
  }

  /** Records the before-state of {@code paths} in one snapshot call. */
  JsonNode snapshot(String turn, List<String> paths) throws Exception {
    ObjectNode body = Json.object();
    paths.forEach(body.putArray("paths")::add);
    return call("POST", "/v1/turns/" + turn + "/snapshots", body, 200);
  }

  /**
   * Records the before-state of {@code paths} in one snapshot call of the tool call {@code call}.
   */
  JsonNode snapshot(String turn, String call, List<String> paths) throws Exception {
    ObjectNode body = Json.object().put("tool_call", call);
    paths.forEach(body.putArray("paths")::add);
    return call("POST", "/v1/turns/" + turn + "/snapshots", body, 200);
  }

  JsonNode finish(String turn) throws Exception {
    return call("POST", "/v1/turns/" + turn + "/finish", null, 200);
  }

  JsonNode turn(String turn) throws Exception {
    return call("GET", "/v1/turns/" + turn, null, 200);
  }

  /**
   * A one-time login URL that opens the panel on {@code workspace}, as {@code open} asks for it.
   */
  String loginUrl(Path workspace) throws Exception {
    ObjectNode body = Json.object().put("workspace", workspace.toString());
    return call("POST", "/v1/login-codes", body, 201).get("url").asText();
  }

  /** Calls the API with the bearer token and expects {@code status}. */
  JsonNode call(String method, String path, JsonNode body, int status) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(service.url() + path))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(Json.write(body, false)))
            .header("Authorization", "Bearer " + service.token())
            .header("Content-Type", "application/json")
            .timeout(Duration.ofSeconds(120))
            .build();
    HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    assertEquals(
        status,
        response.statusCode(),
        method
            + " "
            + path
            + ": "
            + response.body()
            + "\nservice log:\n"
            + Files.readString(service.errorLog()));
    return response.body().isEmpty() ? Json.object() : Json.mapper().readTree(response.body());
  }

  /** What the service wrote on stderr: for a failure's message. */
  String log() throws Exception {
    return Files.readString(service.errorLog());
  }

  @Override
  public void close() throws Exception {
    service.process().destroy();
    service.process().waitFor(60, TimeUnit.SECONDS);
  }
}
