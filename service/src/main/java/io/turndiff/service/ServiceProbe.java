package io.turndiff.service;

import io.turndiff.api.CliException;
import io.turndiff.api.HealthProof;
import io.turndiff.api.Json;
import io.turndiff.api.wire.WireHealthProof;
import io.turndiff.ownfiles.LockFile;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;

/**
 * Finds the daemon of a store and makes it prove who it is before anything is sent to it: the
 * discovery file, the process it names (pid and start time), then the challenge on {@code GET
 * /v1/health} — no token goes to a port that has not answered it with the token's HMAC.
 */
public final class ServiceProbe {

  /** What was found. */
  public sealed interface Found {}

  /** No discovery file. */
  public record Nothing() implements Found {}

  /** A discovery file that must not be trusted: replace it. */
  public record Stale(String reason) implements Found {}

  /**
   * The recorded process runs, holds the store's service lock, and does not prove itself (hung, or
   * stopping): not ours to replace.
   */
  public record Unproven(Discovery discovery, String reason) implements Found {}

  /** A proven daemon and its token. */
  public record Running(Discovery discovery, String token) implements Found {}

  /**
   * The JDK's HTTP client, built when a discovery file first has to be proven, not when this class
   * is first used. Building one starts its selector thread and loads and initializes its classes:
   * 0.22–0.26 s of CPU (measured in {@code service start} from the start-up cache, load 23), which
   * a start used to spend before it spawned the daemon, on the first probe, which finds no
   * discovery file and sends nothing; so did every {@code service status} of a service not running.
   * Built lazily, it is built by a start while its daemon starts ({@link #prepareClient()}), or by
   * a probe that finds a discovery file, or never.
   */
  private static final class Http {
    static final HttpClient CLIENT =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(1))
            .proxy(HttpClient.Builder.NO_PROXY)
            .build();

    private Http() {}
  }

  private static final SecureRandom RANDOM = new SecureRandom();

  private ServiceProbe() {}

  /**
   * Builds the HTTP client now, so that the challenge of a daemon just spawned does not wait for
   * it: {@code service start} calls this after the spawn, while the daemon's JVM starts (a second
   * or more), and the client is ready when the discovery file appears.
   */
  public static void prepareClient() {
    Objects.requireNonNull(Http.CLIENT);
  }

  /**
   * What the run directory shows of the store's daemon.
   *
   * @throws CliException when the run directory is refused ({@link ServiceFiles#refusal()}):
   *     nothing in it is read
   */
  public static Found probe(ServiceFiles files) throws IOException {
    files.check();
    Optional<Discovery> read = Discovery.read(files.discovery());
    if (read.isEmpty()) {
      return files.hasDiscovery() ? new Stale("the discovery file cannot be read") : new Nothing();
    }
    Discovery discovery = read.get();
    if (!ProcessStart.matches(discovery.pid(), discovery.procStartTicks())) {
      return new Stale("pid " + discovery.pid() + " is not running (or is another process now)");
    }
    Optional<String> token = files.readToken();
    if (token.isEmpty()) {
      return unproven(files, discovery, "its token file is missing");
    }
    Optional<String> failure = challenge(discovery, token.get());
    if (failure.isPresent()) {
      return unproven(files, discovery, failure.get());
    }
    return new Running(discovery, token.get());
  }

  private static Found unproven(ServiceFiles files, Discovery discovery, String reason)
      throws IOException {
    String said =
        "the process on port "
            + discovery.port()
            + " (pid "
            + discovery.pid()
            + ") did not prove it is the turndiff service: "
            + reason;
    return LockFile.heldElsewhere(files.storeLock())
        ? new Unproven(discovery, said)
        : new Stale(said);
  }

  /** Empty when the port proved it holds {@code token}; else why not. */
  static Optional<String> challenge(Discovery discovery, String token) {
    byte[] random = new byte[16];
    RANDOM.nextBytes(random);
    String nonce = HexFormat.of().formatHex(random);
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(discovery.url() + "/v1/health?challenge=" + nonce))
            .timeout(Duration.ofSeconds(3))
            .GET()
            .build();
    HttpResponse<String> response;
    try {
      response =
          Http.CLIENT.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      return Optional.of("no answer (" + e.getClass().getSimpleName() + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.of("interrupted");
    }
    if (response.statusCode() != 200) {
      return Optional.of("status " + response.statusCode());
    }
    Optional<WireHealthProof> answer = Json.read(response.body(), WireHealthProof.class);
    String expected = HealthProof.of(token, discovery.instance(), discovery.port(), nonce);
    if (answer.isEmpty()
        || !discovery.instance().equals(answer.get().instance())
        || answer.get().proof() == null
        || !MessageDigest.isEqual(
            expected.getBytes(StandardCharsets.UTF_8),
            answer.get().proof().getBytes(StandardCharsets.UTF_8))) {
      return Optional.of("a wrong proof");
    }
    return Optional.empty();
  }

  /** {@code GET path} on a proven daemon, with its token; the answer, or empty when it failed. */
  public static <T> Optional<T> get(Running running, String path, Class<T> type) {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(running.discovery().url() + path))
            .timeout(Duration.ofSeconds(5))
            .header("Authorization", "Bearer " + running.token())
            .GET()
            .build();
    try {
      HttpResponse<String> response =
          Http.CLIENT.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      return response.statusCode() == 200 ? Json.read(response.body(), type) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }
}
