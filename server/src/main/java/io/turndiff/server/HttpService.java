package io.turndiff.server;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.turndiff.api.HealthProof;
import io.turndiff.api.InvalidRequest;
import io.turndiff.api.Refusal;
import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireHealthProof;
import io.turndiff.api.wire.WireOpenTurn;
import io.turndiff.api.wire.WireServiceStatus;
import io.turndiff.api.wire.WireServiceWatch;
import io.turndiff.model.RequestException;
import io.turndiff.store.Store;
import io.turndiff.store.StoreException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The local HTTP service: JSON over HTTP for the whole capture, query and rewind surface, so that a
 * runtime calls turndiff on every tool call without starting a JVM each time.
 *
 * <p>Secure by default: it listens on the loopback address only; every request must carry the
 * bearer token; a request whose {@code Host} is not this loopback address and port (DNS rebinding)
 * or whose {@code Origin} is not explicitly allowed (a browser page elsewhere) is refused before
 * anything else; CORS is off unless origins are configured. Requests run on virtual threads: calls
 * on one turn are serialized, calls on different turns proceed in parallel, and the store
 * serializes its writes itself. {@link #stop()} lets requests in flight finish.
 *
 * <p>Hostile clients are bounded before they cost much: connections are capped, a request must
 * arrive whole within a deadline and its headers within a size (the JDK server's limits, {@link
 * JdkServerLimits}), and the body is read only after the token was checked and its declared length
 * is within the body limit.
 *
 * <p>While it runs it also collects the store's garbage on its own, by the policy kept with the
 * store ({@link ScheduledCollection}); {@link #stop()} ends a collection in progress first.
 */
public final class HttpService implements AutoCloseable {

  private final HttpServer server;
  private final ExecutorService executor;
  private final ServiceOptions options;
  private final Router router;
  private final byte[] token;
  private final Set<String> allowedHosts;
  private final Instant startedAt = Instant.now();
  private final Store store;
  private final PanelFiles panel;
  private final PanelLogin login;
  private final PanelEvents events = new PanelEvents();
  private final AtomicBoolean stopped = new AtomicBoolean();
  private final Endpoints endpoints;
  private final ScheduledCollection collection;
  private final Turndiff turndiff;

  private HttpService(
      HttpServer server, ExecutorService executor, ServiceOptions options, Turndiff turndiff) {
    this.server = server;
    this.executor = executor;
    this.options = options;
    this.store = turndiff.store();
    this.turndiff = turndiff;
    this.token = options.token().getBytes(StandardCharsets.UTF_8);
    int port = server.getAddress().getPort();
    this.allowedHosts = Set.of("127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port);
    this.panel = PanelFiles.load(HttpService.class.getClassLoader());
    this.login = new PanelLogin(port, InstantSource.system());
    this.endpoints = new Endpoints(turndiff, events, login, "http://127.0.0.1:" + port);
    this.router =
        endpoints.router().add("GET", "/v1/service/status", request -> ApiResponse.ok(status()));
    this.collection = ScheduledCollection.start(turndiff, options, System.err);
    // the line diffs a process that died after a finish left pending
    turndiff.diffs().catchUp();
  }

  public static HttpService start(Turndiff turndiff, ServiceOptions options) throws IOException {
    JdkServerLimits.install(options);
    HttpServer server =
        HttpServer.create(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), options.port()), 128);
    ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    HttpService service;
    try {
      service = new HttpService(server, executor, options, turndiff);
    } catch (RuntimeException e) {
      executor.close();
      server.stop(0);
      throw e;
    }
    server.createContext("/", service::handle);
    server.setExecutor(executor);
    server.start();
    return service;
  }

  public int port() {
    return server.getAddress().getPort();
  }

  public String url() {
    return "http://127.0.0.1:" + port();
  }

  private void handle(HttpExchange exchange) {
    ApiResponse response;
    Optional<String> corsOrigin = Optional.empty();
    EarlyHeaders early = null;
    try {
      Headers headers = exchange.getRequestHeaders();
      String host = single(headers, "Host");
      if (host == null || !allowedHosts.contains(host.toLowerCase(Locale.ROOT))) {
        throw new ApiError(
            403, "forbidden_host", "Host '" + host + "' is not this service's loopback address");
      }
      String origin = single(headers, "Origin");
      String authorization = single(headers, "Authorization");
      String cookie = single(headers, "Cookie");
      String csrf = single(headers, PanelLogin.CSRF_HEADER);
      String method = exchange.getRequestMethod();
      String rawPath = exchange.getRequestURI().getRawPath();
      if (!rawPath.startsWith("/v1/")) {
        // the panel's static files hold no data: no session, the Host check only
        sendStatic(exchange, method, rawPath, single(headers, "If-None-Match"));
        return;
      }
      Optional<String> challenge = challenge(exchange);
      if (challenge.isPresent()) {
        // the one request a daemon answers without the token: its identity proof
        if (origin != null && !options.allowedOrigins().contains(origin)) {
          throw new ApiError(403, "forbidden_origin", "Origin '" + origin + "' is not allowed");
        }
        send(exchange, prove(challenge.get()), corsOrigin);
        return;
      }
      Optional<PanelSessions.Session> panelSession = Optional.empty();
      if (authorization != null || (origin != null && method.equals("OPTIONS"))) {
        // the runtimes' bearer-token API, as before: CORS for --allow-origin origins only
        if (origin != null) {
          if (!options.allowedOrigins().contains(origin)) {
            throw new ApiError(403, "forbidden_origin", "Origin '" + origin + "' is not allowed");
          }
          corsOrigin = Optional.of(origin);
          if (method.equals("OPTIONS")) {
            send(exchange, new ApiResponse(204, "text/plain", new byte[0]), corsOrigin);
            return;
          }
        }
        authenticate(authorization);
      } else {
        // the panel: its own origin only, then the login or the cookie and the CSRF header
        if (origin != null && !login.ownOrigin(origin)) {
          throw new ApiError(
              403, "forbidden_origin", "Origin '" + origin + "' is not this service's own");
        }
        String fetchSite = single(headers, "Sec-Fetch-Site");
        if (fetchSite != null && !fetchSite.equals("same-origin") && !fetchSite.equals("none")) {
          throw new ApiError(
              403,
              "forbidden_origin",
              "a " + fetchSite + " request cannot use the panel's session");
        }
        if (rawPath.equals("/v1/login")) {
          if (!method.equals("POST")) {
            throw new ApiError(405, "method_not_allowed", method + " is not allowed on " + rawPath);
          }
          requireBodyWithinLimit(headers.getFirst("Content-Length"), options.maxBodyBytes());
          String type = single(headers, "Content-Type");
          send(
              exchange,
              login.login(type, readBody(exchange.getRequestBody(), options.maxBodyBytes())),
              corsOrigin);
          return;
        }
        panelSession = Optional.of(login.authenticate(cookie, csrf));
      }
      int bodyLimit = bodyLimit(rawPath);
      requireBodyWithinLimit(headers.getFirst("Content-Length"), bodyLimit);
      var query = Router.query(exchange.getRequestURI().getRawQuery());
      Router.Match match = router.match(method, rawPath);
      match.checkQuery(query);
      if (rawPath.equals(Endpoints.EVENTS)) {
        // the request is complete before the stream starts: the request deadline ends here
        readBody(exchange.getRequestBody(), bodyLimit);
        exchange.getRequestBody().close();
        streamEvents(exchange, new ApiRequest(Map.of(), query, new byte[0], null, panelSession));
        return;
      }
      byte[] body = readBody(exchange.getRequestBody(), bodyLimit);
      early = new EarlyHeaders(exchange, corsOrigin);
      response =
          match
              .endpoint()
              .handle(new ApiRequest(match.parameters(), query, body, early, panelSession));
    } catch (ApiError e) {
      response = ApiResponse.error(e.status(), e.code(), e.getMessage());
    } catch (InvalidRequest e) {
      response = ApiResponse.error(400, "bad_request", e.getMessage());
    } catch (RequestException e) {
      response = refused(e);
    } catch (StoreException e) {
      response = ApiResponse.error(500, "store", e.getMessage());
    } catch (RuntimeException | IOException e) {
      System.err.println("turndiff serve: internal error: " + e);
      e.printStackTrace(System.err);
      response =
          ApiResponse.error(500, "internal", "internal error: " + e.getClass().getSimpleName());
    }
    if (early != null && early.sent()) {
      sendBody(exchange, response);
    } else {
      send(exchange, response, corsOrigin);
    }
  }

  /** {@code GET /v1/events[?session=S | ?workspace=DIR]}, for the panel only. */
  private void streamEvents(HttpExchange exchange, ApiRequest request) {
    PanelSessions.Session session = request.requirePanel(Endpoints.EVENTS);
    Optional<String> workspace = request.query("workspace");
    Optional<String> turnSession = request.query("session");
    if (workspace.isPresent() && turnSession.isPresent()) {
      throw new ApiError(400, "bad_request", "give session or workspace, not both");
    }
    PanelEvents.Scope scope =
        new PanelEvents.Scope(
            turnSession.orElse(null),
            workspace.map(endpoints::namedWorkspace).map(Path::toString).orElse(null));
    setHeaders(exchange, PanelEvents.CONTENT_TYPE, 200, Optional.empty());
    events.serve(exchange, scope, session.id());
  }

  /** A file of the panel: {@code GET} or {@code HEAD}, {@code 304} for its ETag, else 404/405. */
  private void sendStatic(
      HttpExchange exchange, String method, String rawPath, String ifNoneMatch) {
    if (!method.equals("GET") && !method.equals("HEAD")) {
      send(
          exchange,
          ApiResponse.error(405, "method_not_allowed", method + " is not allowed on " + rawPath),
          Optional.empty());
      return;
    }
    Optional<PanelFiles.PanelFile> found = panel.find(rawPath);
    if (found.isEmpty()) {
      send(
          exchange, ApiResponse.error(404, "not_found", "nothing at " + rawPath), Optional.empty());
      return;
    }
    PanelFiles.PanelFile file = found.get();
    try (exchange) {
      Headers headers = exchange.getResponseHeaders();
      headers.set("Content-Type", file.type());
      SecurityHeaders.set(headers);
      headers.set("Cache-Control", "no-cache");
      headers.set("ETag", file.etag());
      if (file.etag().equals(ifNoneMatch)) {
        exchange.sendResponseHeaders(304, -1);
        return;
      }
      boolean head = method.equals("HEAD");
      if (head) {
        headers.set("Content-Length", Integer.toString(file.bytes().length));
      }
      exchange.sendResponseHeaders(200, head ? -1 : file.bytes().length);
      if (!head) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(file.bytes());
        }
      }
    } catch (IOException clientGone) {
      // the client hung up; nothing to tell it
    }
  }

  /**
   * The nonce of an identity challenge, {@code GET /v1/health?challenge=NONCE}: the one request a
   * daemon answers without the token. Empty for every other request (and for every request when the
   * service is not a daemon with an instance).
   */
  private Optional<String> challenge(HttpExchange exchange) {
    if (options.instance().isEmpty()
        || !exchange.getRequestMethod().equals("GET")
        || !exchange.getRequestURI().getRawPath().equals("/v1/health")) {
      return Optional.empty();
    }
    var query = Router.query(exchange.getRequestURI().getRawQuery());
    if (!query.containsKey("challenge")) {
      return Optional.empty();
    }
    List<String> nonces = query.get("challenge");
    if (query.size() > 1 || nonces.size() != 1 || !HealthProof.validNonce(nonces.getFirst())) {
      throw new ApiError(
          400,
          "bad_request",
          "challenge must be given once, alone, as 32 to 128 lowercase hex characters");
    }
    return Optional.of(nonces.getFirst());
  }

  private ApiResponse prove(String nonce) {
    String instance = options.instance().orElseThrow();
    return ApiResponse.ok(
        new WireHealthProof(
            true,
            instance,
            ProcessHandle.current().pid(),
            HealthProof.of(options.token(), instance, port(), nonce)));
  }

  private WireServiceStatus status() {
    return new WireServiceStatus(
        true,
        ProcessHandle.current().pid(),
        port(),
        options.instance().orElse(null),
        options.version(),
        startedAt.toString(),
        Duration.between(startedAt, Instant.now()).toSeconds(),
        store.address().display(),
        store.read(
            transaction ->
                transaction.turns().open().stream()
                    .map(
                        turn ->
                            WireOpenTurn.of(
                                turn,
                                transaction.workspaces().byId(turn.workspaceId()).orElseThrow()))
                    .toList()),
        collection.status(),
        endpoints.hookCounters().counts(),
        endpoints.hookCounters().lastFailures(),
        WireServiceWatch.of(turndiff.capture().tracker().watchStatus()));
  }

  /**
   * The header's value; a header a request may carry once, given twice, is refused (which one would
   * count?).
   */
  private static String single(Headers headers, String name) {
    List<String> values = headers.get(name);
    if (values == null || values.isEmpty()) {
      return null;
    }
    if (values.size() > 1) {
      throw new ApiError(
          400,
          "bad_request",
          "the " + name + " header is given " + values.size() + " times; give it once");
    }
    return values.getFirst();
  }

  /**
   * {@code Authorization: Bearer <token>}, the scheme in any case (RFC 7235), compared in constant
   * time.
   */
  private void authenticate(String authorization) {
    String[] parts =
        authorization == null ? new String[0] : authorization.strip().split("[ \t]+", 2);
    if (parts.length != 2 || !parts[0].equalsIgnoreCase("Bearer")) {
      throw new ApiError(
          401, "unauthorized", "a bearer token is required (Authorization: Bearer <token>)");
    }
    byte[] given = parts[1].strip().getBytes(StandardCharsets.UTF_8);
    if (!MessageDigest.isEqual(given, token)) {
      throw new ApiError(401, "unauthorized", "the bearer token is not this service's token");
    }
  }

  /**
   * The most a request to {@code rawPath} may carry: the hook endpoints take a runtime's payload,
   * which may hold a whole file, up to {@link HookEndpoints#MAX_BODY_BYTES}.
   */
  private int bodyLimit(String rawPath) {
    return rawPath.startsWith("/v1/hooks/")
        ? Math.max(options.maxBodyBytes(), HookEndpoints.MAX_BODY_BYTES)
        : options.maxBodyBytes();
  }

  /** Refuses a body declared larger than the limit before reading a byte of it. */
  private static void requireBodyWithinLimit(String contentLength, int limit) {
    if (contentLength != null && Long.parseLong(contentLength.strip()) > limit) {
      throw new ApiError(
          413,
          "too_large",
          "the body is " + contentLength.strip() + " bytes, over the limit of " + bytes(limit));
    }
  }

  /** {@code limit} bytes, in MiB too when it is a whole number of them. */
  private static String bytes(int limit) {
    return limit + " bytes" + (limit % (1 << 20) == 0 ? " (" + (limit >> 20) + " MiB)" : "");
  }

  /** The body, read to its end (a chunked one up to the limit). */
  private static byte[] readBody(InputStream in, int limit) throws IOException {
    byte[] body = in.readNBytes(limit + 1);
    if (body.length > limit) {
      throw new ApiError(413, "too_large", "the body is over the limit of " + bytes(limit));
    }
    return body;
  }

  private static ApiResponse refused(RequestException e) {
    Refusal refusal = Refusal.of(e.problem());
    return ApiResponse.error(refusal.status(), refusal.code(), e.getMessage());
  }

  static void setHeaders(
      HttpExchange exchange, String contentType, int status, Optional<String> corsOrigin) {
    Headers headers = exchange.getResponseHeaders();
    headers.set("Content-Type", contentType);
    headers.set("Cache-Control", "no-store");
    SecurityHeaders.set(headers);
    if (status == 401) {
      headers.set("WWW-Authenticate", "Bearer");
    }
    corsOrigin.ifPresent(
        origin -> {
          headers.set("Access-Control-Allow-Origin", origin);
          headers.set("Vary", "Origin");
          headers.set("Access-Control-Allow-Headers", "Authorization, Content-Type");
          headers.set("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
          headers.set("Access-Control-Expose-Headers", "Turndiff-Operation, Turndiff-Resumed");
        });
  }

  /** The body of a response whose status and headers went out early ({@link EarlyHeaders}). */
  private static void sendBody(HttpExchange exchange, ApiResponse response) {
    try (exchange;
        OutputStream out = exchange.getResponseBody()) {
      out.write(response.body());
    } catch (IOException clientGone) {
      // the client hung up; nothing to tell it
    }
  }

  private static void send(
      HttpExchange exchange, ApiResponse response, Optional<String> corsOrigin) {
    try (exchange) {
      setHeaders(exchange, response.contentType(), response.status(), corsOrigin);
      response.headers().forEach(exchange.getResponseHeaders()::set);
      byte[] body = response.body();
      exchange.sendResponseHeaders(response.status(), body.length == 0 ? -1 : body.length);
      if (body.length > 0) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      }
    } catch (IOException clientGone) {
      // the client hung up; nothing to tell it
    }
  }

  /** Stops accepting, lets requests in flight finish (up to the shutdown grace), then stops. */
  public void stop() {
    if (!stopped.compareAndSet(false, true)) {
      return;
    }
    // a collection in progress ends after its step, before the store closes
    collection.close();
    // the event streams would otherwise hold the grace period to its end
    events.close();
    server.stop((int) Math.max(1, options.shutdownGrace().toSeconds()));
    executor.close();
  }

  @Override
  public void close() {
    stop();
  }
}
