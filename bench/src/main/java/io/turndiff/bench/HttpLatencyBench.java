package io.turndiff.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.turndiff.api.Json;
import io.turndiff.api.Turndiff;
import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.server.HttpService;
import io.turndiff.server.ServiceOptions;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * The latency a runtime sees for one snapshot call over loopback HTTP, against two anchors measured
 * in the same run: the same call in-process (what HTTP adds) and an authenticated health check
 * (HTTP alone). Each call snapshots a different 10 KB file, so every call records a new
 * before-state.
 *
 * <p>The clients: the JDK's HTTP client on the port, on one kept-open connection (its own selector
 * thread and executor add their hand-offs to every call); the bench's plain client ({@link
 * SocketHttpClient}: each request in one write, as {@code curl} and Node send it), on one kept-open
 * connection to the port (the service's TCP edge alone) and to the Unix socket, and on the socket
 * with a connection of its own per call and {@code Connection: close}, which is how the hooks call:
 * the hook client ({@code hooks/src/main/c}) and {@code curl --unix-socket} in the hook script each
 * connect, send one request, read the answer until the service closes, and exit. The calls are
 * interleaved, so that a burst of load on the machine falls on all of them alike. After them the
 * health check is timed once more, back to back on the kept-open socket connection, as a client
 * polling the service sends it: the edge alone, with nothing else between two checks.
 *
 * <p>At a load of 20 on two cores a wall-clock figure is mostly waiting for a core, so a second
 * pass counts what the service spends per call, which the load does not change: the CPU of every
 * thread but the client's, and the bytes they allocate ({@link ServiceCost}).
 */
public final class HttpLatencyBench {

  private final int calls;
  private final int warmup;
  private final PrintStream progress;

  public HttpLatencyBench(int calls, int warmup, PrintStream progress) {
    this.calls = calls;
    this.warmup = warmup;
    this.progress = progress;
  }

  public record Result(
      int calls,
      Samples http,
      Samples inProcess,
      Samples health,
      Samples tcp,
      Samples tcpHealth,
      Samples socket,
      Samples socketHealth,
      Samples socketOnce,
      Samples socketOnceHealth,
      Samples socketHealthRun,
      ServiceCost.PerCall snapshotCost,
      ServiceCost.PerCall healthCost,
      ServiceCost.PerCall inProcessCost) {

    public void print(PrintWriter out) {
      out.printf(
          "one snapshot call of a 10 KB file, %d calls each (machine: %d cores, Java %s)%n",
          calls, Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
      out.printf("%-50s %9s %9s %9s%n", "", "p50 us", "p90 us", "p99 us");
      out.println(
          "clients: the bench's one-write client (kept open, or a connection per call with"
              + " Connection: close, as the hook client and curl --unix-socket call), and the"
              + " JDK's HTTP client");
      row(out, "over the Unix socket, a connection per call", socketOnce);
      row(out, "over the Unix socket (kept open)", socket);
      row(out, "over loopback TCP (kept open)", tcp);
      row(out, "over loopback TCP, the JDK's HTTP client", http);
      row(out, "in-process (anchor)", inProcess);
      row(out, "health check over the Unix socket, a connection", socketOnceHealth);
      row(out, "health check over the Unix socket", socketHealth);
      row(out, "health checks over the Unix socket, back to back", socketHealthRun);
      row(out, "health check over loopback TCP", tcpHealth);
      row(out, "health check, the JDK's HTTP client", health);
      out.printf(
          "the edge adds at p50: %.0f us on the socket, %.0f us on TCP, %.0f us through the JDK's"
              + " client%n",
          (socket.median() - inProcess.median()) / 1e3,
          (tcp.median() - inProcess.median()) / 1e3,
          (http.median() - inProcess.median()) / 1e3);
      out.printf(
          "the service's own cost per call, kept-open socket (CPU of every thread but the"
              + " client's; bytes allocated):%n");
      cost(out, "snapshot over the Unix socket", snapshotCost);
      cost(out, "health check over the Unix socket", healthCost);
      cost(out, "in-process snapshot (all threads, the caller's too)", inProcessCost);
    }

    private static void cost(PrintWriter out, String name, ServiceCost.PerCall cost) {
      out.printf("%-52s %7.0f us CPU %9d bytes%n", name, cost.cpuNanos() / 1e3, cost.bytes());
    }

    private static void row(PrintWriter out, String name, Samples samples) {
      out.printf(
          "%-50s %9.0f %9.0f %9.0f%n",
          name, samples.median() / 1e3, samples.quantile(0.9) / 1e3, samples.quantile(0.99) / 1e3);
    }

    public ObjectNode json() {
      ObjectNode node = Json.object();
      node.put("calls", calls);
      http.putInto(node, "http_snapshot_us", 1e3);
      inProcess.putInto(node, "in_process_snapshot_us", 1e3);
      health.putInto(node, "http_health_us", 1e3);
      tcp.putInto(node, "tcp_snapshot_us", 1e3);
      tcpHealth.putInto(node, "tcp_health_us", 1e3);
      socket.putInto(node, "socket_snapshot_us", 1e3);
      socketHealth.putInto(node, "socket_health_us", 1e3);
      socketOnce.putInto(node, "socket_connection_per_call_snapshot_us", 1e3);
      socketOnceHealth.putInto(node, "socket_connection_per_call_health_us", 1e3);
      socketHealthRun.putInto(node, "socket_health_back_to_back_us", 1e3);
      snapshotCost.putInto(node, "service_cost_socket_snapshot");
      healthCost.putInto(node, "service_cost_socket_health");
      inProcessCost.putInto(node, "cost_in_process_snapshot");
      node.put("http_over_in_process_p50", (double) http.median() / inProcess.median());
      return node;
    }
  }

  public Result run() throws Exception {
    Path base = Files.createTempDirectory("turndiff-http-bench-");
    try {
      Path workspace = Files.createDirectories(base.resolve("workspace"));
      int files = 5 * (calls + warmup) + 2 * calls;
      Random random = new Random(7);
      for (int i = 0; i < files; i++) {
        Files.write(workspace.resolve("f" + i + ".java"), SyntheticTree.text(random, 10 * 1024));
      }
      progress.println("wrote " + files + " files of 10 KB");
      String token =
          "bench-token-"
              + Long.toHexString(random.nextLong())
              + Long.toHexString(random.nextLong());
      try (Turndiff turndiff =
              Turndiff.open(base.resolve("store/turndiff.db"), BoundaryOptions.defaults());
          HttpService service =
              HttpService.start(
                  turndiff,
                  ServiceOptions.builder(token)
                      .port(0)
                      .socket(base.resolve("bench.sock"))
                      .build());
          SocketHttpClient overSocket = SocketHttpClient.unix(base.resolve("bench.sock"));
          SocketHttpClient overTcp = SocketHttpClient.tcp(service.port(), token)) {
        // the token, shown at once, makes the connection known: a stranger's is cut after seconds
        overTcp.send("GET", "/v1/health", null);
        HttpClient client = HttpClient.newHttpClient();
        String turn =
            turndiff.capture().beginTurn(workspace, Optional.of("bench"), Optional.empty()).turn();
        Samples http = new Samples();
        Samples inProcess = new Samples();
        Samples health = new Samples();
        Samples tcp = new Samples();
        Samples tcpHealth = new Samples();
        Samples socket = new Samples();
        Samples socketHealth = new Samples();
        Samples socketOnce = new Samples();
        Samples socketOnceHealth = new Samples();
        ByteBuffer answer = ByteBuffer.allocate(64 * 1024);
        Path socketPath = base.resolve("bench.sock");
        int file = 0;
        for (int i = 0; i < calls + warmup; i++) {
          boolean measured = i >= warmup;
          String body = "{\"tool_call\":\"call-" + i + "\",\"paths\":[\"f" + file++ + ".java\"]}";
          HttpRequest request =
              HttpRequest.newBuilder(URI.create(service.url() + "/v1/turns/" + turn + "/snapshots"))
                  .header("Authorization", "Bearer " + token)
                  .POST(HttpRequest.BodyPublishers.ofString(body))
                  .build();
          long start = System.nanoTime();
          HttpResponse<String> response =
              client.send(request, HttpResponse.BodyHandlers.ofString());
          long httpNanos = System.nanoTime() - start;
          if (response.statusCode() != 200) {
            throw new IllegalStateException("snapshot over HTTP failed: " + response.body());
          }
          start = System.nanoTime();
          turndiff
              .capture()
              .snapshot(turn, Optional.of("local-" + i), List.of("f" + file++ + ".java"));
          long localNanos = System.nanoTime() - start;
          HttpRequest ping =
              HttpRequest.newBuilder(URI.create(service.url() + "/v1/health"))
                  .header("Authorization", "Bearer " + token)
                  .build();
          start = System.nanoTime();
          int healthStatus = client.send(ping, HttpResponse.BodyHandlers.ofString()).statusCode();
          long healthNanos = System.nanoTime() - start;
          String socketBody =
              "{\"tool_call\":\"socket-" + i + "\",\"paths\":[\"f" + file++ + ".java\"]}";
          start = System.nanoTime();
          int status = overSocket.send("POST", "/v1/turns/" + turn + "/snapshots", socketBody);
          long socketNanos = System.nanoTime() - start;
          if (status != 200) {
            throw new IllegalStateException("snapshot over the socket failed: HTTP " + status);
          }
          start = System.nanoTime();
          int socketHealthStatus = overSocket.send("GET", "/v1/health", null);
          long socketHealthNanos = System.nanoTime() - start;
          String onceBody =
              "{\"tool_call\":\"once-" + i + "\",\"paths\":[\"f" + file++ + ".java\"]}";
          start = System.nanoTime();
          status =
              SocketHttpClient.sendOnce(
                  socketPath, answer, "POST", "/v1/turns/" + turn + "/snapshots", onceBody);
          long onceNanos = System.nanoTime() - start;
          if (status != 200) {
            throw new IllegalStateException("snapshot on its own connection failed: " + status);
          }
          start = System.nanoTime();
          int onceHealthStatus =
              SocketHttpClient.sendOnce(socketPath, answer, "GET", "/v1/health", null);
          long onceHealthNanos = System.nanoTime() - start;
          String tcpBody = "{\"tool_call\":\"tcp-" + i + "\",\"paths\":[\"f" + file++ + ".java\"]}";
          start = System.nanoTime();
          status = overTcp.send("POST", "/v1/turns/" + turn + "/snapshots", tcpBody);
          long tcpNanos = System.nanoTime() - start;
          if (status != 200) {
            throw new IllegalStateException("snapshot over TCP failed: HTTP " + status);
          }
          start = System.nanoTime();
          int tcpHealthStatus = overTcp.send("GET", "/v1/health", null);
          long tcpHealthNanos = System.nanoTime() - start;
          // a refusal is quick too: only answered calls are measured
          if (healthStatus != 200
              || socketHealthStatus != 200
              || tcpHealthStatus != 200
              || onceHealthStatus != 200) {
            throw new IllegalStateException(
                "a health check failed: HTTP "
                    + healthStatus
                    + " / "
                    + socketHealthStatus
                    + " / "
                    + tcpHealthStatus
                    + " / "
                    + onceHealthStatus);
          }
          if (measured) {
            http.add(httpNanos);
            inProcess.add(localNanos);
            health.add(healthNanos);
            tcp.add(tcpNanos);
            tcpHealth.add(tcpHealthNanos);
            socket.add(socketNanos);
            socketHealth.add(socketHealthNanos);
            socketOnce.add(onceNanos);
            socketOnceHealth.add(onceHealthNanos);
          }
        }
        Samples socketHealthRun = healthChecksBackToBack(overSocket);
        ServiceCost cost = new ServiceCost(ManagementFactory.getThreadMXBean());
        int[] next = {file};
        ServiceCost.PerCall snapshotCost =
            cost.ofService(
                calls,
                i ->
                    overSocket.send(
                        "POST",
                        "/v1/turns/" + turn + "/snapshots",
                        "{\"tool_call\":\"cost-"
                            + i
                            + "\",\"paths\":[\"f"
                            + next[0]++
                            + ".java\"]}"));
        ServiceCost.PerCall healthCost =
            cost.ofService(calls, i -> overSocket.send("GET", "/v1/health", null));
        ServiceCost.PerCall inProcessCost =
            cost.ofAll(
                calls,
                i -> {
                  turndiff
                      .capture()
                      .snapshot(
                          turn, Optional.of("cost-local-" + i), List.of("f" + next[0]++ + ".java"));
                  return 200;
                });
        return new Result(
            calls,
            http,
            inProcess,
            health,
            tcp,
            tcpHealth,
            socket,
            socketHealth,
            socketOnce,
            socketOnceHealth,
            socketHealthRun,
            snapshotCost,
            healthCost,
            inProcessCost);
      }
    } finally {
      TurnBench.deleteTree(base);
    }
  }

  /**
   * Health checks one after another on the kept-open socket connection, as a client polling the
   * service sends them: the edge alone, each check right after the last, where the interleaved rows
   * have a snapshot call or a call of another client between two checks of one connection.
   */
  private Samples healthChecksBackToBack(SocketHttpClient overSocket) throws IOException {
    Samples samples = new Samples();
    for (int i = 0; i < warmup + calls; i++) {
      long start = System.nanoTime();
      int status = overSocket.send("GET", "/v1/health", null);
      long nanos = System.nanoTime() - start;
      if (status != 200) {
        throw new IllegalStateException("a health check failed: HTTP " + status);
      }
      if (i >= warmup) {
        samples.add(nanos);
      }
    }
    return samples;
  }
}
