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
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code turndiff serve} process against hostile clients: hundreds of connections that
 * trickle bytes and never send the token are capped and cut off at the request deadline, and the
 * service still answers; {@code --allow-workspace} refuses roots outside it.
 */
class ServeHostileClientsIT {

  private static final int MAX_CONNECTIONS = 32;
  private static final int REQUEST_TIMEOUT_SECONDS = 2;

  @TempDir Path temp;

  /** Descriptors the process has open now. */
  private static long descriptors(Process process) {
    try (Stream<Path> fds = Files.list(Path.of("/proc/" + process.pid() + "/fd"))) {
      return fds.count();
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
  void tricklingClientsWithoutATokenAreCappedAndCutOffAndTheServiceStillAnswers() throws Exception {
    ServeProcessIT.Service service =
        ServeProcessIT.Service.start(
            temp,
            Map.of(),
            "--max-connections",
            String.valueOf(MAX_CONNECTIONS),
            "--request-timeout",
            String.valueOf(REQUEST_TIMEOUT_SECONDS));
    List<Trickler> clients = new ArrayList<>();
    try {
      long baseline = descriptors(service.process());
      String head =
          "POST /v1/turns HTTP/1.1\r\nHost: 127.0.0.1:" + service.port() + "\r\nX-Trickle: ";
      for (int c = 0; c < 300; c++) {
        clients.add(new Trickler(service.port(), head));
      }
      long mostHeld = 0;
      long started = System.nanoTime();
      long deadline = started + TimeUnit.SECONDS.toNanos(30);
      while (clients.stream().anyMatch(client -> client.open) && System.nanoTime() < deadline) {
        clients.forEach(Trickler::trickle);
        mostHeld = Math.max(mostHeld, descriptors(service.process()) - baseline);
        Thread.sleep(100);
      }
      long stillOpen = clients.stream().filter(client -> client.open).count();
      assertEquals(0, stillOpen, stillOpen + " trickling connections were never cut off");
      assertTrue(
          mostHeld <= MAX_CONNECTIONS + 4,
          "at most " + MAX_CONNECTIONS + " connections were held at once, not " + mostHeld);
      assertTrue(
          mostHeld >= MAX_CONNECTIONS / 2,
          "the trickling clients did occupy the service: " + mostHeld);
      double seconds = (System.nanoTime() - started) / 1e9;
      System.out.printf(
          "trickling: at most %d descriptors held, all cut off after %.1f s%n", mostHeld, seconds);
      assertTrue(
          seconds < 15,
          "the last trickling connection was cut off after "
              + seconds
              + " s; the deadline is "
              + REQUEST_TIMEOUT_SECONDS
              + " s");

      RawHttp.Response health =
          RawHttp.send(
              service.port(),
              "GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1:"
                  + service.port()
                  + "\r\nAuthorization: Bearer "
                  + service.token()
                  + "\r\n",
              null,
              Duration.ofSeconds(5));
      assertEquals(200, health.status(), health.toString());
      // the server closes the cut-off and the health connections on its own thread: give it a
      // moment
      long held = descriptors(service.process()) - baseline;
      for (long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
          held > 4 && System.nanoTime() < until; ) {
        Thread.sleep(100);
        held = descriptors(service.process()) - baseline;
      }
      assertTrue(
          held <= 4,
          "the descriptors were given back: " + held + " more than before the clients came");
    } finally {
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
