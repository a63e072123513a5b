package io.turndiff.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.HealthProof;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The identity challenge of the per-user daemon on a real loopback port: the proof is the
 * documented HMAC (the test vector of docs/runtime-hooks.md), it is the only request answered
 * without the token, and a service that is not a daemon answers no challenge.
 */
class HealthChallengeTest {

  private static final String TOKEN = "test-token-0123456789abcdef";
  private static final String INSTANCE = "00112233445566778899aabbccddeeff";
  private static final String NONCE = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir Path temp;

  private Turndiff turndiff;
  private HttpService service;

  @BeforeEach
  void setUp() throws Exception {
    turndiff = Turndiff.builder(TestStore.fileIn(temp)).open();
  }

  @AfterEach
  void tearDown() {
    if (service != null) {
      service.stop();
    }
    turndiff.close();
  }

  private void start(ServiceOptions.Builder builder) throws Exception {
    service =
        HttpService.start(turndiff, builder.port(0).shutdownGrace(Duration.ofSeconds(1)).build());
  }

  private HttpResponse<String> get(String path, String... headers) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(service.url() + path));
    if (headers.length > 0) {
      request.headers(headers);
    }
    return HTTP.send(request.GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void theProofIsTheDocumentedHmac() {
    assertEquals(
        "1f97f8f7be8a3bff20c9850e9bed00a1b72b79df2bf5387f5adee300d8da5f57",
        HealthProof.of(TOKEN, INSTANCE, 41234, NONCE));
  }

  @Test
  void aDaemonProvesItselfWithoutTheTokenAndOnlyThere() throws Exception {
    start(ServiceOptions.builder(TOKEN).instance(INSTANCE).version("9.9.9"));
    HttpResponse<String> answer = get("/v1/health?challenge=" + NONCE);
    assertEquals(200, answer.statusCode(), answer.body());
    JsonNode proof = Json.mapper().readTree(answer.body());
    assertEquals(
        List.of("ok", "instance", "pid", "proof"),
        proof.properties().stream().map(e -> e.getKey()).toList());
    assertEquals(INSTANCE, proof.get("instance").asText());
    assertEquals(ProcessHandle.current().pid(), proof.get("pid").asLong());
    assertEquals(
        HealthProof.of(TOKEN, INSTANCE, service.port(), NONCE), proof.get("proof").asText());
    assertFalse(answer.body().contains(TOKEN));

    // everything else still needs the token: health without a challenge, the status
    assertEquals(401, get("/v1/health").statusCode());
    assertEquals(401, get("/v1/service/status").statusCode());
    assertEquals(401, get("/v1/sessions?challenge=" + NONCE).statusCode());
    HttpResponse<String> status = get("/v1/service/status", "Authorization", "Bearer " + TOKEN);
    assertEquals(200, status.statusCode(), status.body());
    JsonNode body = Json.mapper().readTree(status.body());
    assertEquals(INSTANCE, body.get("instance").asText());
    assertEquals("9.9.9", body.get("version").asText());
    assertEquals(turndiff.store().file().toString(), body.get("store").asText());
    assertEquals(service.port(), body.get("port").asInt());
    assertEquals(0, body.get("open_turns").size());

    // the turns in flight, from the store
    Path workspace = TestWorkspace.in(temp.resolve("ws")).file("a.txt", "a\n").root();
    turndiff.capture().beginTurn(workspace, Optional.of("s-open"), Optional.of("t-open"));
    turndiff.capture().beginTurn(workspace, Optional.of("s-done"), Optional.of("t-done"));
    turndiff.capture().finishTurn("t-done");
    JsonNode inFlight =
        Json.mapper()
            .readTree(get("/v1/service/status", "Authorization", "Bearer " + TOKEN).body())
            .get("open_turns");
    assertEquals(1, inFlight.size(), inFlight.toString());
    assertEquals("s-open", inFlight.get(0).get("session").asText());
    assertEquals("t-open", inFlight.get(0).get("turn").asText());
    assertEquals(workspace.toString(), inFlight.get(0).get("workspace").asText());
  }

  @Test
  void aNonceThatIsNotLowercaseHexOfTheRightLengthIsRefused() throws Exception {
    start(ServiceOptions.builder(TOKEN).instance(INSTANCE));
    for (String nonce :
        List.of("", "abc", NONCE.toUpperCase(Locale.ROOT), "g".repeat(32), "a".repeat(129))) {
      HttpResponse<String> answer = get("/v1/health?challenge=" + nonce);
      assertEquals(400, answer.statusCode(), nonce + ": " + answer.body());
    }
    assertEquals(400, get("/v1/health?challenge=" + NONCE + "&challenge=" + NONCE).statusCode());
  }

  @Test
  void aServiceThatIsNotADaemonAnswersNoChallenge() throws Exception {
    start(ServiceOptions.builder(TOKEN));
    assertEquals(401, get("/v1/health?challenge=" + NONCE).statusCode());
  }

  @Test
  void theOriginCheckStillAppliesToTheChallenge() throws Exception {
    start(ServiceOptions.builder(TOKEN).instance(INSTANCE));
    // an Origin that is not allowed is refused before the challenge is answered
    assertEquals(
        403, get("/v1/health?challenge=" + NONCE, "Origin", "http://evil.example").statusCode());
  }
}
