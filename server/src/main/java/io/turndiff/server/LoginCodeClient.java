package io.turndiff.server;

import io.turndiff.api.Json;
import io.turndiff.api.wire.WireLoginCode;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The client side of {@code POST /v1/login-codes}, for {@code turndiff open}: asks the service on a
 * loopback port for a one-time login code with the bearer token.
 */
public final class LoginCodeClient {

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** The answer: {@code 201} with the code, another status with its body, or 0: nothing listens. */
  public record Reply(int status, String body) {

    public static final Reply NO_SERVICE = new Reply(0, "");

    public WireLoginCode code() {
      if (status != 201) {
        throw new IllegalStateException("no code: " + status + " " + body);
      }
      try {
        return Json.mapper().readValue(body, WireLoginCode.class);
      } catch (IOException e) {
        throw new IllegalStateException("the service answered a code request with " + body, e);
      }
    }
  }

  private LoginCodeClient() {}

  public static Reply request(int port, String token, Optional<String> workspace)
      throws IOException, InterruptedException {
    Map<String, String> body = new LinkedHashMap<>();
    workspace.ifPresent(dir -> body.put("workspace", dir));
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/login-codes"))
            .timeout(Duration.ofSeconds(30))
            .header("Authorization", "Bearer " + token)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(Json.write(body, false)))
            .build();
    try {
      HttpResponse<String> response =
          HTTP.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      return new Reply(response.statusCode(), response.body());
    } catch (ConnectException nothingListens) {
      return Reply.NO_SERVICE;
    }
  }
}
