package io.turndiff.server;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.turndiff.capture.RequestException;
import io.turndiff.store.StoreException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The local HTTP service: JSON over HTTP for the whole capture, query and rewind surface, so that a runtime
 * calls turndiff on every tool call without starting a JVM each time.
 *
 * <p>Secure by default: it listens on the loopback address only; every request must carry the bearer token;
 * a request whose {@code Host} is not this loopback address and port (DNS rebinding) or whose {@code Origin}
 * is not explicitly allowed (a browser page elsewhere) is refused before anything else; CORS is off unless
 * origins are configured. Requests run on virtual threads: calls on one turn are serialized, calls on
 * different turns proceed in parallel, and the store serializes its writes itself. {@link #stop()} lets
 * requests in flight finish.
 */
public final class HttpService implements AutoCloseable {

  private final HttpServer server;
  private final ExecutorService executor;
  private final ServiceOptions options;
  private final Router router;
  private final byte[] token;
  private final Set<String> allowedHosts;

  private HttpService(HttpServer server, ExecutorService executor, ServiceOptions options, Router router) {
    this.server = server;
    this.executor = executor;
    this.options = options;
    this.router = router;
    this.token = options.token().getBytes(StandardCharsets.UTF_8);
    int port = server.getAddress().getPort();
    this.allowedHosts = Set.of("127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port);
  }

  public static HttpService start(Turndiff turndiff, ServiceOptions options) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), options.port()), 128);
    ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    HttpService service = new HttpService(server, executor, options, new Endpoints(turndiff).router());
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
      String host = headers.getFirst("Host");
      if (host == null || !allowedHosts.contains(host.toLowerCase(java.util.Locale.ROOT))) {
        throw new ApiError(403, "forbidden_host", "Host '" + host + "' is not this service's loopback address");
      }
      String origin = headers.getFirst("Origin");
      if (origin != null) {
        if (!options.allowedOrigins().contains(origin)) {
          throw new ApiError(403, "forbidden_origin", "Origin '" + origin + "' is not allowed");
        }
        corsOrigin = Optional.of(origin);
        if (exchange.getRequestMethod().equals("OPTIONS")) {
          send(exchange, new ApiResponse(204, "text/plain", new byte[0]), corsOrigin);
          return;
        }
      }
      authenticate(headers.getFirst("Authorization"));
      Router.Match match = router.match(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath());
      byte[] body = readBody(exchange.getRequestBody());
      early = new EarlyHeaders(exchange, corsOrigin);
      ApiRequest request = new ApiRequest(match.parameters(), Router.query(exchange.getRequestURI().getRawQuery()),
          body, early);
      response = match.endpoint().handle(request);
    } catch (ApiError e) {
      response = ApiResponse.error(e.status(), e.code(), e.getMessage());
    } catch (RequestException e) {
      response = refused(e);
    } catch (StoreException e) {
      response = ApiResponse.error(500, "store", e.getMessage());
    } catch (RuntimeException | IOException e) {
      System.err.println("turndiff serve: internal error: " + e);
      e.printStackTrace(System.err);
      response = ApiResponse.error(500, "internal", "internal error: " + e.getClass().getSimpleName());
    }
    if (early != null && early.sent()) {
      sendBody(exchange, response);
    } else {
      send(exchange, response, corsOrigin);
    }
  }

  private void authenticate(String authorization) {
    String prefix = "Bearer ";
    if (authorization == null || !authorization.startsWith(prefix)) {
      throw new ApiError(401, "unauthorized", "a bearer token is required (Authorization: Bearer <token>)");
    }
    byte[] given = authorization.substring(prefix.length()).strip().getBytes(StandardCharsets.UTF_8);
    if (!MessageDigest.isEqual(given, token)) {
      throw new ApiError(401, "unauthorized", "the bearer token is not this service's token");
    }
  }

  private byte[] readBody(InputStream in) throws IOException {
    byte[] body = in.readNBytes(options.maxBodyBytes() + 1);
    if (body.length > options.maxBodyBytes()) {
      throw new ApiError(413, "too_large", "the body is over " + options.maxBodyBytes() + " bytes");
    }
    return body;
  }

  private static ApiResponse refused(RequestException e) {
    return switch (e.problem()) {
      case BAD_INPUT -> ApiResponse.error(400, "bad_input", e.getMessage());
      case UNKNOWN_TURN -> ApiResponse.error(404, "unknown_turn", e.getMessage());
      case UNKNOWN_SESSION -> ApiResponse.error(404, "unknown_session", e.getMessage());
      case WRONG_STATE -> ApiResponse.error(409, "wrong_state", e.getMessage());
      case ALREADY_EXISTS -> ApiResponse.error(409, "already_exists", e.getMessage());
      case WORKSPACE -> ApiResponse.error(422, "workspace", e.getMessage());
    };
  }

  static void setHeaders(HttpExchange exchange, String contentType, int status, Optional<String> corsOrigin) {
    Headers headers = exchange.getResponseHeaders();
    headers.set("Content-Type", contentType);
    headers.set("Cache-Control", "no-store");
    headers.set("X-Content-Type-Options", "nosniff");
    if (status == 401) {
      headers.set("WWW-Authenticate", "Bearer");
    }
    corsOrigin.ifPresent(origin -> {
      headers.set("Access-Control-Allow-Origin", origin);
      headers.set("Vary", "Origin");
      headers.set("Access-Control-Allow-Headers", "Authorization, Content-Type");
      headers.set("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
      headers.set("Access-Control-Expose-Headers", "Turndiff-Operation");
    });
  }

  /** The body of a response whose status and headers went out early ({@link EarlyHeaders}). */
  private static void sendBody(HttpExchange exchange, ApiResponse response) {
    try (exchange; OutputStream out = exchange.getResponseBody()) {
      out.write(response.body());
    } catch (IOException clientGone) {
      // the client hung up; nothing to tell it
    }
  }

  private static void send(HttpExchange exchange, ApiResponse response, Optional<String> corsOrigin) {
    try (exchange) {
      setHeaders(exchange, response.contentType(), response.status(), corsOrigin);
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
    server.stop((int) Math.max(1, options.shutdownGrace().toSeconds()));
    executor.close();
  }

  @Override
  public void close() {
    stop();
  }
}
