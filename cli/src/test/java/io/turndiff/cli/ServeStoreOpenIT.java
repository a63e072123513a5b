package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-user service accepts on its socket while its store is still opening (docs/service.md,
 * "Cold start"): a real {@code serve --daemon} process held before its store's open, a real call
 * over the socket made then, answered once the store is open, and the discovery file written only
 * after that.
 */
class ServeStoreOpenIT {

  @TempDir Path temp;

  @Test
  void aCallMadeWhileTheStoreOpensIsAnsweredOnceItIsOpen() throws Exception {
    Path run = Files.createDirectory(temp.resolve("run"));
    Files.setPosixFilePermissions(run, PosixFilePermissions.fromString("rwx------"));
    Path discovery = run.resolve("d.json");
    Path socket = run.resolve("d.sock");
    Path release = temp.resolve("release");
    Process serve =
        CliProcess.builder(
                Map.of(EnvTestHook.STORE_OPEN_UNTIL, release.toString()),
                "serve",
                "--db",
                temp.resolve("store/turndiff.db").toString(),
                "--daemon",
                "--discovery",
                discovery.toString(),
                "--port",
                "0",
                "--socket",
                socket.toString())
            .redirectErrorStream(true)
            .redirectOutput(temp.resolve("serve.out").toFile())
            .start();
    try {
      // the store's open is held until the release exists: the socket must come before it
      Instant deadline = Instant.now().plus(Duration.ofSeconds(40));
      while (!Files.exists(socket) && serve.isAlive() && Instant.now().isBefore(deadline)) {
        Thread.sleep(20);
      }
      assertTrue(Files.exists(socket), "no socket while the store was opening");
      CompletableFuture<String> answer = CompletableFuture.supplyAsync(() -> status(socket));
      Thread.sleep(1000);
      assertFalse(answer.isDone(), "answered before the store was open: " + answer.getNow(""));
      assertFalse(Files.exists(discovery), "published before the store was open");

      Files.writeString(release, "");
      String response = answer.get(60, TimeUnit.SECONDS);
      assertTrue(
          response.startsWith("HTTP/1.1 200"), "the call made while the store opened: " + response);
      assertTrue(response.contains("\"store\""), "its answer is the service's status: " + response);
      while (!Files.exists(discovery) && serve.isAlive()) {
        Thread.sleep(20);
      }
      assertTrue(
          Files.exists(discovery), "published: " + Files.readString(temp.resolve("serve.out")));
    } finally {
      serve.destroy();
      serve.waitFor(60, TimeUnit.SECONDS);
    }
  }

  /** {@code GET /v1/service/status} over the socket, as the hook script's curl sends a call. */
  private static String status(Path socket) {
    try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      channel.connect(UnixDomainSocketAddress.of(socket));
      String request =
          "GET /v1/service/status HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
      channel.write(ByteBuffer.wrap(request.getBytes(StandardCharsets.US_ASCII)));
      InputStream in = Channels.newInputStream(channel);
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "no answer: " + e;
    }
  }
}
