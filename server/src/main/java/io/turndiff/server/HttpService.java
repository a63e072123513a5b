package io.turndiff.server;

import io.turndiff.api.HealthProof;
import io.turndiff.api.InvalidRequest;
import io.turndiff.api.Refusal;
import io.turndiff.api.Turndiff;
import io.turndiff.api.wire.WireHealthProof;
import io.turndiff.api.wire.WireOpenTurn;
import io.turndiff.api.wire.WireServiceConnections;
import io.turndiff.api.wire.WireServiceStatus;
import io.turndiff.api.wire.WireServiceWatch;
import io.turndiff.hooks.HookOutcome;
import io.turndiff.hooks.HookQuery;
import io.turndiff.model.RequestException;
import io.turndiff.server.Gate.Verdict;
import io.turndiff.store.Store;
import io.turndiff.store.StoreException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The local HTTP service: JSON over HTTP for the whole capture, query and rewind surface, so that a
 * runtime calls turndiff on every tool call without starting a JVM each time.
 *
 * <p>Secure by default: it listens on the loopback address only; every request passes the {@link
 * SecurityGates} in their order before a route sees it: a {@code Host} that is not this loopback
 * address and port (DNS rebinding) is refused before anything else, every API request needs the
 * bearer token or the panel's session, an {@code Origin} not explicitly allowed (a browser page
 * elsewhere) is refused, and CORS is off unless origins are configured. The gates see a request
 * only as a {@link RequestView}, and this class sees the server only as an {@link Exchange}: the
 * server underneath (Jetty, {@link Edge}) is a plug. A request runs on the server's thread that
 * read it (the panel's event stream on a virtual thread of its own): calls on one turn are
 * serialized, calls on different turns proceed in parallel, and the store serializes its writes
 * itself. {@link #stop()} lets requests in flight finish.
 *
 * <p>Hostile clients are bounded before they cost much: connections are capped, a request's line
 * and headers must fit a size and a silent connection is closed ({@link Edge}), and the body is
 * read only after the gates passed the request: its caller is known and its declared length within
 * the body limit.
 *
 * <p>While it runs it also collects the store's garbage on its own, by the policy kept with the
 * store ({@link ScheduledCollection}); {@link #stop()} ends a collection in progress first.
 */
public final class HttpService implements AutoCloseable {

  private final Edge edge;
  private final ServiceOptions options;
  private final Router router;
  private final SecurityGates gates;
  private final SecurityGates socketGates;
  private final Instant startedAt = Instant.now();
  private final Store store;
  private final PanelEvents events = new PanelEvents();
  private final AtomicBoolean stopped = new AtomicBoolean();
  private final Endpoints endpoints;
  private final ScheduledCollection collection;
  private final GoneRuntimeSweep goneRuntimes;
  private final HookSightingsWriter sightingsWriter;
  private final ForeignCommits foreignCommits;
  private volatile Instant lastRequest = Instant.now();
  private final Turndiff turndiff;

  private HttpService(Edge edge, ServiceOptions options, Turndiff turndiff) {
    this.edge = edge;
    this.options = options;
    this.store = turndiff.store();
    this.turndiff = turndiff;
    int port = edge.port();
    PanelLogin login = new PanelLogin(port, InstantSource.system());
    this.gates =
        SecurityGates.of(
            port,
            options.token().getBytes(StandardCharsets.UTF_8),
            options.allowedOrigins(),
            options.maxBodyBytes(),
            HookEndpoints.MAX_BODY_BYTES,
            PanelFiles.load(HttpService.class.getClassLoader()),
            login,
            options.instance().map(instance -> nonce -> prove(instance, nonce)));
    this.socketGates = SecurityGates.socket(options.maxBodyBytes(), HookEndpoints.MAX_BODY_BYTES);
    this.endpoints = new Endpoints(turndiff, events, login, "http://127.0.0.1:" + port);
    this.router =
        endpoints.router().add("GET", "/v1/service/status", request -> ApiResponse.ok(status()));
    options
        .commands()
        .ifPresent(
            commands ->
                router.add(
                    "POST", CommandEndpoint.PATH, new CommandEndpoint(commands, turndiff)::handle));
    this.collection = ScheduledCollection.start(turndiff, options, System.err);
    this.goneRuntimes = GoneRuntimeSweep.start(endpoints.goneRuntimes(), System.err);
    this.sightingsWriter = HookSightingsWriter.start(endpoints.hookSightings(), System.err);
    this.foreignCommits = ForeignCommits.start(store, events, System.err);
    // the line diffs a process that died after a finish left pending
    turndiff.diffs().catchUp();
  }

  /** The service over {@code turndiff}, listening: {@link #listen} then {@link Listening#serve}. */
  public static HttpService start(Turndiff turndiff, ServiceOptions options) throws IOException {
    return listen(options).serve(turndiff);
  }

  /**
   * The port bound and the server accepting (on the socket too) before there is a store to serve:
   * the daemon opens its store meanwhile, on another thread, and hands it to {@link
   * Listening#serve}. Jetty's start and the store's open each take a few tenths of a second of a
   * cold JVM, and neither needs the other (docs/service.md, "Cold start").
   */
  public static Listening listen(ServiceOptions options) throws IOException {
    Edge edge = Edge.open(options);
    CompletableFuture<HttpService> ready = new CompletableFuture<>();
    try {
      // a request accepted before the service is built waits for it on the server's thread; none
      // is expected (clients find the service by the record it publishes afterwards), but one
      // that comes is answered, not refused
      edge.start(exchange -> ready.join().handle(exchange));
    } catch (IOException | RuntimeException e) {
      edge.stop();
      throw e;
    }
    return new Listening(edge, options, ready);
  }

  /**
   * A server accepting with no service behind it yet ({@link #listen}): {@link #serve} builds the
   * service, which then answers every request, the waiting ones first; {@link #abandon} stops the
   * server when there will be none.
   */
  public static final class Listening {

    private final Edge edge;
    private final ServiceOptions options;
    private final CompletableFuture<HttpService> ready;

    private Listening(Edge edge, ServiceOptions options, CompletableFuture<HttpService> ready) {
      this.edge = edge;
      this.options = options;
      this.ready = ready;
    }

    /** The service over {@code turndiff}; the requests that waited for it are served. */
    public HttpService serve(Turndiff turndiff) {
      HttpService service;
      try {
        service = new HttpService(edge, options, turndiff);
      } catch (RuntimeException e) {
        abandon();
        throw e;
      }
      ready.complete(service);
      return service;
    }

    /** Stops the server: the store could not be opened, there is nothing to serve. */
    public void abandon() {
      ready.completeExceptionally(new IllegalStateException("the service did not start"));
      edge.stop();
    }
  }

  /**
   * Acts on a hook call {@code bin/turndiff-hook} kept in its spool since {@code spooledAt} because
   * no service ran (docs/runtime-hooks.md, "When the service is not running"): as the hook endpoint
   * would, but late, and counted so.
   *
   * @throws IllegalArgumentException for a runtime that has no hook endpoint
   * @throws io.turndiff.api.InvalidRequest when {@code body} is not one of its payloads
   */
  public HookOutcome takeLateHook(String runtime, byte[] body, HookQuery query, Instant spooledAt) {
    return endpoints.receiveLateHook(runtime, body, query, spooledAt);
  }

  public int port() {
    return edge.port();
  }

  /** The Unix domain socket it listens on, when it has one. */
  public Optional<Path> socket() {
    return edge.socket().map(Edge.Socket::path);
  }

  public String url() {
    return "http://127.0.0.1:" + port();
  }

  /**
   * How long nobody has used the service: no request came and no panel's event stream was open. A
   * panel open on it keeps it busy however long it sits unread (zero while a stream is open); the
   * keep-alives it receives are not requests. What {@code serve --exit-when-idle} measures.
   */
  public Duration idleFor(Instant now) {
    if (events.watched()) {
      return Duration.ZERO;
    }
    Instant last = lastRequest;
    Instant streamEnded = events.lastStreamEnded();
    Instant latest = streamEnded.isAfter(last) ? streamEnded : last;
    return latest.isAfter(now) ? Duration.ZERO : Duration.between(latest, now);
  }

  /**
   * One request: through the {@linkplain SecurityGates gates}, then to its route. A gate's answer
   * or refusal is sent as it is; a request they pass gets its endpoint's answer.
   */
  private void handle(Exchange exchange) {
    lastRequest = Instant.now();
    RequestView request = exchange.view();
    switch ((exchange.overSocket() ? socketGates : gates).pass(request)) {
      case Verdict.Pass(Passage passage) -> {
        if (passage.credentialed()) {
          edge.guard().admit(exchange.connection());
        }
        route(exchange, request, passage);
      }
      case Verdict.Answer(ApiResponse answer, Passage passage) ->
          send(exchange, answer, passage.corsOrigin());
      case Verdict.Stop(Exception cause, Passage passage) ->
          send(exchange, errorResponse(cause), passage.corsOrigin());
    }
  }

  /** A request the gates passed: its endpoint's answer, or the event stream. */
  private void route(Exchange exchange, RequestView request, Passage passage) {
    ApiResponse response;
    EarlyHeaders early = null;
    try {
      var query = request.query();
      Router.Match match = router.match(request.method(), request.rawPath());
      match.checkQuery(query);
      if (request.rawPath().equals(Endpoints.EVENTS)) {
        // the request is complete before the stream starts: the request deadline ends here
        request.body(passage.bodyLimit());
        streamEvents(
            exchange, new ApiRequest(Map.of(), query, new byte[0], null, passage.panelSession()));
        return;
      }
      byte[] body = request.body(passage.bodyLimit());
      early = new EarlyHeaders(exchange, passage.corsOrigin());
      response =
          match
              .endpoint()
              .handle(
                  new ApiRequest(match.parameters(), query, body, early, passage.panelSession()));
    } catch (RuntimeException | IOException e) {
      response = errorResponse(e);
    }
    if (early != null && early.sent()) {
      sendBody(exchange, response);
    } else {
      send(exchange, response, passage.corsOrigin());
    }
  }

  /**
   * The answer to a request that failed, at a gate or in its endpoint: a refusal's status and code,
   * or {@code 500} (an internal error is printed whole on stderr, and named only by its class in
   * the answer).
   */
  private static ApiResponse errorResponse(Exception failure) {
    return switch (failure) {
      case ApiError e -> ApiResponse.error(e.status(), e.code(), e.getMessage());
      case InvalidRequest e -> ApiResponse.error(400, "bad_request", e.getMessage());
      case RequestException e -> refused(e);
      case StoreException e -> ApiResponse.error(500, "store", e.getMessage());
      default -> {
        System.err.println("turndiff serve: internal error: " + failure);
        failure.printStackTrace(System.err);
        yield ApiResponse.error(
            500, "internal", "internal error: " + failure.getClass().getSimpleName());
      }
    };
  }

  /**
   * {@code GET /v1/events[?session=S | ?workspace=DIR]}, for the panel only: refused here, on the
   * server's thread, or streamed on a virtual thread of its own for as long as the page keeps it.
   */
  private void streamEvents(Exchange exchange, ApiRequest request) {
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
    exchange.detach(
        () ->
            events.serve(
                exchange,
                ResponseHeaders.of(PanelEvents.CONTENT_TYPE, 200, Optional.empty()),
                scope,
                session.id()));
  }

  /** The answer to an identity challenge: the proof for {@code nonce} ({@link HealthProof}). */
  private ApiResponse prove(String instance, String nonce) {
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
        WireServiceWatch.of(turndiff.watchStatus()),
        endpoints.hookSightings().all(),
        connections());
  }

  private WireServiceConnections connections() {
    ConnectionGuard.Counts counts = edge.guard().counts();
    return new WireServiceConnections(
        edge.socket().map(socket -> socket.path().toString()).orElse(null),
        counts.admitted(),
        counts.cut(),
        edge.socket().map(socket -> socket.peers().refused()).orElse(0L),
        counts.open(),
        counts.mostOpen());
  }

  private static ApiResponse refused(RequestException e) {
    Refusal refusal = Refusal.of(e.problem());
    return ApiResponse.error(refusal.status(), refusal.code(), e.getMessage());
  }

  /** The body of a response whose status and headers went out early ({@link EarlyHeaders}). */
  private static void sendBody(Exchange exchange, ApiResponse response) {
    try (OutputStream out = exchange.body()) {
      out.write(response.body());
    } catch (IOException clientGone) {
      // the client hung up; nothing to tell it
    }
  }

  private static void send(Exchange exchange, ApiResponse response, Optional<String> corsOrigin) {
    try {
      exchange.respond(
          response, ResponseHeaders.of(response.contentType(), response.status(), corsOrigin));
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
    goneRuntimes.close();
    foreignCommits.close();
    // the event streams would otherwise hold the grace period to its end
    events.close();
    edge.stop();
    // after the last hook call was served: what it showed is kept for the next service
    sightingsWriter.close();
  }

  @Override
  public void close() {
    stop();
  }
}
