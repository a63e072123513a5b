package io.turndiff.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * An HTTP/1.1 client of the service, as a hook client talks to it: over its Unix domain socket
 * (which the JDK's HTTP client cannot speak over), or over its loopback port without the JDK
 * client's own threads, so that what is measured is the service's edge, not a client's. It sends
 * each request in one write, as {@code curl} and Node's {@code http} do with a small body, and
 * reads the answer (its head, then {@code Content-Length} bytes) into one buffer it keeps, so that
 * the client's own allocation and copying stay out of the figures (the first version read the head
 * a byte at a time into a growing array and split it into strings: a fifth of a health check's
 * allocation was the bench's).
 *
 * <p>Two ways to use it: one connection kept open for many calls ({@link #send}), as the bench's
 * first rows did; or a connection per call with {@code Connection: close} ({@link #sendOnce}), as
 * the hook client ({@code hooks/src/main/c}) and {@code curl --unix-socket} in the hook script do:
 * every runtime's call pays a connection's accept and close.
 */
final class SocketHttpClient implements AutoCloseable {

  private static final byte[] CONTENT_LENGTH =
      "\r\ncontent-length:".getBytes(StandardCharsets.US_ASCII);

  private final SocketChannel channel;
  private final String headers;
  private final ByteBuffer answer;

  /**
   * @param headers the headers every request carries, each line ending in CRLF
   * @param answer where answers are read; reused from call to call
   */
  private SocketHttpClient(SocketChannel channel, String headers, ByteBuffer answer) {
    this.channel = channel;
    this.headers = headers;
    this.answer = answer;
  }

  /** A connection to the service's Unix domain socket, which needs no token. */
  static SocketHttpClient unix(Path socket) throws IOException {
    return unix(socket, ByteBuffer.allocate(64 * 1024));
  }

  private static SocketHttpClient unix(Path socket, ByteBuffer answer) throws IOException {
    return new SocketHttpClient(
        connect(StandardProtocolFamily.UNIX, UnixDomainSocketAddress.of(socket)),
        // the service checks no Host on its socket, but HTTP/1.1 requires one
        "Host: localhost\r\n",
        answer);
  }

  /** A connection to the service's loopback {@code port}, sending {@code token} with each call. */
  static SocketHttpClient tcp(int port, String token) throws IOException {
    SocketChannel channel =
        connect(StandardProtocolFamily.INET, new InetSocketAddress("127.0.0.1", port));
    channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
    return new SocketHttpClient(
        channel,
        "Host: 127.0.0.1:" + port + "\r\nAuthorization: Bearer " + token + "\r\n",
        ByteBuffer.allocate(64 * 1024));
  }

  private static SocketChannel connect(StandardProtocolFamily family, SocketAddress address)
      throws IOException {
    SocketChannel channel = SocketChannel.open(family);
    channel.connect(address);
    return channel;
  }

  /**
   * One call on a connection of its own to the socket, closed after it ({@code Connection: close},
   * the answer read to its end), as the hook client sends one; {@code answer} is the buffer to read
   * into, kept by the caller, which holds the answer from its start to its position after.
   */
  static int sendOnce(Path socket, ByteBuffer answer, String method, String target, String body)
      throws IOException {
    try (SocketHttpClient once = unix(socket, answer)) {
      int status = once.exchange(method, target, body, "Connection: close\r\n");
      // as the hook client does: the answer is whole when the service has closed. What it held is
      // left in the buffer from its start (unless it outgrew it), for a caller that reports a
      // call that failed.
      while (true) {
        if (!answer.hasRemaining()) {
          answer.clear();
        }
        if (once.channel.read(answer) < 0) {
          return status;
        }
      }
    }
  }

  /** Sends the request on the kept-open connection and returns the answer's status. */
  int send(String method, String target, String body) throws IOException {
    return exchange(method, target, body, "");
  }

  private int exchange(String method, String target, String body, String more) throws IOException {
    byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
    String head =
        method
            + " "
            + target
            + " HTTP/1.1\r\n"
            + headers
            + more
            + "Content-Type: application/json\r\nContent-Length: "
            + bytes.length
            + "\r\n\r\n";
    byte[] headBytes = head.getBytes(StandardCharsets.US_ASCII);
    ByteBuffer request = ByteBuffer.allocate(headBytes.length + bytes.length);
    request.put(headBytes).put(bytes).flip();
    while (request.hasRemaining()) {
      channel.write(request);
    }
    return readAnswer();
  }

  /** Reads one answer, its head and its {@code Content-Length} bytes; returns its status. */
  private int readAnswer() throws IOException {
    answer.clear();
    int headEnd;
    while ((headEnd = headEnd()) < 0) {
      fill();
    }
    byte[] array = answer.array();
    int status = (array[9] - '0') * 100 + (array[10] - '0') * 10 + (array[11] - '0');
    int end = headEnd + contentLength(headEnd);
    while (answer.position() < end) {
      fill();
    }
    return status;
  }

  private void fill() throws IOException {
    if (!answer.hasRemaining()) {
      throw new IOException("an answer larger than the bench's buffer");
    }
    if (channel.read(answer) < 0) {
      throw new IOException("the service closed the connection mid-answer");
    }
  }

  /** Where the head read so far ends (after its blank line), or -1. */
  private int headEnd() {
    byte[] array = answer.array();
    for (int i = 3; i < answer.position(); i++) {
      if (array[i] == '\n'
          && array[i - 1] == '\r'
          && array[i - 2] == '\n'
          && array[i - 3] == '\r') {
        return i + 1;
      }
    }
    return -1;
  }

  private int contentLength(int headEnd) {
    byte[] array = answer.array();
    for (int i = 0; i + CONTENT_LENGTH.length < headEnd; i++) {
      int matched = 0;
      while (matched < CONTENT_LENGTH.length
          && Character.toLowerCase(array[i + matched]) == CONTENT_LENGTH[matched]) {
        matched++;
      }
      if (matched == CONTENT_LENGTH.length) {
        int value = 0;
        for (int j = i + matched; array[j] != '\r'; j++) {
          if (array[j] != ' ') {
            value = value * 10 + (array[j] - '0');
          }
        }
        return value;
      }
    }
    return 0;
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
