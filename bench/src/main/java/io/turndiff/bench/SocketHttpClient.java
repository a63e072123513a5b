package io.turndiff.bench;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;

/**
 * One kept-open HTTP/1.1 connection to the service, as a hook client holds it: over its Unix domain
 * socket (which the JDK's HTTP client cannot speak over), or over its loopback port without the JDK
 * client's own threads, so that what is measured is the service's edge, not a client's. It sends
 * each request in one write, as {@code curl} and Node's {@code http} do with a small body, and
 * reads the answer (its head, then {@code Content-Length} bytes) itself.
 */
final class SocketHttpClient implements AutoCloseable {

  private final SocketChannel channel;
  private final InputStream in;
  private final String headers;

  /**
   * @param headers the headers every request carries, each line ending in CRLF
   */
  private SocketHttpClient(SocketChannel channel, String headers) {
    this.channel = channel;
    this.headers = headers;
    // the head is read a byte at a time: from a buffer, not a system call each
    in = new BufferedInputStream(Channels.newInputStream(channel));
  }

  /** A connection to the service's Unix domain socket, which needs no token. */
  static SocketHttpClient unix(Path socket) throws IOException {
    return new SocketHttpClient(
        connect(StandardProtocolFamily.UNIX, UnixDomainSocketAddress.of(socket)),
        // the service checks no Host on its socket, but HTTP/1.1 requires one
        "Host: localhost\r\n");
  }

  /** A connection to the service's loopback {@code port}, sending {@code token} with each call. */
  static SocketHttpClient tcp(int port, String token) throws IOException {
    SocketChannel channel =
        connect(StandardProtocolFamily.INET, new InetSocketAddress("127.0.0.1", port));
    channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
    return new SocketHttpClient(
        channel, "Host: 127.0.0.1:" + port + "\r\nAuthorization: Bearer " + token + "\r\n");
  }

  private static SocketChannel connect(StandardProtocolFamily family, SocketAddress address)
      throws IOException {
    SocketChannel channel = SocketChannel.open(family);
    channel.connect(address);
    return channel;
  }

  /** Sends the request and returns the answer's status, its body read and dropped. */
  int send(String method, String target, String body) throws IOException {
    byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
    String head =
        method
            + " "
            + target
            + " HTTP/1.1\r\n"
            + headers
            + "Content-Type: application/json\r\nContent-Length: "
            + bytes.length
            + "\r\n\r\n";
    byte[] headBytes = head.getBytes(StandardCharsets.US_ASCII);
    ByteBuffer request = ByteBuffer.allocate(headBytes.length + bytes.length);
    request.put(headBytes).put(bytes).flip();
    while (request.hasRemaining()) {
      channel.write(request);
    }
    String answer = readHead();
    int length = 0;
    for (String line : answer.split("\r\n")) {
      if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
        length = Integer.parseInt(line.substring(15).strip());
      }
    }
    in.readNBytes(length);
    return Integer.parseInt(answer.substring(9, 12));
  }

  private String readHead() throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("the service closed the connection mid-answer");
      }
      head.write(b);
      matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    return head.toString(StandardCharsets.US_ASCII);
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
