package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.turndiff.api.Json;
import io.turndiff.fixtures.RawHttp;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestWorkspace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code turndiff serve} process against hostile clients: hundreds of connections that
 * trickle bytes and never send the token are capped at a quarter of the connection limit and cut
 * off at the deadline, while the token's calls are served through the flood; {@code
 * --allow-workspace} refuses roots outside it.
 */
class ServeHostileClientsIT {

  private static final int MAX_CONNECTIONS = 32;
  private static final int REQUEST_TIMEOUT_SECONDS = 2;
  private static final Duration ANSWER_WITHIN = Duration.ofSeconds(30);

  @TempDir Path temp;

  /**
   * The TCP connections the service process holds established now: the kernel's rows whose local
   * end is the service's port and whose socket is one of the process's descriptors (a connection
   * still in the listen backlog is established too, but the service has not taken it).
   */
  static long held(Process process, int port) {
    Set<String> sockets;
    try (Stream<Path> fds = Files.list(Path.of("/proc/" + process.pid() + "/fd"))) {
      sockets =
          fds.map(ServeHostileClientsIT::linkTarget)
              .filter(target -> target.startsWith("socket:["))
              .map(target -> target.substring(8, target.length() - 1))
              .collect(Collectors.toSet());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // a Java server socket is an IPv6 one even on 127.0.0.1 (IPv4-mapped): the kernel lists it in
    // tcp6. The rows are counted by their socket's inode, each once: the kernel prints these tables
    // a page at a time and resumes each page at its last position in a hash bucket, so a table read
    // while hundreds of connections open and close can list one socket twice.
    Set<String> established = new HashSet<>();
    established.addAll(established(port, sockets, "/proc/net/tcp"));
    established.addAll(established(port, sockets, "/proc/net/tcp6"));
    return established.size();
  }

  private static String linkTarget(Path fd) {
    try {
      return Files.readSymbolicLink(fd).toString();
    } catch (IOException closedMeanwhile) {
      return "";
    }
  }

  /** The inodes of the table's established rows local to {@code port} and among {@code sockets}. */
  private static Set<String> established(int port, Set<String> sockets, String table) {
    String local = String.format(":%04X", port);
    try (Stream<String> lines = Files.lines(Path.of(table))) {
      return lines
          .skip(1)
          .map(line -> line.strip().split("\\s+"))
          .filter(
              fields ->
                  fields[1].endsWith(local)
                      && fields[3].equals("01")
                      && sockets.contains(fields[9]))
          .map(fields -> fields[9])
          .collect(Collectors.toSet());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * One trickling client: a request that started and never ends; not open once the server closed
   * it.
   */
  private static final class Trickler {
    private SocketChannel channel;
    private boolean open;

    Trickler(int port, String head) {
      try {
        channel = SocketChannel.open();
        channel.socket().connect(new InetSocketAddress("127.0.0.1", port), 2000);
        channel.configureBlocking(false);
        channel.write(ByteBuffer.wrap(head.getBytes(StandardCharsets.US_ASCII)));
        open = true;
      } catch (IOException refused) {
        // the backlog was full: refused before it cost the server anything
        open = false;
      }
    }

    /** One more byte, unless the server has closed the connection. */
    void trickle() {
      if (!open) {
        return;
      }
      try {
        if (channel.read(ByteBuffer.allocate(1024)) < 0) {
          open = false;
          return;
        }
        channel.write(ByteBuffer.wrap(new byte[] {'a'}));
      } catch (IOException closed) {
        open = false;
      }
    }

    void close() throws IOException {
      if (channel != null) {
        channel.close();
      }
    }
  }

  @Test
  void aFloodOfConnectionsWithoutATokenIsCappedAndCutOffAndTheTokensClientsAreServedThroughIt()
      throws Exception {
    TestWorkspace workspace = TestWorkspace.in(temp.resolve("ws")).file("a.txt", "a\n");
    ServeProcessIT.Service service =
        ServeProcessIT.Service.start(
            temp,
            Map.of(),
            "--max-connections",
            String.valueOf(MAX_CONNECTIONS),
            "--request-timeout",
            String.valueOf(REQUEST_TIMEOUT_SECONDS));
    List<Trickler> clients = new ArrayList<>();
    AtomicLong mostHeld = new AtomicLong();
    AtomicBoolean flooding = new AtomicBoolean(true);
    Thread sampler =
        Thread.ofVirtual()
            .start(
                () -> {
                  while (flooding.get()) {
                    mostHeld.accumulateAndGet(held(service.process(), service.port()), Math::max);
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
                  }
                });
    try {
      String head =
          "POST /v1/turns HTTP/1.1\r\nHost: 127.0.0.1:" + service.port() + "\r\nX-Trickle: ";
      for (int c = 0; c < 300; c++) {
        clients.add(new Trickler(service.port(), head));
      }
      // the burst is taken in (each accepted connection then closes the oldest stranger beyond
      // the cap); once it settled, the strangers held are the cap's few until the deadline
      Thread.sleep(500);
      long settled = held(service.process(), service.port());
      assertTrue(
          settled <= MAX_CONNECTIONS / 4 + 2,
          "at most "
              + MAX_CONNECTIONS / 4
              + " strangers are held once the burst settled, not "
              + settled);
      assertTrue(settled >= 2, "the flood did reach the service: " + settled);
      // while the 300 are open and trickling, the token's calls get through: a health check, a
      // turn begun and a snapshot taken
      String host = "Host: 127.0.0.1:" + service.port() + "\r\n";
      String auth = "Authorization: Bearer " + service.token() + "\r\n";
      RawHttp.Response health =
          RawHttp.send(
              service.port(), "GET /v1/health HTTP/1.1\r\n" + host + auth, null, ANSWER_WITHIN);
      assertEquals(200, health.status(), health.toString());
      RawHttp.Response began =
          RawHttp.send(
              service.port(),
              "POST /v1/turns HTTP/1.1\r\n" + host + auth,
              "{\"workspace\":\"" + workspace.root() + "\"}",
              ANSWER_WITHIN);
      assertEquals(201, began.status(), began.toString());
      String turn = Json.mapper().readTree(began.body()).get("turn").asText();
      RawHttp.Response snapshot =
          RawHttp.send(
              service.port(),
              "POST /v1/turns/" + turn + "/snapshots HTTP/1.1\r\n" + host + auth,
              "{\"paths\":[\"a.txt\"]}",
              ANSWER_WITHIN);
      assertEquals(200, snapshot.status(), snapshot.toString());

      long started = System.nanoTime();
      long deadline = started + TimeUnit.SECONDS.toNanos(30);
      while (clients.stream().anyMatch(client -> client.open) && System.nanoTime() < deadline) {
        clients.forEach(Trickler::trickle);
        Thread.sleep(100);
      }
      flooding.set(false);
      sampler.join();
      long stillOpen = clients.stream().filter(client -> client.open).count();
      assertEquals(0, stillOpen, stillOpen + " trickling connections were never cut off");
      double seconds = (System.nanoTime() - started) / 1e9;
      System.out.printf(
          "flood: at most %d connections held, all cut off after %.1f s%n",
          mostHeld.get(), seconds);
      // during the burst, accepted connections wait for their turn to be opened (and to close the
      // oldest stranger): the connection limit holds them. Two views of it. The kernel's, sampled
      // from outside every 10 ms: without the limit the service takes in the listen backlog (129)
      // at once; with it, 32 here on every run, yet one CI run on another machine (stop 35, as
      // root)
      // sampled 44, unexplained so far (the service's own count below cannot pass the limit, and
      // sockets it closed leave ESTABLISHED at once), so this view asserts only that the flood was
      // held to well under the backlog. The service's own count is exact: the most TCP connections
      // it had open at once, read from its status after the flood.
      assertTrue(
          mostHeld.get() <= 2 * MAX_CONNECTIONS,
          "at most " + MAX_CONNECTIONS + " connections were held at once, not " + mostHeld);
      assertTrue(
          seconds < REQUEST_TIMEOUT_SECONDS + 8,
          "the last trickling connection was cut off after "
              + seconds
              + " s; the deadline is "
              + REQUEST_TIMEOUT_SECONDS
              + " s");
      JsonNode status =
          Json.mapper()
              .readTree(
                  RawHttp.send(
                          service.port(),
                          "GET /v1/service/status HTTP/1.1\r\n" + host + auth,
                          null,
                          ANSWER_WITHIN)
                      .body());
      JsonNode connections = status.get("connections");
      assertTrue(
          connections.get("tcp_most_open").asInt() <= MAX_CONNECTIONS,
          "the service had at most "
              + MAX_CONNECTIONS
              + " TCP connections open at once: "
              + status);
      assertTrue(
          connections.get("tcp_most_open").asInt() >= MAX_CONNECTIONS / 4,
          "the flood was taken in: " + status);
      assertTrue(connections.get("unauthenticated_cut").asLong() >= 300, status.toString());
      assertTrue(connections.get("authenticated").asLong() >= 4, status.toString());
      workspace.assertOutsideUnchanged();
    } finally {
      flooding.set(false);
      for (Trickler client : clients) {
        client.close();
      }
      service.process().destroy();
      service.process().waitFor(60, TimeUnit.SECONDS);
    }
  }

  @Test
  void serveRefusesWorkspacesOutsideTheAllowedDirectories() throws Exception {
    TestWorkspace outside = TestWorkspace.in(temp.resolve("elsewhere")).file("a.txt", "a\n");
    Path allowed = Files.createDirectories(temp.resolve("allowed/project"));
    ServeProcessIT.Service service =
        ServeProcessIT.Service.start(
            temp, Map.of(), "--allow-workspace", allowed.getParent().toString());
    try {
      Map<String, Long> rows = StoreRows.countAtRest(service.database());
      String auth = "Authorization: Bearer " + service.token() + "\r\n";
      String host = "Host: 127.0.0.1:" + service.port() + "\r\n";
      RawHttp.Response refused =
          RawHttp.send(
              service.port(),
              "POST /v1/turns HTTP/1.1\r\n" + host + auth,
              "{\"workspace\":\"" + outside.root() + "\"}",
              Duration.ofSeconds(30));
      assertEquals(403, refused.status(), refused.toString());
      JsonNode error = Json.mapper().readTree(refused.body());
      assertEquals("forbidden_workspace", error.get("error").asText());
      assertEquals(rows, StoreRows.countAtRest(service.database()), "nothing was written");
      RawHttp.Response began =
          RawHttp.send(
              service.port(),
              "POST /v1/turns HTTP/1.1\r\n" + host + auth,
              "{\"workspace\":\"" + allowed + "\"}",
              Duration.ofSeconds(30));
      assertEquals(201, began.status(), began.toString());
      outside.assertOutsideUnchanged();
      outside.canary().assertNotIn("a response", refused.body() + began.body());
    } finally {
      service.process().destroy();
      service.process().waitFor(60, TimeUnit.SECONDS);
    }
  }
}
