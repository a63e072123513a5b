package io.turndiff.server;

import io.turndiff.ownfiles.OwnFile;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.unixdomain.server.UnixDomainServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * Where the service meets the network: a Jetty server (its core handlers, no servlets) listening on
 * loopback TCP and on the Unix domain socket, each request handed to the service as an {@link
 * Exchange} on the thread that read it. It owns the server's limits: the connections held at once,
 * the strangers among them and how long they may stay ({@link ConnectionGuard}), the size of a
 * request's line and headers, how long a connection may stay silent, and Jetty's own refusals in
 * the service's error shape ({@link JsonErrorHandler}).
 *
 * <p>It is opened (the port bound) before it is started, so that the service knows its port — the
 * gates check {@code Host} against it — before the first request arrives.
 */
final class Edge {

  /**
   * A connection silent this long is closed: a kept-alive one between requests, or one whose
   * request stopped half-way. Above the event stream's keep-alive ({@link PanelEvents#KEEP_ALIVE}),
   * which would otherwise be cut between two of its comments.
   */
  static final Duration IDLE = Duration.ofSeconds(30);

  private static final Set<PosixFilePermission> OWNER_ONLY =
      PosixFilePermissions.fromString("rw-------");

  /**
   * The most threads Jetty may run: a selector and an acceptor for each of the two connectors, and
   * the requests in flight (at most one per connection: no request is pipelined here); more wait in
   * the pool's queue. Jetty's own default. A request blocked on the store holds one of them; the
   * panel's event streams, which last, hold none ({@link Exchange#detach}).
   */
  private static final int MAX_THREADS = 200;

  private static final int MIN_THREADS = 4;

  /**
   * Threads kept waiting to take over a selector's work. With one at hand, the thread that read a
   * request runs it at once, warm, and the reserved one selects meanwhile (Jetty's
   * execute-produce-consume); without one, every request waited for another thread to wake: a
   * virtual thread started for each request put a hand-off on every call, about 150 µs of a
   * snapshot call's 750 over the socket at load 22 ({@code bench http}, docs/service.md).
   */
  private static final int RESERVED_THREADS = 2;

  /** What one request gets: the exchange, answered before this returns. */
  @FunctionalInterface
  interface Service {
    void handle(Exchange exchange);
  }

  private final Server server;
  private final ServerConnector tcp;
  private final ConnectionGuard guard;
  private final Optional<Socket> socket;

  /** The Unix domain socket, and who was refused on it. */
  record Socket(Path path, PeerCheck peers) {}

  private Edge(Server server, ServerConnector tcp, ConnectionGuard guard, Optional<Socket> socket) {
    this.server = server;
    this.tcp = tcp;
    this.guard = guard;
    this.socket = socket;
  }

  /** Binds the loopback port ({@code 0}: a free one); nothing is served before {@link #start}. */
  static Edge open(ServiceOptions options) throws IOException {
    // before the first of Jetty's classes that pads to a cache line is initialised
    JettyCacheLine.tellJetty();
    QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS, MIN_THREADS);
    threads.setName("turndiff-http");
    threads.setReservedThreads(RESERVED_THREADS);
    Server server = new Server(threads);
    server.setErrorHandler(new JsonErrorHandler());
    server.setStopTimeout(options.shutdownGrace().toMillis());
    HttpConfiguration http = new HttpConfiguration();
    http.setRequestHeaderSize(options.maxHeaderBytes());
    http.setSendServerVersion(false);
    http.setSendXPoweredBy(false);
    // Jetty refuses a path it finds ambiguous (an encoded '/' or '.', an empty segment) with a bare
    // 400. Nothing here maps a path to a file: the routes and the panel's list of files match the
    // raw path exactly, so such a path simply matches nothing and gets the service's own 404.
    http.setUriCompliance(UriCompliance.UNSAFE);
    ServerConnector tcp = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
    tcp.setHost(InetAddress.getLoopbackAddress().getHostAddress());
    tcp.setPort(options.port());
    tcp.setIdleTimeout(IDLE.toMillis());
    tcp.setAcceptQueueSize(128);
    server.addConnector(tcp);
    server.addBean(new NetworkConnectionLimit(options.maxConnections(), tcp));
    ConnectionGuard guard =
        new ConnectionGuard(
            options.requestDeadline(), maxStrangers(options.maxConnections()), tcp.getScheduler());
    tcp.addBean(guard);
    tcp.open();
    Optional<Socket> socket = Optional.empty();
    if (options.socket().isPresent()) {
      socket = Optional.of(openSocket(server, http, options.socket().get()));
    }
    return new Edge(server, tcp, guard, socket);
  }

  /**
   * The Unix domain socket at {@code path}, bound when the server starts (a socket left by a
   * service that died is removed first: the run directory is this user's alone), with the peer
   * check on every connection. The one user the check lets in is the one this process runs as: the
   * owner of its {@code /proc} directory.
   */
  private static Socket openSocket(Server server, HttpConfiguration http, Path path)
      throws IOException {
    OwnFile.of(path).deleteIfExists();
    UnixDomainServerConnector unix =
        new UnixDomainServerConnector(server, 1, 1, new HttpConnectionFactory(http));
    unix.setUnixDomainPath(path);
    unix.setIdleTimeout(IDLE.toMillis());
    Path self = Path.of("/proc/" + ProcessHandle.current().pid());
    PeerCheck peers =
        new PeerCheck(
            OwnFile.of(self)
                .attributes()
                .orElseThrow(() -> new IOException("cannot see this process in " + self))
                .owner());
    unix.addBean(peers);
    server.addConnector(unix);
    return new Socket(path, peers);
  }

  /** The Unix domain socket, when the service listens on one. */
  Optional<Socket> socket() {
    return socket;
  }

  /**
   * The connections without a credential held at once: a quarter of the connection limit, so that
   * three quarters stay for the clients that have the token whatever a flood does.
   */
  static int maxStrangers(int maxConnections) {
    return Math.max(1, maxConnections / 4);
  }

  /** Who is a stranger on the TCP port, and the counts of it. */
  ConnectionGuard guard() {
    return guard;
  }

  int port() {
    return tcp.getLocalPort();
  }

  /** Serves every request to {@code service}; requests in flight at a stop may finish. */
  void start(Service service) throws IOException {
    server.setHandler(
        new GracefulHandler(
            new Handler.Abstract() {
              @Override
              public boolean handle(Request request, Response response, Callback callback) {
                Exchange exchange =
                    new Exchange(
                        request,
                        response,
                        callback,
                        request.getConnectionMetaData().getConnector()
                            instanceof UnixDomainServerConnector);
                service.handle(exchange);
                exchange.handled();
                return true;
              }
            }));
    try {
      server.start();
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("the HTTP server did not start: " + e, e);
    }
    // bound with the process's umask; until this, the 0700 run directory keeps others out
    if (socket.isPresent()) {
      OwnFile.of(socket.get().path()).setPermissions(OWNER_ONLY);
    }
  }

  /** Stops accepting, lets requests in flight finish within the shutdown grace, then stops. */
  void stop() {
    try {
      server.stop();
    } catch (Exception e) {
      System.err.println("turndiff serve: the HTTP server did not stop cleanly: " + e);
    } finally {
      // bound by open() even when the server never started
      tcp.close();
    }
  }
}
