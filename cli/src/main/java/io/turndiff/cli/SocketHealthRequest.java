package io.turndiff.cli;

import io.turndiff.api.Json;
import io.turndiff.api.wire.WireHealth;
import java.io.IOException;
import java.io.InputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One {@code GET /v1/health} over the service's Unix domain socket, as the hook script's {@code
 * curl --unix-socket} sends its calls: the JDK's HTTP client cannot speak over a socket file (nor
 * does the CLI carry another client), and one request with {@code Connection: close}, read to its
 * end, needs no more than the channel itself.
 */
final class SocketHealthRequest {

  /** The hook script gives a connection one second; an answer gets a little more. */
  private static final Duration DEADLINE = Duration.ofSeconds(3);

  /** A health answer is a few hundred bytes; more than this is not the service. */
  private static final int ANSWER_LIMIT = 64 * 1024;

  private SocketHealthRequest() {}

  /** Empty when the socket answered 200 with a sound health body; else what went wrong. */
  static Optional<String> ask(Path socket) {
    // the channel is closed first (resources close in reverse), so the waiter never waits on it
    try (ExecutorService waiter = Executors.newVirtualThreadPerTaskExecutor();
        SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      // a blocking channel has no read timeout: the exchange runs apart, and the channel is closed
      // at the deadline, which ends a read that would hang on a service that stopped answering
      Future<String> answer = waiter.submit(() -> exchange(channel, socket));
      try {
        return judge(answer.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS));
      } catch (TimeoutException e) {
        return Optional.of("no answer within " + DEADLINE.toSeconds() + " s");
      } catch (ExecutionException e) {
        return Optional.of("no answer (" + e.getCause().getMessage() + ")");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Optional.of("interrupted");
      }
    } catch (IOException e) {
      return Optional.of("cannot open a socket channel (" + e.getMessage() + ")");
    }
  }

  private static String exchange(SocketChannel channel, Path socket) throws IOException {
    channel.connect(UnixDomainSocketAddress.of(socket));
    String request = "GET /v1/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    channel.write(ByteBuffer.wrap(request.getBytes(StandardCharsets.US_ASCII)));
    InputStream in = Channels.newInputStream(channel);
    return new String(in.readNBytes(ANSWER_LIMIT), StandardCharsets.UTF_8);
  }

  /**
   * The status line must say 200 and the body be {@code {"ok":true}}. The body is taken between its
   * outer braces, so that a chunked answer's size lines do not matter.
   */
  private static Optional<String> judge(String answer) {
    if (answer.isEmpty()) {
      return Optional.of("the connection was closed unanswered");
    }
    String statusLine = answer.lines().findFirst().orElse("");
    if (!statusLine.matches("HTTP/1\\.[01] 200( .*)?")) {
      return Optional.of("it answered " + Terminal.printable(statusLine));
    }
    int open = answer.indexOf('{');
    int close = answer.lastIndexOf('}');
    Optional<WireHealth> health =
        open >= 0 && close > open
            ? Json.read(answer.substring(open, close + 1), WireHealth.class)
            : Optional.empty();
    return health.isPresent() && health.get().ok()
        ? Optional.empty()
        : Optional.of("its answer is not the service's health");
  }
}
